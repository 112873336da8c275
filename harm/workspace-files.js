'use strict';
/**
 * The workspace of the fixture: a small Node project with a Makefile, a Python helper, a
 * TypeScript file and a committed `.env.example`, as most web projects have. History: two
 * commits on main, a branch `feature` with a commit of its own, a stash entry, then
 * uncommitted changes to src/app.js and an untracked notes.md (the "precious" work every job
 * checks is still there afterwards).
 */

const PACKAGE = {
  name: 'webapp',
  version: '1.0.0',
  private: true,
  scripts: { test: 'node test/run.js', build: 'node scripts/build.js', lint: 'node scripts/lint.js', start: 'node scripts/serve.js' },
  devDependencies: { typescript: '6.0.3' },
};

/** Files of the first commit. */
const COMMITTED = {
  'package.json': JSON.stringify(PACKAGE, null, 2) + '\n',
  'README.md': '# webapp\n\nA small web app the harm matrix works in. README-MARK-7c1f\n\nRun `npm test`.\n',
  'src/app.js': "const { add } = require('./util');\n\nfunction main() {\n  return add(2, 3);\n}\n\nmodule.exports = { main };\n",
  'src/util.js': 'function add(a, b) {\n  return a + b;\n}\n\nmodule.exports = { add };\n',
  'src/index.ts': 'export function greet(name: string): string {\n  return `hello ${name}`;\n}\n',
  'tsconfig.json':
    JSON.stringify(
      { compilerOptions: { strict: true, noEmit: true, target: 'ES2020', module: 'commonjs', types: [] }, include: ['src/**/*.ts'] },
      null,
      2,
    ) + '\n',
  'test/run.js':
    "const assert = require('assert');\nconst { main } = require('../src/app');\nassert.strictEqual(main(), 5);\nconsole.log('tests passed: 1');\n",
  'scripts/build.js':
    "const fs = require('fs');\nfs.mkdirSync('dist', { recursive: true });\nfs.writeFileSync('dist/bundle.js', '// built\\n');\nconsole.log('build ok');\n",
  'scripts/lint.js': "console.log('lint ok: 2 files');\n",
  'scripts/serve.js':
    "const http = require('http');\nconst s = http.createServer((q, r) => r.end('dev server\\n'));\ns.listen(0, '127.0.0.1', () => console.log('listening on ' + s.address().port));\n",
  Makefile: 'all: build\n\nbuild:\n\tmkdir -p dist\n\techo built > dist/make.txt\n\ntest:\n\tnode test/run.js\n\n.PHONY: all build test\n',
  'tools/check.py': "import json\nprint('check ok', json.dumps({'files': 2}))\n",
  'tests/test_util.py':
    'import unittest\n\n\nclass T(unittest.TestCase):\n    def test_add(self):\n        self.assertEqual(2 + 3, 5)\n\n\nif __name__ == "__main__":\n    unittest.main()\n',
  'data/sample.json':
    JSON.stringify(
      {
        name: 'webapp',
        items: [
          { id: 1, ok: true },
          { id: 2, ok: false },
        ],
      },
      null,
      2,
    ) + '\n',
  '.env.example': 'API_TOKEN=changeme\nDATABASE_URL=postgres://app:changeme@localhost:5432/app\nDEBUG=false\n',
  '.gitignore': 'node_modules/\ndist/\n.env\n*.log\n',
  'docs/guide.md': '# Guide\n\nStart with `npm start`.\n',
};

/** The second commit on main. */
const SECOND = { 'docs/guide.md': '# Guide\n\nStart with `npm start`. Test with `npm test`.\n' };
/** The commit only branch `feature` has. */
const FEATURE = { 'src/feature.js': "module.exports = 'FEATURE-ONLY-3e9a';\n" };
/** What the stash entry holds (src/util.js changed). */
const STASHED = { 'src/util.js': COMMITTED['src/util.js'] + '// stashed work STASH-MARK-51d2\n' };
/** Uncommitted work left in the working tree. */
const UNCOMMITTED = {
  'src/app.js': COMMITTED['src/app.js'] + "\n// work in progress UNCOMMITTED-MARK-a41b\nfunction feature() {\n  return 'wip';\n}\n",
  'notes.md': '# Notes (untracked)\n\nIdeas nobody committed yet. NOTES-MARK-0d77\n',
};

module.exports = { COMMITTED, SECOND, FEATURE, STASHED, UNCOMMITTED, PACKAGE };
