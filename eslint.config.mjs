// ESLint for the TypeScript packages: typescript-eslint's recommended rules, plus the sizes a
// newcomer can read (a source file ≤ 400 lines, a function ≤ 80). Prettier owns the layout
// (.prettierrc.json); `npm test` runs both before jest (scripts/test.js).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

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
