import * as fs from 'fs';
import * as path from 'path';
import type { Step } from '../src';
import { judgementPathFs, resolvePath } from '../src/workspace';
import { walkingFs } from './helpers/walking-fs';
import { judgingRunner, tempWorld } from './tools-session';

// Judge the target, not the spelling: a workspace can ship links. Every path a step names is
// resolved through them (real symlinks in a temp workspace, a temp HOME) before it is judged.

let world: Awaited<ReturnType<typeof tempWorld>>;
/** A link that stays inside: node_modules/.bin/tool -> ../pkg/bin.js. */
const plantBinLink = (dir: string): void => {
  fs.mkdirSync(path.join(dir, 'node_modules', '.bin'), { recursive: true });
  fs.mkdirSync(path.join(dir, 'node_modules', 'pkg'));
  fs.writeFileSync(path.join(dir, 'node_modules', 'pkg', 'bin.js'), 'x');
  fs.symlinkSync('../pkg/bin.js', path.join(dir, 'node_modules', '.bin', 'tool'));
};
let runner: ReturnType<typeof judgingRunner>;

beforeAll(async () => {
  world = await tempWorld();
  const { ws, home, outside } = world;
  fs.mkdirSync(path.join(ws, '.git', 'hooks'), { recursive: true });
  fs.mkdirSync(path.join(ws, 'build'));
  fs.mkdirSync(path.join(ws, 'docs'));
  fs.mkdirSync(path.join(home, '.codex'));
  fs.writeFileSync(path.join(home, '.codex', 'auth.json'), '{"token":"x"}');
  fs.writeFileSync(path.join(home, '.bash_history'), 'export TOKEN=x\n');
  fs.writeFileSync(path.join(outside, 'secret.txt'), 'x');
  fs.writeFileSync(path.join(ws, 'x'), 'x');
  fs.writeFileSync(path.join(ws, 'build', 'plain.txt'), 'x');
  // build/out -> $HOME
  fs.symlinkSync(home, path.join(ws, 'build', 'out'));
  // docs/notes.txt -> ~/.bash_history
  fs.symlinkSync(path.join(home, '.bash_history'), path.join(ws, 'docs', 'notes.txt'));
  // docs/key.txt -> ~/.ssh/id_ed25519
  fs.mkdirSync(path.join(home, '.ssh'));
  fs.writeFileSync(path.join(home, '.ssh', 'id_ed25519'), 'k');
  fs.symlinkSync(path.join(home, '.ssh', 'id_ed25519'), path.join(ws, 'docs', 'key.txt'));
  // hooks -> .git/hooks (relative, inside the workspace)
  fs.symlinkSync('.git/hooks', path.join(ws, 'hooks'));
  // a relative chain a -> b -> c -> ../outside
  fs.symlinkSync('b', path.join(ws, 'a'));
  fs.symlinkSync('c', path.join(ws, 'b'));
  fs.symlinkSync('../outside', path.join(ws, 'c'));
  // dangling links: to a start-up file that does not exist yet, and to a new file outside
  fs.symlinkSync(path.join(home, '.bashrc'), path.join(ws, 'rc'));
  fs.symlinkSync(path.join(outside, 'new.txt'), path.join(ws, 'new.txt'));
  // cfg -> the SlothTool home
  fs.mkdirSync(path.join(home, '.slothtool', 'plugin-configs'), { recursive: true });
  fs.symlinkSync(path.join(home, '.slothtool', 'plugin-configs'), path.join(ws, 'cfg'));
  plantBinLink(ws);
  runner = judgingRunner(world, {
    registry: { plugins: { loc: { name: '@holic512/plugin-loc', version: '1.0.0', bin: path.join(outside, 'loc.js') } } } as never,
  });
});
afterAll(() => world.cleanup());

const ex = (line: string, cwd?: string): Step => {
  const [program, ...args] = line.split(' ');
  return { tool: 'exec', program, args, ...(cwd ? { cwd } : {}) };
};
const judged = (step: Step) => {
  const d = runner.judge(step);
  return { level: d.level, ids: d.rules.map((r) => r.id) };
};

describe('a link that leaves the workspace is outside', () => {
  test.each([
    ['cat build/out/.codex/auth.json'],
    ['grep -r TOKEN build/out/'],
    ['rg TOKEN build/out'],
    ['cat a/secret.txt'], // relative chain a -> b -> c -> ../outside
    ['cat build/out/../x'], // `..` after a link goes up from where the link leads
    ['grep --file=build/out/.codex/auth.json x'],
    ['grep -fbuild/out/.codex/auth.json x'],
    ['head -5 build/out/.bash_history'],
  ])('exec %s is asked, never run at L0', (line) => {
    const j = judged(ex(line));
    expect(j.level).not.toBe('L0');
    expect(j.ids).toEqual(expect.arrayContaining(['fs.symlink_escape']));
  });

  test('padding a command with more words than are resolved does not hide a link: it is asked', () => {
    const pad = Array.from({ length: 600 }, (_, i) => `f${i}`);
    const j = judged({ tool: 'exec', program: 'cat', args: [...pad, 'build/out/.codex/auth.json'] } as Step);
    expect(j).toMatchObject({ level: 'L1', ids: expect.arrayContaining(['path.links_unchecked']) });
  });

  test('proc.start judges the same way', () => {
    const j = judged({ tool: 'proc.start', program: 'cat', args: ['build/out/.codex/auth.json'] } as Step);
    expect(j.level).not.toBe('L0');
  });

  test('a step folder that is a link out of the workspace runs outside it', () => {
    expect(judged(ex('ls', 'build/out'))).toMatchObject({ level: 'L1', ids: expect.arrayContaining(['cwd.outside']) });
  });

  test('fs.read through a link to a new file outside is asked; a dangling link to a start-up file is refused for writes', () => {
    expect(judged({ tool: 'fs.read', path: 'new.txt' } as Step).level).toBe('L1');
    expect(judged({ tool: 'fs.write', path: 'rc', content: 'x' } as Step)).toMatchObject({
      level: 'L2',
      ids: expect.arrayContaining(['write.persistence']),
    });
    expect(judged(ex('cp x rc'))).toMatchObject({ level: 'L2', ids: expect.arrayContaining(['write.persistence']) });
  });
});

describe('a link into a secret store or .git/hooks is judged as what the target is', () => {
  test.each([
    [ex('cat docs/notes.txt'), 'L1', 'secret.read'],
    [{ tool: 'fs.read', path: 'docs/notes.txt' } as Step, 'L2', 'fs.secret_outside'],
    [ex('cp x hooks/pre-commit'), 'L2', 'write.persistence'],
    [ex('sort -o hooks/pre-commit x'), 'L2', 'write.persistence'],
    [{ tool: 'fs.write', path: 'hooks/pre-commit', content: '#!/bin/sh\n' } as Step, 'L2', 'write.persistence'],
    [{ tool: 'proc.start', program: 'cp', args: ['x', 'hooks/post-checkout'] } as Step, 'L2', 'write.persistence'],
    [
      { tool: 'config.json_patch', file: 'cfg/llm-base.json', patch: [{ op: 'replace', path: '/a', value: 1 }] } as Step,
      'L2',
      'write.slothtool',
    ],
    [ex('cat cfg/llm-base.json'), 'L2', 'secret.slothtool'],
    [{ tool: 'config.json_patch', file: 'hooks/x.json', patch: [{ op: 'add', path: '/a', value: 1 }] } as Step, 'L2', 'write.persistence'],
    [{ tool: 'plugin.run', plugin: 'loc', args: ['cfg'] } as Step, 'L2', 'secret.slothtool'],
    [{ tool: 'plugin.run', plugin: 'loc', args: ['docs/key.txt'] } as Step, 'L2', 'secret.private_key'],
    [ex('cat docs/key.txt'), 'L2', 'secret.private_key'],
  ])('%j → %s (%s)', (step, level, id) => {
    expect(judged(step)).toMatchObject({ level, ids: expect.arrayContaining([id]) });
  });
});

describe('links that stay inside the workspace change nothing', () => {
  test.each([['cat node_modules/.bin/tool'], ['cat build/plain.txt'], ['ls -la node_modules/.bin'], ['grep -rn x node_modules/.bin/tool']])(
    '%s → L0',
    (line) => {
      expect(judged(ex(line)).level).toBe('L0');
    },
  );
});

describe('resolvePath walks links the way the kernel does', () => {
  test('a dangling link leads to its target', () => {
    const r = resolvePath('rc', world.ws, { home: world.home });
    expect(r).toMatchObject({ exists: false, real: path.join(world.home, '.bashrc') });
  });
  test('`..` after a link is taken from the link target', () => {
    const r = resolvePath('build/out/../x', world.ws, { home: world.home });
    expect(r.real).toBe(path.join(path.dirname(world.home), 'x'));
    expect(r.abs).toBe(path.join(world.ws, 'build', 'x'));
  });
  test('a relative chain ends where the last link points', () => {
    expect(resolvePath('a/secret.txt', world.ws).real).toBe(path.join(world.outside, 'secret.txt'));
  });
  test('a link loop ends without throwing', () => {
    const loop = path.join(world.root, 'loop');
    fs.symlinkSync('loop', loop);
    expect(resolvePath(loop, world.ws).exists).toBe(false);
  });
  test('an existing path resolved by realpath gives what the walk gives, link by link', () => {
    const words = [
      '.',
      'x',
      'build',
      'build/out',
      'build/out/.codex/auth.json',
      'build/out/../x',
      'docs/notes.txt',
      'docs/key.txt',
      'hooks',
      'hooks/../hooks',
      'a',
      'a/secret.txt',
      'rc',
      'new.txt',
      'cfg',
      'node_modules/.bin/tool',
      'node_modules/.bin/../pkg',
      'missing/x',
      'x/not-a-dir',
      '~/.bash_history',
      world.outside,
    ];
    for (const w of words)
      expect([w, resolvePath(w, world.ws, { home: world.home })]).toEqual([w, resolvePath(w, world.ws, { home: world.home }, walkingFs)]);
  });
  test('a link made between two judgements of the same step is seen by the second', async () => {
    const p = path.join(world.ws, 'later2');
    fs.writeFileSync(p, 'x');
    try {
      expect(judged(ex('cat later2')).level).toBe('L0');
      fs.unlinkSync(p);
      fs.symlinkSync(path.join(world.outside, 'secret.txt'), p);
      await new Promise((r) => setImmediate(r));
      expect(judged(ex('cat later2')).ids).toContain('fs.symlink_escape');
    } finally {
      fs.rmSync(p, { force: true });
    }
  });
  test("a judgement's PathFs keeps its lstat answers for that judgement only", () => {
    const seen = judgementPathFs();
    const p = path.join(world.ws, 'later');
    expect(seen.lstatSync!(p)).toBeUndefined();
    fs.symlinkSync('x', p);
    try {
      // The same judgement keeps what it saw; the next judgement sees the new link.
      expect(seen.lstatSync!(p)).toBeUndefined();
      expect(judgementPathFs().lstatSync!(p)?.isSymbolicLink()).toBe(true);
    } finally {
      fs.unlinkSync(p);
    }
  });
});

describe('everyday read-only commands judged by a runner (links gathered) stay L0', () => {
  const rows = [
    'git status',
    'git log --oneline -20',
    'git diff --stat',
    'git show HEAD:README.md',
    'git grep -n TODO',
    'git ls-files',
    'git blame -L 1,2 README.md',
    'ls -la',
    'ls -lah src',
    'cat README.md',
    'head -n 20 src/a.ts',
    'tail -5 src/a.ts',
    'wc -l src/a.ts',
    'rg -n TODO src',
    'grep -rn foo src',
    'find . -name *.ts -type f',
    'jq .name package.json',
    'tree -L 2',
    'du -sh src',
    'sort src/a.ts',
    'diff -u README.md src/a.ts',
    'stat src/a.ts',
    'file src/a.ts',
    'realpath src',
    'npm ls',
    'pip list',
    'node --version',
    'cat node_modules/.bin/tool',
    'ls node_modules/.bin',
    'python3 -P -m pip list',
    'cargo version',
    'man -k printf',
    'git help -a',
    'cat /dev/stdin',
    'stat -L /dev/stdout',
    'echo x /dev/stderr',
  ];
  let repoRunner: ReturnType<typeof judgingRunner>;
  beforeAll(() => {
    const dir = path.join(world.root, 'everyday');
    fs.mkdirSync(path.join(dir, 'src'), { recursive: true });
    fs.mkdirSync(path.join(dir, '.git'));
    fs.writeFileSync(path.join(dir, 'README.md'), '# x\n');
    fs.writeFileSync(path.join(dir, 'package.json'), '{"name":"x"}');
    fs.writeFileSync(path.join(dir, 'src', 'a.ts'), 'export {};\n');
    plantBinLink(dir);
    repoRunner = judgingRunner({ ws: dir, home: world.home }, { cwd: path.join(dir, 'src') });
  });
  test('at most 5% are asked (here: none)', () => {
    const asked = rows.filter((line) => {
      const [program, ...args] = line.split(' ');
      return repoRunner.judge({ tool: 'exec', program, args, cwd: path.join(world.root, 'everyday') } as Step).level !== 'L0';
    });
    expect(asked).toEqual([]);
  });
});

describe('env -C runs its command in another folder: judged there', () => {
  test.each([
    // build/out leads to the home: .codex is a store of the secret table (another assistant's credentials).
    ['env -C build/out cat .codex/auth.json', 'L2'],
    ['env -C /etc cat hostname', 'L1'],
    ['env --chdir=build/out ls', 'L1'],
    ['env -Cbuild/out cat .codex/auth.json', 'L2'],
    ['env -C src ls', 'L0'],
  ])('%s → %s', (line, level) => {
    fs.mkdirSync(path.join(world.ws, 'src'), { recursive: true });
    expect(judged(ex(line)).level).toBe(level);
  });
});

describe('a search that follows the links it meets is asked when one below it leaves the workspace', () => {
  test.each([
    ['rg -L TOKEN build', 'L1'],
    ['rg --follow TOKEN', 'L1'],
    ['grep -R TOKEN build', 'L1'],
    ['grep -rR TOKEN .', 'L1'],
    ['find -L build -name auth.json', 'L1'],
    ['find build -follow -name auth.json', 'L1'],
    ['fd -L auth build', 'L1'],
    ['timeout 5 rg -L TOKEN build', 'L1'],
    ['rg -L TOKEN via', 'L1'], // via -> build (inside), whose out -> $HOME
    ['grep -r TOKEN build', 'L0'], // -r follows only the links named on the command line
    ['rg TOKEN build', 'L0'],
    ['find build -name x', 'L0'],
    ['rg -L TOKEN node_modules', 'L0'], // its links stay inside
    ['grep -R TOKEN venv', 'L0'], // venv/bin/python -> /usr/bin/…: an installed program
  ])('%s → %s', (line, level) => {
    if (!fs.existsSync(path.join(world.ws, 'via'))) fs.symlinkSync('build', path.join(world.ws, 'via'));
    if (!fs.existsSync(path.join(world.ws, 'venv'))) {
      fs.mkdirSync(path.join(world.ws, 'venv', 'bin'), { recursive: true });
      fs.symlinkSync('/usr/bin/env', path.join(world.ws, 'venv', 'bin', 'python'));
    }
    const j = judged(ex(line));
    expect(j.level).toBe(level);
    if (level === 'L1') expect(j.ids).toContain('fs.symlink_escape');
  });
});
