import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';

// Every file a document names (docs/*.md, the READMEs) exists: a rename or a removal that
// leaves a doc pointing at nothing fails here. Names in code spans (`src/tools/proc.ts`,
// `width.ts`) are looked for from the repository root, the document's folder, each package and
// its src/ and test/ folders; a bare file name may sit anywhere in the repository's own files.
// Example names that stand for the user's files are listed below, and files a command writes
// when it runs (GENERATED).

const root = path.resolve(__dirname, '..');
const EXAMPLES = new Set([
  'src/a.ts',
  'lib/foo.js',
  'review.md',
  'git/pr.md',
  '.d.ts',
  'CHANGELOG.md',
  'credentials.json',
  '.docker/config.json',
  '.pnpmfile.cjs',
  'llm-base.json',
  'tests.json',
  'spec_tests.json',
  './a/b.js',
]);
const GENERATED = new Set(['eval/results.md']);
const USER_FILES =
  /[<>*{}$]|^~|^\/|node_modules|\.slothtool|plugin-configs|settings(\.local)?\.json|\.hooks\/|registry\.json|ai\.json|llm-base\.(logs|calls)\.|package\.json$|tsconfig|\.mcp\.json|CLAUDE|AGENTS|SKILL|\.env|credentials|auth\.json|\.claude|\.cursor|\.vscode\/|\.devcontainer|\.zed\/|\.idea\/|eslint\.config/;

const tracked = execFileSync('git', ['ls-files'], { cwd: root, encoding: 'utf8' }).trim().split('\n');
const byName = new Set(tracked.map((f) => path.basename(f)));
const packages = fs.readdirSync(path.join(root, 'packages'));
const docs = [
  'README.md',
  'README.zh-CN.md',
  ...fs.readdirSync(path.join(root, 'docs')).map((f) => `docs/${f}`),
  ...packages.map((p) => `packages/${p}/README.md`),
].filter((f) => f.endsWith('.md') && fs.existsSync(path.join(root, f)));

function exists(doc: string, p: string): boolean {
  if (!p.includes('/')) return byName.has(p);
  const bases = [
    root,
    path.join(root, path.dirname(doc)),
    path.join(root, 'packages'),
    ...packages.flatMap((pk) =>
      ['', 'src', 'test', 'src/interactive', 'src/agent', 'src/context', 'src/config', 'src/sessions', 'src/cli'].map((d) =>
        path.join(root, 'packages', pk, d),
      ),
    ),
  ];
  return bases.some((b) => fs.existsSync(path.join(b, p)));
}

test.each(docs)('%s names only files that exist', (doc) => {
  const text = fs.readFileSync(path.join(root, doc), 'utf8');
  const missing: string[] = [];
  for (const m of text.matchAll(/`([^`\s]+\.(?:ts|js|md|json|cjs|mjs|sh))`/g)) {
    const p = m[1].replace(/:\d+$/, '');
    if (EXAMPLES.has(p) || GENERATED.has(p) || USER_FILES.test(p)) continue;
    if (!exists(doc, p)) missing.push(p);
  }
  expect(missing).toEqual([]);
});
