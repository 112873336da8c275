import * as fs from 'fs';
import * as path from 'path';
import { readProjectContext } from '../src/context/project-context';
import { estimateTokens } from '../src/context/tokens';
import { useTempFolder } from './helpers';

const folder = useTempFolder('ai-project-context-');
const write = (rel: string, text: string): string => folder.write(rel, text);
let root: string;
beforeEach(() => (root = folder.root));

test('nothing to read: undefined', () => {
  expect(readProjectContext(root, 1000)).toBeUndefined();
});

test('a lone CLAUDE.md is read (not only AGENTS.md)', () => {
  const file = write('CLAUDE.md', 'Use pnpm.\n');
  const ctx = readProjectContext(root, 1000)!;
  expect(ctx.text).toBe('Use pnpm.');
  expect(ctx.files).toEqual([{ file, tokens: estimateTokens('Use pnpm.'), truncated: false }]);
});

test('nearest first: .slothtool/AGENTS.md, AGENTS.md, CLAUDE.md in the cwd, then the parents up to the git root', () => {
  fs.mkdirSync(path.join(root, 'repo', '.git'), { recursive: true });
  write('AGENTS.md', 'outside the repository: never read');
  const rootAgents = write('repo/AGENTS.md', 'root agents');
  const rootClaude = write('repo/CLAUDE.md', 'root claude');
  const subOwn = write('repo/pkg/.slothtool/AGENTS.md', 'sub slothtool');
  const subClaude = write('repo/pkg/CLAUDE.md', 'sub claude');
  const ctx = readProjectContext(path.join(root, 'repo', 'pkg'), 1000)!;
  expect(ctx.files.map((f) => f.file)).toEqual([subOwn, subClaude, rootAgents, rootClaude]);
  expect(ctx.text).toBe(
    [`--- ${subOwn}\nsub slothtool`, `--- ${subClaude}\nsub claude`, `--- ${rootAgents}\nroot agents`, `--- ${rootClaude}\nroot claude`].join('\n\n'),
  );
  expect(ctx.file).toBe([subOwn, subClaude, rootAgents, rootClaude].join(', '));
});

test('outside a repository only the cwd is searched', () => {
  write('AGENTS.md', 'parent');
  fs.mkdirSync(path.join(root, 'sub'));
  expect(readProjectContext(path.join(root, 'sub'), 1000)).toBeUndefined();
});

test('the same file through a symlink counts once', () => {
  write('AGENTS.md', 'shared instructions');
  fs.symlinkSync('AGENTS.md', path.join(root, 'CLAUDE.md'));
  const ctx = readProjectContext(root, 1000)!;
  expect(ctx.files).toHaveLength(1);
  expect(ctx.text).toBe('shared instructions');
});

test('the cap holds over all files; nearer files are kept, farther ones cut or dropped', () => {
  fs.mkdirSync(path.join(root, '.git'));
  write('AGENTS.md', 'far '.repeat(5000));
  write('sub/AGENTS.md', 'near '.repeat(100));
  const ctx = readProjectContext(path.join(root, 'sub'), 300)!;
  expect(ctx.files[0]).toMatchObject({ file: path.join(root, 'sub', 'AGENTS.md'), truncated: false });
  expect(ctx.files[1]).toMatchObject({ file: path.join(root, 'AGENTS.md'), truncated: true });
  const kept = ctx.files.reduce((n, f) => n + f.tokens, 0);
  expect(kept).toBeLessThanOrEqual(300);
});

test('a folder named AGENTS.md and empty files are skipped', () => {
  fs.mkdirSync(path.join(root, 'AGENTS.md'));
  write('CLAUDE.md', '   \n');
  expect(readProjectContext(root, 1000)).toBeUndefined();
});

test('cap 0 turns project instructions off', () => {
  write('AGENTS.md', 'x');
  expect(readProjectContext(root, 0)).toBeUndefined();
});
