import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { eachReturns } from '@holic512/testkit';
import { findRepo, hashLength, indexedPaths } from '../src/sandbox/git-index';
import {
  envFileClass,
  excludePattern,
  nodeWorkspaceSecretsDeps,
  workspaceSecrets,
  type WorkspaceSecretsDeps,
} from '../src/sandbox/workspace-secrets';
import { retryRefusal } from '../src/sandbox/retry';

// Env files of a workspace (issue #43 item 4): templates are no secrets, what git tracks is never
// hidden, and what is hidden is absent to git (listed in an exclude file shown over the
// repository's own). The index is read without running git, in every format git writes.

describe('envFileClass: the class, not a list of names', () => {
  eachReturns('%s → %s', envFileClass, [
    ['.env', 'secret'],
    ['.env.local', 'secret'],
    ['.env.production', 'secret'],
    ['.env.development.local', 'secret'],
    ['.env.exampled', 'secret'],
    ['.env.example', 'template'],
    ['.env.sample', 'template'],
    ['.env.template', 'template'],
    ['.env.dist', 'template'],
    ['.env.defaults', 'template'],
    ['.env.schema', 'template'],
    ['.env.tpl', 'template'],
    ['.env.local.example', 'template'],
    ['.env.production.sample', 'template'],
    ['.env.example_v2', 'template'],
    ['.env.EXAMPLE', 'template'],
    ['.env.dist-local', 'template'],
    ['.envrc', undefined],
    ['.environment', undefined],
    ['env.example', undefined],
    ['.env-example', undefined],
  ]);
  test('a write to a template in the workspace may be offered again; one to a secret env file never', () => {
    const places = { workspace: '/w', home: '/home/u', slothtoolHome: '/home/u/.slothtool', real: (p: string) => p };
    expect(retryRefusal({ kind: 'write', path: '/w/.env.example' }, 'L0', places, true)).toBeUndefined();
    expect(retryRefusal({ kind: 'write', path: '/w/.env.local' }, 'L0', places, true)).toBe('protected');
  });
});

eachReturns('excludePattern(%j) → %j (matches only that path)', excludePattern, [
  ['.env', '/.env'],
  ['sub dir/.env.local', '/sub dir/.env.local'],
  ['.env[1]*?', '/.env\\[1\\]\\*\\?'],
  ['!x/#y\\z', '/\\!x/\\#y\\\\z'],
  ['.env  ', '/.env\\ \\ '],
]);

let root: string;
beforeAll(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'env-files-')));
});
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

const gitEnv = {
  ...process.env,
  GIT_AUTHOR_NAME: 't',
  GIT_AUTHOR_EMAIL: 't@t',
  GIT_COMMITTER_NAME: 't',
  GIT_COMMITTER_EMAIL: 't@t',
  GIT_CONFIG_NOSYSTEM: '1',
  HOME: os.tmpdir(),
};
const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', args, { cwd, env: gitEnv, stdio: ['ignore', 'pipe', 'pipe'] }).toString();

/** A repository with files at `tracked`, committed, and the index written in `version`. */
function repo(name: string, tracked: string[], options: { version?: 2 | 3 | 4; sha256?: boolean } = {}): string {
  const dir = path.join(root, name);
  fs.mkdirSync(dir, { recursive: true });
  git(dir, 'init', '-q', ...(options.sha256 ? ['--object-format=sha256'] : []));
  for (const f of tracked) {
    fs.mkdirSync(path.dirname(path.join(dir, f)), { recursive: true });
    fs.writeFileSync(path.join(dir, f), `${f}\n`);
  }
  // names that sort before, between and after the env files
  for (const f of ['!first', '.babelrc', '.github/workflows/ci.yml', 'zz/last']) {
    fs.mkdirSync(path.dirname(path.join(dir, f)), { recursive: true });
    fs.writeFileSync(path.join(dir, f), 'x\n');
  }
  git(dir, 'add', '-A');
  git(dir, 'commit', '-qm', 'init');
  if (options.version === 3) {
    fs.writeFileSync(path.join(dir, 'intent'), 'x\n');
    git(dir, 'add', '-N', 'intent');
  }
  if (options.version) git(dir, 'update-index', '--index-version', String(options.version));
  return dir;
}

describe('indexedPaths: which paths the index lists, read without git', () => {
  const TRACKED = ['.env.test', '.env.d/config', 'pkg/api/.env', 'pkg/api/src/x.js'];
  const TARGETS = ['.env', '.env.test', '.env.d', '.env.local', 'pkg/api/.env', 'pkg/api/.env.local', 'pkg/web/.env'];
  test.each<[string, { version?: 2 | 3 | 4; sha256?: boolean }]>([
    ['index v2', { version: 2 }],
    ['index v3 (an intent-to-add entry)', { version: 3 }],
    ['index v4 (path prefix compression)', { version: 4 }],
    ['a SHA-256 repository', { sha256: true }],
  ])('%s', (name, options) => {
    const dir = repo(name.replace(/\W+/g, '-'), TRACKED, options);
    const index = fs.readFileSync(path.join(dir, '.git', 'index'));
    if (options.version) expect(index.readUInt32BE(4)).toBe(options.version);
    const info = findRepo(dir)!;
    expect(hashLength(info)).toBe(options.sha256 ? 32 : 20);
    expect([...indexedPaths(index, TARGETS, hashLength(info))!].sort()).toEqual(['.env.d', '.env.test', 'pkg/api/.env']);
  });
  test('not an index, or a version this does not read: undefined (the caller hides then)', () => {
    expect(indexedPaths(Buffer.from('not an index at all'), ['.env'], 20)).toBeUndefined();
    const v5 = Buffer.from('DIRC\0\0\0\x05\0\0\0\0', 'latin1');
    expect(indexedPaths(v5, ['.env'], 20)).toBeUndefined();
    const cut = fs.readFileSync(path.join(repo('cut', ['.env']), '.git', 'index')).subarray(0, 40);
    expect(indexedPaths(cut, ['.env'], 20)).toBeUndefined();
  });
  test('a worktree reads its own index; a folder inside a repository finds its top', () => {
    const main = repo('with-worktree', ['.env.test']);
    const wt = path.join(root, 'the-worktree');
    git(main, 'worktree', 'add', '-q', wt);
    const info = findRepo(path.join(wt))!;
    expect(info).toMatchObject({ top: wt, commonDir: path.join(main, '.git') });
    expect(info.gitDir).toBe(path.join(main, '.git', 'worktrees', 'the-worktree'));
    expect(findRepo(path.join(main, '.github', 'workflows'))).toMatchObject({ top: main, gitDir: path.join(main, '.git') });
  });
});

describe('workspaceSecrets: what is hidden, and how git is told', () => {
  test('templates and tracked env files are shown; untracked ones hidden and listed in an exclude file over info/exclude', () => {
    const dir = repo('plan', ['.env.example', '.env.test']);
    fs.writeFileSync(path.join(dir, '.git', 'info', 'exclude'), '# my own\n*.log');
    for (const f of ['.env', '.env.local', '.env.sample']) fs.writeFileSync(path.join(dir, f), 'SECRET=1\n');
    const run = path.join(root, 'run-plan');
    const deps = nodeWorkspaceSecretsDeps(run, (p) => {
      const st = fs.statSync(p, { throwIfNoEntry: false });
      return st ? (st.isDirectory() ? 'dir' : 'file') : undefined;
    });
    const plan = workspaceSecrets(dir, fs.readdirSync(dir), () => true, deps);
    expect(plan.hide).toEqual([
      { path: path.join(dir, '.env'), kind: 'file' },
      { path: path.join(dir, '.env.local'), kind: 'file' },
    ]);
    expect(plan.exclude?.to).toBe(path.join(dir, '.git', 'info', 'exclude'));
    expect(path.dirname(plan.exclude!.from)).toBe(run);
    expect(fs.readFileSync(plan.exclude!.from, 'utf8')).toBe(
      '# my own\n*.log\n# SlothTool sandbox: hidden from this step, absent to git\n/.env\n/.env.local\n',
    );
    // the same plan again: the same file, nothing read or written anew
    expect(workspaceSecrets(dir, fs.readdirSync(dir), () => true, deps).exclude).toEqual(plan.exclude);
    // committed since: shown from the next step on
    git(dir, 'add', '-f', '.env.local');
    expect(workspaceSecrets(dir, fs.readdirSync(dir), () => true, deps).hide.map((h) => path.basename(h.path))).toEqual(['.env']);
  });

  const fake = (over: Partial<WorkspaceSecretsDeps> = {}): WorkspaceSecretsDeps => ({
    kind: (p) => (p.endsWith('.venv-marker') ? undefined : p.endsWith('/.env') && over.kind === undefined ? 'file' : undefined),
    repo: () => ({ top: '/w', gitDir: '/w/.git', commonDir: '/w/.git' }),
    tracked: () => new Set(),
    exclude: (_r, patterns) => ({ from: `/run/exclude-${patterns.length}`, to: '/w/.git/info/exclude' }),
    ...over,
  });
  test.each([
    ['no repository: every secret env file hidden, no exclude file', fake({ repo: () => undefined }), ['/w/.env'], false],
    ['an index that cannot be read: hidden (never less than before)', fake({ tracked: () => undefined }), ['/w/.env'], true],
    ['a repository without info/exclude: hidden, no exclude file', fake({ exclude: () => undefined }), ['/w/.env'], false],
    ['tracked: shown', fake({ tracked: () => new Set(['.env']) }), [], false],
    [
      'a `.env` virtual environment (pyvenv.cfg): a toolchain, shown',
      fake({ kind: (p) => (p === '/w/.env' ? 'dir' : p === '/w/.env/pyvenv.cfg' ? 'file' : undefined) }),
      [],
      false,
    ],
    [
      'a `.env` folder that is no virtual environment: hidden, not listed (a folder hidden by an empty tmpfs is absent to git already)',
      fake({ kind: (p) => (p === '/w/.env' ? 'dir' : undefined) }),
      ['/w/.env'],
      false,
    ],
  ] as const)('%s', (_what, deps, hidden, excluded) => {
    const plan = workspaceSecrets('/w', ['.env', '.env.example', 'src'], () => true, deps);
    expect(plan.hide.map((h) => h.path)).toEqual(hidden);
    expect(Boolean(plan.exclude)).toBe(excluded);
  });
  test('what a step of the level cannot see is not planned at all', () => {
    expect(workspaceSecrets('/w', ['.env'], () => false, fake()).hide).toEqual([]);
  });
});
