import * as fs from 'fs';
import * as path from 'path';
import { eachReturns } from '@holic512/testkit';
import { classify, type Step } from '../src';
import { hardenGit } from '../src/tools/git-harden';
import { GIT_PROGRAM_KEYS, OTHER_WORKSPACE_PROGRAMS } from '../src/policy/workspace-programs';
import { namesToolchainPath } from '../src/registry/workspace-program-facts';
import { judgingRunner, tempWorld } from './tools-session';
import { eachVerdict, execStep, type Line } from './verdict-table';

// Workspace-named programs, by class: files and config keys of a repository that name code an
// otherwise read-only command runs. Each is neutralised at L0 or the forms reaching it are asked.

const ctx = { cwd: '/home/u/p', workspace: '/home/u/p', home: '/home/u', lang: 'en' as const };
const judge = (line: Line) => classify(execStep(line), {}, ctx);
const levelOf = (line: string) => judge(line).level;

describe('python: the working folder is first on sys.path for -m', () => {
  eachVerdict(
    [
      ['python3 -m pip list', 'L1', 'workspace.python_path'],
      ['python -m pip show requests', 'L1', 'workspace.python_path'],
      ['python3.11 -m pip freeze', 'L1', 'workspace.python_path'],
      ['python3 -P -m pip list', 'L0', 'read.only'],
      ['python3 -I -m pip list', 'L0', 'read.only'],
      ['python3 -IP -m pip check', 'L0', 'read.only'],
      ['python3 -Pm pip list', 'L0', 'read.only'],
      ['env python3 -m pip list', 'L1', 'workspace.python_path'],
      ['python3 --version', 'L0', 'interp.info'],
    ],
    judge,
  );
});

describe('kubectl: a kubeconfig names a credential program', () => {
  eachReturns('%s → %s', levelOf, [
    ['kubectl get pods --kubeconfig=./kc.yaml', 'L1'],
    ['kubectl --kubeconfig kc.yaml get pods', 'L1'],
    ['kubectl get pods', 'L0'],
  ]);
});

describe('man: a configuration file names the pager and preprocessors', () => {
  eachReturns('%s → %s', levelOf, [
    ['man -C evil.conf ls', 'L2'],
    ['man -Cevil.conf ls', 'L2'],
    ['man --config-file=evil.conf ls', 'L2'],
    ['man --config-file evil.conf ls', 'L2'],
    ['man -k printf', 'L0'],
  ]);
});

describe('git: subcommands that reach keys no override switches off are asked', () => {
  eachVerdict(
    [
      ['git help log', 'L1', 'git.help_viewer'], // man.viewer, man.<tool>.cmd
      ['git help -w log', 'L1', 'git.help_viewer'], // web.browser
      ['git log --help', 'L1', 'git.help_viewer'],
      ['git --help log', 'L1', 'git.help_viewer'],
      ['git cat-file --textconv HEAD:a.txt', 'L1', 'git.textconv'],
      ['git cat-file --filters HEAD:a.txt', 'L1', 'git.textconv'],
      ['git cat-file --textc HEAD:a.txt', 'L1', 'git.textconv'], // abbreviated
      ['git archive --format=evil HEAD', 'L1', 'git.archive_command'], // tar.evil.command
      ['git archive --format evil HEAD', 'L1', 'git.archive_command'],
      ['git request-pull v1 origin', 'L1', 'git.network'], // ls-remote through the repository's transport
      ['git help', 'L0', 'git.read'],
      ['git help -a', 'L0', 'git.read'],
      ['git help -g', 'L0', 'git.read'],
      ['git --help', 'L0', 'interp.info'],
      ['git cat-file -p HEAD', 'L0', 'git.read'],
      ['git archive --format=tar HEAD', 'L0', 'git.read'],
      ['git archive --format=tgz HEAD', 'L0', 'git.read'], // tar.tgz.command forced back to gzip -cn
      ['git verify-commit HEAD', 'L0', 'git.read'], // gpg.*.program forced
      ['git log --show-signature', 'L0', 'git.read'],
    ],
    judge,
  );
});

describe('git-harden takes its overrides from the table', () => {
  const keys = (args: string[]) => {
    const h = hardenGit(args, []);
    return Object.fromEntries(
      Object.keys(h.env)
        .filter((k) => k.startsWith('GIT_CONFIG_KEY_'))
        .map((k) => [h.env[k], h.env[k.replace('KEY', 'VALUE')]]),
    );
  };
  const rows = GIT_PROGRAM_KEYS.flatMap((r) => r.off).filter(
    (o): o is Extract<typeof o, { kind: 'git-config' }> => o.kind === 'git-config' && !o.key.includes('<'),
  );

  test.each(rows.map((o) => [o.key, o.value, o.for] as const))('%s=%j (%s) is set for a read (git log -p)', (key, value) => {
    expect(keys(['log', '-p'])[key]).toBe(value);
  });
  test.each(rows.filter((o) => o.for === 'all').map((o) => [o.key, o.value] as const))(
    '%s=%j is set for every subcommand (git commit too)',
    (key, value) => {
      expect(keys(['commit', '-m', 'x'])[key]).toBe(value);
    },
  );
  test("subcommands that may sign keep the user's gpg programs; listing tags does not sign", () => {
    for (const sub of [
      ['commit', '-S'],
      ['commit', '-m', 'x'],
      ['tag', '-s', 'v1'],
      ['tag', '-a', 'v1', '-m', 'x'],
      ['merge', 'x'],
      ['push'],
    ])
      expect([sub, keys(sub)['gpg.program']]).toEqual([sub, undefined]);
    for (const sub of [['tag'], ['tag', '-l'], ['branch', '-a'], ['for-each-ref'], ['fetch']])
      expect([sub, keys(sub)['gpg.program']]).toEqual([sub, 'gpg']);
  });
  test("transports and writes that may need a lazy fetch keep the user's transport settings; reads and L0 forms of writes do not", () => {
    for (const sub of [
      ['fetch'],
      ['push'],
      ['pull'],
      ['clone', 'x'],
      ['ls-remote'],
      ['request-pull', 'v1', 'origin'],
      ['archive', '--remote=x', 'HEAD'],
      ['checkout', 'main'],
      ['submodule', 'update'],
    ]) {
      expect([sub, keys(sub)['protocol.allow'], hardenGit(sub, []).env.GIT_NO_LAZY_FETCH]).toEqual([sub, undefined, undefined]);
    }
    for (const sub of [
      ['log', '-p'],
      ['stash', 'show', '-p'],
      ['format-patch', '--stdout', 'HEAD~1'],
      ['blame', 'a'],
      ['notes', 'show'],
      ['archive', 'HEAD'],
    ]) {
      expect([sub, keys(sub)['protocol.allow'], hardenGit(sub, []).env.GIT_NO_LAZY_FETCH]).toEqual([sub, 'never', '1']);
    }
  });
  test('a read switches off lazy fetch and its own pager', () => {
    const h = hardenGit(['status'], []);
    expect(h.env.GIT_NO_LAZY_FETCH).toBe('1');
    expect(keys(['status'])['pager.status']).toBe('false');
  });
  test('every row says how it is neutralised, and the table covers the classes of issue #32', () => {
    for (const row of [...GIT_PROGRAM_KEYS, ...OTHER_WORKSPACE_PROGRAMS])
      expect([row.source, row.off.length > 0]).toEqual([row.source, true]);
    const sources = GIT_PROGRAM_KEYS.map((r) => r.source).join(' ');
    for (const key of [
      'core.pager',
      'core.editor',
      'core.sshCommand',
      'core.fsmonitor',
      'core.hooksPath',
      'core.askPass',
      'diff.external',
      'textconv',
      'merge.<driver>.driver',
      'filter.<driver>',
      'gpg.program',
      'gpg.ssh.program',
      'gpg.ssh.defaultKeyCommand',
      'man.viewer',
      'web.browser',
      'tar.<format>.command',
      'sendemail.',
      'credential.helper',
      'uploadpack',
      'sequence.editor',
      'interactive.diffFilter',
      'instaweb.',
      'alias.',
      'includeIf',
    ]) {
      expect([key, sources.includes(key)]).toEqual([key, true]);
    }
  });
});

test('docs/security.md §4b lists every git key of the table', () => {
  const doc = fs.readFileSync(path.join(__dirname, '..', '..', '..', 'docs', 'security.md'), 'utf8');
  const section = doc.slice(doc.indexOf('## 4b.'), doc.indexOf('## 4a.'));
  for (const row of GIT_PROGRAM_KEYS) expect([row.source, section.includes(`\`${row.source}\``)]).toEqual([row.source, true]);
});

describe('rustup proxies run the toolchain a rust-toolchain file names by path', () => {
  let world: Awaited<ReturnType<typeof tempWorld>>;
  beforeEach(async () => {
    world = await tempWorld();
  });
  afterEach(() => world.cleanup());
  const judgeIn = (dir: string, line: string, cwd?: string) => {
    const runner = judgingRunner({ ws: dir, home: world.home });
    const [program, ...args] = line.split(' ');
    const d = runner.judge({ tool: 'exec', program, args, ...(cwd ? { cwd } : {}) } as Step);
    return { level: d.level, ids: d.rules.map((r) => r.id) };
  };

  // Toolchain files, and whether each names its toolchain by a path: then a rustup proxy runs what is in that folder.
  const toolchainFiles: ReadonlyArray<readonly [file: string, text: string, namesPath: boolean]> = [
    ['rust-toolchain.toml', '[toolchain]\npath = "./tc"\n', true],
    ['rust-toolchain.toml', 'path = "/a"', true],
    ['rust-toolchain.toml', '[toolchain]\n  path="/a"', true],
    ['rust-toolchain.toml', '[toolchain]\nchannel = "nightly"', false],
    ['rust-toolchain.toml', '[toolchain]\nchannel = "1.75.0"\n', false],
    // the legacy file: one line, a toolchain name or a path
    ['rust-toolchain', './tc\n', true],
    ['rust-toolchain', '/opt/tc', true],
    ['rust-toolchain', 'stable\n', false],
    ['rust-toolchain', 'nightly-2024-01-01', false],
    ['rust-toolchain', '[toolchain]\nchannel = "a/b"', false],
  ];

  test.each(toolchainFiles)('namesToolchainPath of %s %j is %s', (file, text, namesPath) => {
    expect(namesToolchainPath(text, file === 'rust-toolchain')).toBe(namesPath);
  });

  // Each file under cargo version; and the other proxies, a wrapper and a mere mention beside one that names a path.
  const namingPath = ['rust-toolchain.toml', '[toolchain]\npath = "./tc"\n'] as const;
  test.each<readonly [file: string, text: string, line: string, level: 'L0' | 'L1']>([
    ...toolchainFiles.map(([file, text, namesPath]) => [file, text, 'cargo version', namesPath ? 'L1' : 'L0'] as const),
    [...namingPath, 'rustc --print sysroot', 'L1'],
    [...namingPath, 'timeout 5 cargo pkgid', 'L1'],
    [...namingPath, 'echo cargo', 'L0'], // names cargo, runs echo
  ])('%s %j: %s → %s', (file, text, line, level) => {
    fs.writeFileSync(path.join(world.ws, file), text);
    const j = judgeIn(world.ws, line);
    expect(j.level).toBe(level);
    if (level === 'L1') expect(j.ids).toContain('workspace.rust_toolchain');
  });

  test('a toolchain file in a parent folder inside the workspace counts; one above the workspace does not', () => {
    fs.mkdirSync(path.join(world.ws, 'crates', 'a'), { recursive: true });
    fs.writeFileSync(path.join(world.ws, 'rust-toolchain.toml'), 'path = "/x"\n');
    expect(judgeIn(world.ws, 'cargo version', 'crates/a').level).toBe('L1');
    fs.rmSync(path.join(world.ws, 'rust-toolchain.toml'));
    fs.writeFileSync(path.join(world.root, 'rust-toolchain.toml'), 'path = "/x"\n');
    expect(judgeIn(world.ws, 'cargo version').level).toBe('L0');
  });
});
