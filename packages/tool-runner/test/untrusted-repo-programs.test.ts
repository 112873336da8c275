import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { createToolRunner, type Step } from '../src';
import { eachControl, eachPlantedCommand, expectPlantedRan, type Mechanism } from './helpers/hostile-repo';

// Runnable proof for the workspace-programs table: a hostile repository plants a program that
// would create a marker file, names it where a read-only command would run it, and the step
// goes through the runner. Each mechanism is shown to work on plain git (the control) first.

let root: string;
beforeAll(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'hostile-programs-')));
});
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

const gitEnv = () => ({
  ...process.env,
  HOME: path.join(root, 'home'),
  SLOTHTOOL_HOME: path.join(root, 'home', '.slothtool'),
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
});
const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, encoding: 'utf8', env: gitEnv() });
/** The runner in a hostile repository, git's own configuration kept out; every question gets `answer`. */
const runnerIn = (dir: string, sandbox: 'off' | 'auto' = 'off', answer: 'run' | 'decline' = 'decline') =>
  createToolRunner({ cwd: dir, workspace: dir, lang: 'en', sandbox, env: gitEnv(), confirm: () => ({ action: answer }) });

/** A repository with one commit whose object carries a (fake) OpenPGP signature, and a planted program. */
function repo(name: string): { dir: string; marker: string; planted: string } {
  const dir = path.join(root, name);
  fs.mkdirSync(dir, { recursive: true });
  fs.mkdirSync(path.join(root, 'home'), { recursive: true });
  git(dir, 'init', '-q');
  fs.writeFileSync(path.join(dir, 'f.txt'), 'one\n');
  git(dir, 'add', 'f.txt');
  const tree = git(dir, 'write-tree').trim();
  const body = `tree ${tree}\nauthor A <a@b.c> 1700000000 +0000\ncommitter A <a@b.c> 1700000000 +0000\ngpgsig -----BEGIN PGP SIGNATURE-----\n \n iQEzBAABCAAdFiEEAAAA\n =AAAA\n -----END PGP SIGNATURE-----\n\nsigned\n`;
  const sha = execFileSync('git', ['hash-object', '-t', 'commit', '-w', '--stdin'], {
    cwd: dir,
    input: body,
    encoding: 'utf8',
    env: gitEnv(),
  }).trim();
  git(dir, 'update-ref', 'HEAD', sha);
  const marker = path.join(root, `${name}.ran`);
  const planted = path.join(root, `${name}.sh`);
  fs.writeFileSync(planted, `#!/bin/sh\ntouch "${marker}"\ncat\n`, { mode: 0o755 });
  return { dir, marker, planted };
}

const mechanisms: Array<Mechanism<ReturnType<typeof repo>>> = [
  [
    'gpg.program',
    (r) => git(r.dir, 'config', 'gpg.program', r.planted),
    [
      ['verify-commit', 'HEAD'],
      ['log', '--show-signature'],
      ['log', '--format=%G?'],
    ],
  ],
  [
    'gpg.openpgp.program',
    (r) => git(r.dir, 'config', 'gpg.openpgp.program', r.planted),
    [
      ['verify-commit', 'HEAD'],
      ['show', '--show-signature', '-s'],
    ],
  ],
  [
    'log.showSignature with format.pretty %G?',
    (r) => {
      git(r.dir, 'config', 'gpg.program', r.planted);
      git(r.dir, 'config', 'format.pretty', '%G? %s');
    },
    [['log']],
  ],
  [
    'tar.tgz.command',
    (r) => git(r.dir, 'config', 'tar.tgz.command', r.planted),
    [
      ['archive', '--format=tgz', 'HEAD'],
      ['archive', '--format=tgz', '--prefix=x/', 'HEAD'],
    ],
  ],
  ['tar.<custom>.command', (r) => git(r.dir, 'config', 'tar.evil.command', r.planted), [['archive', '--format=evil', 'HEAD']]],
  [
    'diff.<driver>.textconv for cat-file',
    (r) => {
      fs.writeFileSync(path.join(r.dir, '.gitattributes'), '*.txt diff=evil\n');
      git(r.dir, 'config', 'diff.evil.textconv', r.planted);
    },
    [['cat-file', '--textconv', 'HEAD:f.txt']],
  ],
  [
    'man.viewer',
    (r) => {
      git(r.dir, 'config', 'help.format', 'man');
      git(r.dir, 'config', 'man.viewer', 'evil');
      git(r.dir, 'config', 'man.evil.cmd', r.planted);
    },
    [
      ['help', 'log'],
      ['log', '--help'],
    ],
  ],
];

eachPlantedCommand(mechanisms, 'git %s: run at L0 without the planted program, or asked', async ({ sandbox, plant, args, name }) => {
  const r = repo(name);
  plant(r);
  const runner = runnerIn(r.dir, sandbox, 'run');
  const step: Step = { tool: 'exec', program: 'git', args };
  const decision = runner.judge(step);
  if (decision.level !== 'L0') {
    expect(decision.level).toBe('L1');
    return;
  }
  await runner.run(step);
  expect(fs.existsSync(r.marker)).toBe(false);
});

eachControl(
  mechanisms,
  [
    ['gpg.program', ['verify-commit', 'HEAD']],
    ['gpg.program', ['log', '--format=%G?']],
    ['gpg.openpgp.program', ['show', '--show-signature', '-s']],
    ['tar.tgz.command', ['archive', '--format=tgz', 'HEAD']],
    ['log.showSignature with format.pretty %G?', ['log']],
  ],
  repo,
  (r, args) => execFileSync('git', args, { cwd: r.dir, env: gitEnv(), stdio: 'ignore' }),
);

describe('git run by a wrapper is hardened like git run directly', () => {
  const plant = (r: ReturnType<typeof repo>) => {
    git(r.dir, 'config', 'diff.external', r.planted);
    git(r.dir, 'config', 'core.fsmonitor', r.planted);
    fs.writeFileSync(path.join(r.dir, 'f.txt'), 'one\ntwo\n');
  };
  const lines = [
    ['timeout', '5', 'git', 'diff'],
    ['nice', '-n', '5', 'git', 'status'],
    ['env', '-i', 'git', 'diff'],
    ['timeout', '5', 'nice', 'git', 'status'],
    ['env', 'LANG=C', 'stdbuf', '-oL', 'git', 'diff'],
  ];
  test.each(lines.map((l) => [l.join(' '), l]))('control: plain %s runs the planted program', (_line, line) => {
    const r = repo(`wrapped-control-${line.join('-').replace(/\W+/g, '')}`);
    plant(r);
    expectPlantedRan(r.marker, () => execFileSync(line[0], line.slice(1), { cwd: r.dir, env: gitEnv(), stdio: 'ignore' }));
  });
  test.each(lines.map((l) => [l.join(' '), l]))(
    '%s through the runner: L0, hardened, the planted program never runs',
    async (_line, line) => {
      const r = repo(`wrapped-${line.join('-').replace(/\W+/g, '')}`);
      plant(r);
      const runner = runnerIn(r.dir);
      const step: Step = { tool: 'exec', program: line[0], args: line.slice(1) };
      const d = runner.judge(step);
      expect([d.level, d.rules.map((x) => x.id)]).toEqual(['L0', expect.arrayContaining(['git.hardened'])]);
      const result = (await runner.run(step)) as { hardened?: string[]; exitCode?: number };
      expect(result.hardened).toEqual(expect.arrayContaining(['core.fsmonitor=false', 'core.hooksPath=/dev/null']));
      expect(fs.existsSync(r.marker)).toBe(false);
    },
  );
});

describe('a nested repository: its own filters are the ones switched off', () => {
  /** An outer repository holding another one, `inner`, whose clean filter is the planted program. */
  function nested(name: string): { dir: string; marker: string } {
    const outer = path.join(root, name);
    fs.mkdirSync(outer, { recursive: true });
    git(outer, 'init', '-q');
    const r = repo(`${name}/inner`);
    fs.writeFileSync(path.join(r.dir, '.gitattributes'), '*.txt filter=evil\n');
    git(r.dir, 'config', 'filter.evil.clean', r.planted);
    git(r.dir, 'config', 'filter.evil.required', 'true');
    fs.writeFileSync(path.join(r.dir, 'f.txt'), 'one\ntwo\n');
    return { dir: outer, marker: r.marker };
  }
  const lines = [
    ['git', '-C', 'inner', 'diff'],
    ['env', '-C', 'inner', 'git', 'diff'],
    ['timeout', '5', 'git', '-C', 'inner', 'diff'],
  ];
  test('control: plain git -C inner diff runs the planted filter', () => {
    const n = nested('nested-control');
    execFileSync('git', ['-C', 'inner', 'diff'], { cwd: n.dir, env: gitEnv(), stdio: 'ignore' });
    expect(fs.existsSync(n.marker)).toBe(true);
  });
  test.each(lines.map((l) => [l.join(' '), l]))('%s through the runner never runs it', async (_line, line) => {
    const n = nested(`nested-${line.join('-').replace(/\W+/g, '')}`);
    const runner = runnerIn(n.dir);
    const step: Step = { tool: 'exec', program: line[0], args: line.slice(1) };
    expect(runner.judge(step).level).toBe('L0');
    await runner.run(step);
    expect(fs.existsSync(n.marker)).toBe(false);
  });
});

/** A blobless partial clone: reading an old blob fetches it on demand, through the transport the repository names. */
function partialClone(name: string): { dir: string; marker: string; planted: string } {
  const base = path.join(root, name);
  const srv = path.join(base, 'srv');
  fs.mkdirSync(srv, { recursive: true });
  git(srv, 'init', '-q');
  fs.writeFileSync(path.join(srv, 'a.txt'), 'one\n');
  git(srv, 'add', 'a.txt');
  git(srv, '-c', 'user.name=A', '-c', 'user.email=a@b.c', 'commit', '-qm', 'one');
  fs.writeFileSync(path.join(srv, 'a.txt'), 'one\ntwo\n');
  git(srv, '-c', 'user.name=A', '-c', 'user.email=a@b.c', 'commit', '-qam', 'two');
  git(srv, 'config', 'uploadpack.allowFilter', 'true');
  git(base, 'clone', '-q', '--filter=blob:none', '--no-checkout', `file://${srv}`, 'cl');
  const marker = path.join(base, 'ran');
  const planted = path.join(base, 'planted.sh');
  fs.writeFileSync(planted, `#!/bin/sh\ntouch "${marker}"\nexit 1\n`, { mode: 0o755 });
  return { dir: path.join(base, 'cl'), marker, planted };
}

describe('the lazy fetch of a partial clone runs the transport the repository names', () => {
  const plants: Array<[string, (r: ReturnType<typeof partialClone>) => void]> = [
    [
      'core.sshCommand',
      (r) => {
        git(r.dir, 'config', 'remote.origin.url', 'ssh://example.invalid/x');
        git(r.dir, 'config', 'core.sshCommand', r.planted);
      },
    ],
    ['remote.origin.uploadpack', (r) => git(r.dir, 'config', 'remote.origin.uploadpack', r.planted)],
  ];
  test.each(plants)('control: plain git log -p runs the planted %s', (name, plant) => {
    const r = partialClone(`lazy-control-${name}`);
    plant(r);
    // the fetch fails; the planted program ran all the same
    expectPlantedRan(r.marker, () => execFileSync('git', ['log', '-p', '-2'], { cwd: r.dir, env: gitEnv(), stdio: 'ignore' }));
  });
  test.each(plants)('git log -p through the runner (L0) never runs the planted %s', async (name, plant) => {
    const r = partialClone(`lazy-${name}`);
    plant(r);
    const runner = runnerIn(r.dir);
    const step: Step = { tool: 'exec', program: 'git', args: ['log', '-p', '-2'] };
    expect(runner.judge(step).level).toBe('L0');
    await runner.run(step);
    expect(fs.existsSync(r.marker)).toBe(false);
  });
});

describe('python -m: a module of the same name in the working folder', () => {
  function plantPip(): { dir: string; marker: string } {
    const dir = fs.mkdtempSync(path.join(root, 'py-'));
    const marker = path.join(dir, 'pip.ran');
    fs.mkdirSync(path.join(dir, 'pip'));
    fs.writeFileSync(path.join(dir, 'pip', '__init__.py'), '');
    fs.writeFileSync(path.join(dir, 'pip', '__main__.py'), `open(${JSON.stringify(marker)}, "w").close()\n`);
    return { dir, marker };
  }
  const python = (() => {
    try {
      const v = execFileSync('python3', ['-c', 'import sys; print(sys.version_info[0] * 100 + sys.version_info[1])'], {
        encoding: 'utf8',
      }).trim();
      return Number(v);
    } catch {
      return 0;
    }
  })();

  test('control: plain python3 -m pip list runs the planted package', () => {
    if (!python) return;
    const { dir, marker } = plantPip();
    expectPlantedRan(marker, () => execFileSync('python3', ['-m', 'pip', 'list'], { cwd: dir, stdio: 'ignore' }));
  });

  test('python3 -m pip list is asked; python3 -P/-I -m pip list runs at L0 without the planted package', async () => {
    const { dir, marker } = plantPip();
    const runner = createToolRunner({ cwd: dir, workspace: dir, lang: 'en', sandbox: 'off', confirm: () => ({ action: 'run' }) });
    expect(runner.judge({ tool: 'exec', program: 'python3', args: ['-m', 'pip', 'list'] }).level).toBe('L1');
    if (!python) return;
    const flag = python >= 311 ? '-P' : '-I';
    const step: Step = { tool: 'exec', program: 'python3', args: [flag, '-m', 'pip', 'list'] };
    expect(runner.judge(step).level).toBe('L0');
    await runner.run(step);
    expect(fs.existsSync(marker)).toBe(false);
  });
});
