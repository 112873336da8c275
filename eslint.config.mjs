// ESLint for the TypeScript packages: typescript-eslint's recommended rules, plus the sizes a
// newcomer can read (a source file ≤ 400 lines, a function ≤ 80). Prettier owns the layout
// (.prettierrc.json); `npm test` runs both before jest (scripts/test.js).
import js from '@eslint/js';
import { builtinModules } from 'node:module';
import tseslint from 'typescript-eslint';

const NODE_BUILTINS = builtinModules.filter((m) => !m.startsWith('_')).map((m) => m.replace(/[/]/g, '\\/'));

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      'packages/*/lib/**',
      'packages/*/dist/**',
      'packages/*/test/fixtures/**',
      'bench/tmp/**',
      '**/*.js',
      '**/*.mjs',
      '**/*.cjs',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      // `_`-prefixed names are kept on purpose (a handler's unused argument, a destructured rest).
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true },
      ],
      // A package reads its own version from package.json, which sits beside src/, not in it (an
      // import would move lib/'s layout); `import x = require()` is TypeScript's CommonJS import.
      '@typescript-eslint/no-require-imports': ['error', { allow: ['/package\\.json$'], allowAsImport: true }],
    },
  },
  {
    files: ['packages/*/src/**/*.ts'],
    rules: {
      'max-lines': ['error', { max: 400 }],
      'max-lines-per-function': ['error', { max: 80 }],
      // Under esModuleInterop, `import * as fs from 'fs'` compiles to a copy of every export of the
      // module as a getter, once per importing file (about 3,400 getters in a start of `ai -p`);
      // `import fs = require('fs')` is the module itself, with the same types.
      'no-restricted-syntax': [
        'error',
        {
          selector: `ImportDeclaration[importKind!='type'][source.value=/^(node:)?(${NODE_BUILTINS.join('|')})$/] > ImportNamespaceSpecifier`,
          message: "Import a node module as `import fs = require('fs')`: a namespace import copies every export into getters.",
        },
      ],
    },
  },
  {
    // A module a path needs only sometimes loads through a named lazy getter, in a file named for it
    // (lazy-modules.ts, lazy-*.ts); anywhere else code imports at the top.
    files: ['**/lazy-*.ts'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // Tests build hostile inputs and stand-ins: control characters in patterns and loose types are their subject.
    files: ['packages/*/test/**/*.ts', 'test/**/*.ts'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      'no-control-regex': 'off',
      // A test loads a module afresh (jest.isolateModules) or a built bin's lib/ on purpose.
      '@typescript-eslint/no-require-imports': 'off',
    },
  },
);
