import * as fs from 'fs';
import * as path from 'path';
import { importRefs, readProjectContext, shareBudget, MAX_IMPORT_DEPTH } from '../src/context/project-context';
import { estimateTokens } from '../src/context/tokens';
import { useTempFolder } from './helpers/temp-folder';

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
  expect(ctx.files).toEqual([{ file, tokens: estimateTokens('Use pnpm.'), truncated: false, scope: 'project' }]);
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
    [
      `--- ${subOwn}\nsub slothtool`,
      `--- ${subClaude}\nsub claude`,
      `--- ${rootAgents}\nroot agents`,
      `--- ${rootClaude}\nroot claude`,
    ].join('\n\n'),
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

describe('user memory, imports and the shared budget (#45)', () => {
  test("the user's files come first (~/.slothtool/AGENTS.md, then ~/.claude/CLAUDE.md), then the project's", () => {
    const own = write('st/AGENTS.md', 'user slothtool');
    const claude = write('home/.claude/CLAUDE.md', 'user claude');
    const agents = write('ws/AGENTS.md', 'project agents');
    const ctx = readProjectContext(path.join(root, 'ws'), 4000, {
      slothtoolHome: path.join(root, 'st'),
      userHome: path.join(root, 'home'),
    })!;
    expect(ctx.files.map((f) => [f.file, f.scope])).toEqual([
      [own, 'user'],
      [claude, 'user'],
      [agents, 'project'],
    ]);
    expect(ctx.text.indexOf('user slothtool')).toBeLessThan(ctx.text.indexOf('user claude'));
    expect(ctx.text.indexOf('user claude')).toBeLessThan(ctx.text.indexOf('project agents'));
  });

  test('AGENTS.md and CLAUDE.md are both read even when AGENTS.md alone is over the budget: each gets a share, and the cut says so', () => {
    write('AGENTS.md', 'agents '.repeat(4000));
    write('CLAUDE.md', 'Use pnpm, never npm.');
    const ctx = readProjectContext(root, 1000)!;
    const [agents, claude] = ctx.files;
    expect(claude).toMatchObject({ truncated: false });
    expect(ctx.text).toContain('Use pnpm, never npm.');
    expect(agents).toMatchObject({ truncated: true, fullTokens: estimateTokens('agents '.repeat(4000).trim()) });
    expect(ctx.files.reduce((n, f) => n + f.tokens, 0)).toBeLessThanOrEqual(1000);
  });

  test('a 4 KB CLAUDE.md beside a 4 KB AGENTS.md fits the default budget uncut', () => {
    write('AGENTS.md', 'Build with make. '.repeat(240));
    write('CLAUDE.md', 'Test with make test. '.repeat(195));
    const ctx = readProjectContext(root, 4000)!;
    expect(ctx.files.every((f) => !f.truncated)).toBe(true);
  });

  test('@imports: inside the workspace, relative to the importing file, depth first, each file once (cycles cut)', () => {
    fs.mkdirSync(path.join(root, '.git'));
    const agents = write('AGENTS.md', '# Rules\n@docs/style.md\nSee @CLAUDE.md for more.');
    const style = write('docs/style.md', 'style guide\n@../AGENTS.md\n@naming.md');
    const naming = write('docs/naming.md', 'naming rules');
    const claude = write('CLAUDE.md', 'claude notes\n@AGENTS.md');
    const ctx = readProjectContext(root, 4000)!;
    expect(ctx.files.map((f) => [f.file, f.importedBy])).toEqual([
      [agents, undefined],
      [style, agents],
      [naming, style],
      [claude, agents],
    ]);
    expect(ctx.text).toContain(`--- ${style} (imported by ${agents})\nstyle guide`);
    expect(ctx.problems).toEqual([]);
  });

  test("imports outside the workspace, refused by fs.read's rules, too deep, or missing (on a line of their own) are not read, and say why", () => {
    fs.mkdirSync(path.join(root, 'ws', '.git'), { recursive: true });
    write('outside.md', 'secret plans');
    write('ws/.env.md', 'TOKEN=1');
    for (let i = 1; i <= MAX_IMPORT_DEPTH + 1; i++) write(`ws/d${i}.md`, `level ${i}\n@d${i + 1}.md`);
    const agents = write('ws/AGENTS.md', '@../outside.md\n@.env.md\n@d1.md\n@gone.md\nmention @someone in a sentence');
    const ctx = readProjectContext(path.join(root, 'ws'), 4000, { mayImport: (f) => (f.endsWith('.env.md') ? 'holds keys' : true) })!;
    expect(ctx.text).not.toContain('secret plans');
    expect(ctx.text).not.toContain('TOKEN=1');
    expect(ctx.text).toContain(`level ${MAX_IMPORT_DEPTH}`);
    expect(ctx.text).not.toContain(`level ${MAX_IMPORT_DEPTH + 1}`);
    expect(ctx.problems.map((p) => [path.basename(p.file), p.reason, p.detail])).toEqual([
      ['outside.md', 'outside', undefined],
      ['.env.md', 'refused', 'holds keys'],
      [`d${MAX_IMPORT_DEPTH + 1}.md`, 'depth', undefined],
      ['gone.md', 'missing', undefined],
    ]);
    expect(ctx.problems[0].from).toBe(agents);
  });

  test('a link named like an import that leads out of the workspace is outside', () => {
    fs.mkdirSync(path.join(root, 'ws', '.git'), { recursive: true });
    write('private.md', 'private');
    fs.symlinkSync(path.join(root, 'private.md'), path.join(root, 'ws', 'linked.md'));
    write('ws/AGENTS.md', '@linked.md');
    const ctx = readProjectContext(path.join(root, 'ws'), 4000)!;
    expect(ctx.text).not.toContain('private');
    expect(ctx.problems.map((p) => p.reason)).toEqual(['outside']);
  });

  test.each([
    ['@a.md', [{ ref: 'a.md', alone: true }]],
    ['read @docs/x.md, then go', [{ ref: 'docs/x.md', alone: false }]],
    ['mail me at a@b.c', []],
    ['`@not/this.md` in code', []],
    ['```\n@fenced.md\n```\n@after.md', [{ ref: 'after.md', alone: true }]],
  ])('importRefs(%j)', (text, refs) => {
    expect(importRefs(text)).toEqual(refs);
  });

  test.each([
    [[100, 100], 1000, [100, 100]],
    [[5000, 10], 1000, [990, 10]],
    [[5000, 5000], 1000, [500, 500]],
    [[300, 5000, 5000], 1000, [300, 350, 350]],
    [[10], 0, [0]],
  ])('shareBudget(%j, %i) = %j', (sizes, budget, shares) => {
    expect(shareBudget(sizes, budget)).toEqual(shares);
  });
});
