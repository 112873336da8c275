import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { eachReturns } from '@holic512/testkit';
import { createToolRunner, type Step } from '../src';
import { hardenGit } from '../src/tools/git-harden';
import { subcommandIndex } from '../src/policy/git-subcommand-index';
import { eachControl, eachPlantedCommand, type Mechanism } from './helpers/hostile-repo';
import { eachVerdict, execStep } from './verdict-table';

// A cloned repository is untrusted input: programs its own files name must not run at L0.
// One hostile repository per mechanism; the planted program would create a marker file. The
// runners and git run in a temp home (the SlothTool home's pipe folder is made there).

let root: string;
beforeAll(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'hostile-')));
  fs.mkdirSync(path.join(root, 'home', '.slothtool'), { recursive: true });
});
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

const homeEnv = (): NodeJS.ProcessEnv => ({
  ...process.env,
  HOME: path.join(root, 'home'),
  SLOTHTOOL_HOME: path.join(root, 'home', '.slothtool'),
  GIT_CONFIG_NOSYSTEM: '1',
});
const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, encoding: 'utf8', env: homeEnv() });

/** A repository with one committed file and an unstaged change to it. */
function repo(name: string): { dir: string; marker: string; planted: string } {
  const dir = path.join(root, name);
  fs.mkdirSync(dir);
  git(dir, 'init', '-q');
  git(dir, 'config', 'user.email', 'a@b.c');
  git(dir, 'config', 'user.name', 'A');
  fs.writeFileSync(path.join(dir, 'f.txt'), 'one\n');
  git(dir, 'add', 'f.txt');
  git(dir, 'commit', '-qm', 'first');
  fs.writeFileSync(path.join(dir, 'f.txt'), 'one\ntwo\n');
  const marker = path.join(root, `${name}.ran`);
  const planted = path.join(root, `${name}.sh`);
  fs.writeFileSync(planted, `#!/bin/sh\ntouch "${marker}"\ncat "$1" 2>/dev/null\n`, { mode: 0o755 });
  return { dir, marker, planted };
}

const mechanisms: Array<Mechanism<ReturnType<typeof repo>>> = [
  ['diff.external', (r) => git(r.dir, 'config', 'diff.external', r.planted), [['diff'], ['log', '-p'], ['show'], ['diff', '--ext-diff']]],
  [
    'textconv through .gitattributes',
    (r) => {
      fs.writeFileSync(path.join(r.dir, '.gitattributes'), '*.txt diff=evil\n');
      git(r.dir, 'config', 'diff.evil.textconv', r.planted);
    },
    [['diff'], ['log', '-p'], ['show'], ['blame', 'f.txt'], ['diff', '--textconv']],
  ],
  [
    'clean filter through .gitattributes',
    (r) => {
      fs.writeFileSync(path.join(r.dir, '.gitattributes'), '*.txt filter=evil\n');
      git(r.dir, 'config', 'filter.evil.clean', r.planted);
      git(r.dir, 'config', 'filter.evil.required', 'true');
    },
    [['diff'], ['status'], ['blame', 'f.txt']],
  ],
  ['core.pager', (r) => git(r.dir, 'config', 'core.pager', r.planted), [['log'], ['diff']]],
  ['core.fsmonitor', (r) => git(r.dir, 'config', 'core.fsmonitor', r.planted), [['status'], ['diff']]],
  [
    'a hook (post-index-change) and core.hooksPath',
    (r) => {
      const hooks = path.join(r.dir, 'myhooks');
      fs.mkdirSync(hooks);
      fs.copyFileSync(r.planted, path.join(hooks, 'post-index-change'));
      fs.chmodSync(path.join(hooks, 'post-index-change'), 0o755);
      fs.copyFileSync(r.planted, path.join(r.dir, '.git', 'hooks', 'post-index-change'));
      fs.chmodSync(path.join(r.dir, '.git', 'hooks', 'post-index-change'), 0o755);
      git(r.dir, 'config', 'core.hooksPath', hooks);
    },
    [['status'], ['add', '--dry-run', 'f.txt']],
  ],
];

eachPlantedCommand(mechanisms, 'git %s runs at L0 and the planted program never runs', async ({ sandbox, plant, args, name }) => {
  const r = repo(name);
  plant(r);
  // the planted program really would run: plain git runs it
  fs.rmSync(r.marker, { force: true });
  const runner = createToolRunner({
    cwd: r.dir,
    workspace: r.dir,
    lang: 'en',
    sandbox,
    env: homeEnv(),
    confirm: () => ({ action: 'run' }),
  });
  const step: Step = { tool: 'exec', program: 'git', args };
  const decision = runner.judge(step);
  if (decision.level !== 'L0') {
    // asked about or refused, never run without a question
    expect(['L1', 'L2']).toContain(decision.level);
    return;
  }
  const result = (await runner.run(step)) as { hardened?: string[] };
  expect(result.hardened).toEqual(expect.arrayContaining(['core.hooksPath=/dev/null', 'core.fsmonitor=false']));
  expect(fs.existsSync(r.marker)).toBe(false);
});

eachControl(
  mechanisms,
  [
    ['diff.external', ['diff']],
    ['textconv through .gitattributes', ['log', '-p']],
    ['clean filter through .gitattributes', ['diff']],
    ['core.fsmonitor', ['status']],
  ],
  repo,
  (r, args) => git(r.dir, ...args),
);

test('an ordinary repository gives the same output for git diff, log -p, show, status and grep, with paths too', async () => {
  const r = repo('ordinary');
  const runner = createToolRunner({ cwd: r.dir, workspace: r.dir, lang: 'en', env: homeEnv(), confirm: () => ({ action: 'run' }) });
  for (const args of [
    ['diff'],
    ['log', '-p'],
    ['show', '--stat'],
    ['status', '--porcelain'],
    ['log', '--oneline'],
    ['diff', 'f.txt'],
    ['diff', 'HEAD', 'f.txt'],
    ['grep', '-n', 'one'],
    ['log', '--oneline', 'f.txt'],
  ]) {
    const result = (await runner.run({ tool: 'exec', program: 'git', args })) as { stdoutTail: string; exitCode: number };
    expect({ args, out: result.stdoutTail, code: result.exitCode }).toEqual({ args, out: git(r.dir, ...args), code: 0 });
  }
});

describe('hardenGit', () => {
  test.each([
    [['diff'], ['diff', '--no-ext-diff', '--no-textconv']],
    [
      ['-C', 'x', 'log', '-p', '--', 'a'],
      ['-C', 'x', 'log', '--no-ext-diff', '--no-textconv', '-p', '--', 'a'],
    ],
    // Before any operand: git refuses an option after a path (`git diff f.txt --no-ext-diff`).
    [
      ['diff', 'HEAD', 'f.txt'],
      ['diff', '--no-ext-diff', '--no-textconv', 'HEAD', 'f.txt'],
    ],
    [
      ['grep', 'needle', 'src'],
      ['grep', '--no-textconv', 'needle', 'src'],
    ],
    [
      ['stash', 'show', '-p'],
      ['stash', 'show', '--no-ext-diff', '--no-textconv', '-p'],
    ],
    [
      ['blame', 'f'],
      ['blame', '--no-textconv', 'f'],
    ],
    [['status'], ['status']],
  ])('%j → %j', (args, expected) => {
    expect(hardenGit(args, []).args).toEqual(expected);
  });
  test('every filter driver of the repository is switched off in command scope', () => {
    const h = hardenGit(['status'], ['lfs', 'evil']);
    const keys = Object.entries(h.env)
      .filter(([k]) => k.startsWith('GIT_CONFIG_KEY_'))
      .map(([, v]) => v);
    expect(keys).toEqual(
      expect.arrayContaining([
        'filter.lfs.clean',
        'filter.lfs.smudge',
        'filter.lfs.process',
        'filter.evil.required',
        'core.hooksPath',
        'core.fsmonitor',
        'core.pager',
      ]),
    );
    expect(Number(h.env.GIT_CONFIG_COUNT)).toBe(keys.length);
    expect(h.notes).toEqual(expect.arrayContaining(['filter.lfs.*', 'filter.evil.*']));
  });
  eachReturns('subcommandIndex(%j) = %d', subcommandIndex, [
    [['status'], 0],
    [['-c', 'a=b', '--git-dir', 'x', 'log'], 4],
    [['--no-pager', 'diff'], 1],
    [['--version'], -1],
  ]);
});

describe('programs other than git that run what the repository names: asked, with the reason', () => {
  const { classify } = require('../src') as typeof import('../src');
  const ctx = { cwd: '/home/u/p', workspace: '/home/u/p', home: '/home/u', lang: 'en' as const };
  eachVerdict(
    [
      ['make -n', 'L1', 'project.script'], // still runs $(shell …) and recursive makes
      ['make --dry-run all', 'L1', 'project.script'],
      ['jest --listTests', 'L1', 'project.script'], // jest.config.js
      ['vitest list', 'L1', 'project.script'],
      ['eslint --print-config a.js', 'L1', 'project.script'], // eslint.config.js
      ['python3 -m pytest --co', 'L1', 'project.script'], // conftest.py
      ['npx jest', 'L1', 'npx.run'], // a local bin
      ['cargo metadata', 'L1', 'repo.config_programs'], // .cargo/config.toml build.rustc-wrapper
      ['cargo tree', 'L1', 'repo.config_programs'],
      ['pnpm ls', 'L1', 'repo.config_programs'], // .pnpmfile.cjs
      ['mvn -v', 'L1', 'repo.config_programs'], // .mvn/jvm.config -javaagent
      ['gradle --version', 'L1', 'repo.config_programs'], // gradle.properties jvmargs
      ['yarn --version', 'L1', 'project.script'], // yarnPath
      ['npm ls', 'L0', 'read.only'], // .npmrc keys naming programs are used by install/run only
      ['cargo pkgid', 'L0', 'read.only'],
      ['go list ./...', 'L0', 'read.only'], // GOTOOLCHAIN=local is set for go
    ],
    (line) => classify(execStep(line), {}, ctx),
  );

  test('go runs with GOTOOLCHAIN=local, so a go.mod toolchain line downloads and runs nothing', async () => {
    const { hardenedCommand } = require('../src/tools/exec-tool') as typeof import('../src/tools/exec-tool');
    await expect(hardenedCommand('go', ['list', './...'], '/w', { PATH: '/usr/bin' })).resolves.toMatchObject({
      env: { GOTOOLCHAIN: 'local' },
      hardened: ['GOTOOLCHAIN=local'],
    });
  });
});

test('a program installed after a first look is found (and sandboxed) the next time', () => {
  const { sandboxable } = require('../src/tools/exec-tool') as typeof import('../src/tools/exec-tool');
  const dir = require('fs').mkdtempSync(require('path').join(require('os').tmpdir(), 'bin-'));
  const env = { PATH: dir };
  expect(sandboxable('late-tool', '/', env)).toBe(false);
  require('fs').writeFileSync(require('path').join(dir, 'late-tool'), '#!/bin/sh\n', { mode: 0o755 });
  expect(sandboxable('late-tool', '/', env)).toBe(true);
  expect(sandboxable('late-tool', '/', env)).toBe(true);
});
