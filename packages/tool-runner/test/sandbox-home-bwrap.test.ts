import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { createToolRunner } from '../src';
import { describeWithBwrap } from './bwrap-available';
import { realBox, runInBox } from './helpers/real-box';

// The private home of the read-only (L0) sandbox, for real (issue #32): a temp HOME with planted
// secrets of every kind, a workspace inside it that links back into it, and the everyday
// commands that must still work.
const run = describeWithBwrap();

let root: string;
let home: string;
let ws: string;
const SECRETS = {
  history: 'HISTORY-SECRET-8e1f',
  codex: 'CODEX-TOKEN-5a2b',
  newtool: 'NEWTOOL-TOKEN-77c3',
  cargo: 'CARGO-TOKEN-19d0',
  zsh: 'ZSH-HISTORY-4410',
};
const leaked = (text: string) => Object.values(SECRETS).filter((s) => text.includes(s));

beforeAll(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'bwrap-home-')));
  home = path.join(root, 'home');
  ws = path.join(home, 'proj');
  const put = (rel: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(home, rel)), { recursive: true });
    fs.writeFileSync(path.join(home, rel), text);
  };
  put('.bash_history', `export TOKEN=${SECRETS.history}\n`);
  put('.zhistory', `${SECRETS.zsh}\n`);
  put('.codex/auth.json', `{"token":"${SECRETS.codex}"}`);
  // a tool nobody has heard of: on no list at all
  put('.newtool/config', `TOKEN=${SECRETS.newtool}\n`);
  put('.gitconfig', '[user]\n\tname = Sandbox Tester\n\temail = tester@example.com\n');
  put('.config/git/ignore', '*.global-ignored\n');
  put('.cargo/config.toml', '# cargo-config-ok\n');
  put('.cargo/credentials.toml', `[registry]\ntoken = "${SECRETS.cargo}"\n`);
  put('.slothtool/registry.json', '{"plugins":{}}');
  put('.slothtool/plugin-configs/llm-base.json', '{"api_key":"sk-hidden-1234567890abcdef"}');
  put('.slothtool/ai/sessions/s1.json', `{"said":"${SECRETS.history}"}`);
  // an allowed name that leads to an unlisted place is not bound
  fs.symlinkSync(path.join(home, '.newtool', 'config'), path.join(home, '.gitignore_global'));
  fs.mkdirSync(path.join(ws, 'src'), { recursive: true });
  fs.writeFileSync(path.join(ws, 'readme.txt'), 'hello workspace\n');
  fs.writeFileSync(path.join(ws, 'src', 'main.ts'), 'export const answer = 42;\n');
  const git = (...args: string[]) => execFileSync('git', args, { cwd: ws, env: env() });
  git('init', '-q');
  git('add', '.');
  git('commit', '-qm', 'first commit');
  // links the workspace ships, into the home
  fs.mkdirSync(path.join(ws, 'build'));
  fs.symlinkSync(home, path.join(ws, 'build', 'out'));
  fs.mkdirSync(path.join(ws, 'docs'));
  fs.symlinkSync(path.join(home, '.bash_history'), path.join(ws, 'docs', 'notes.txt'));
});
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

const env = () => ({ ...process.env, HOME: home, SLOTHTOOL_HOME: path.join(home, '.slothtool') });
const runner = (more: Partial<Parameters<typeof createToolRunner>[0]> = {}) =>
  createToolRunner({ cwd: ws, workspace: ws, lang: 'en', env: env(), confirm: () => ({ action: 'decline' }), ...more });
const inBox = (level: 'L0' | 'L1', program: string, args: string[], options: Parameters<typeof realBox>[1] = {}) =>
  runInBox(realBox({ ws, home }, options), { ws, home }, { level, program, args });

run('the private home of read-only steps, for real', () => {
  test('through the runner, L0 steps that reach into the home (through the workspace links too) read none of the planted secrets', async () => {
    const r = runner();
    const steps: Array<[string, string[]]> = [
      ['cat', ['build/out/.codex/auth.json']],
      ['cat', ['docs/notes.txt']],
      ['grep', ['-r', 'TOKEN', 'build/out/']],
      ['ls', ['-A', 'build/out/']],
      ['ls', ['-A', home]],
      ['cat', ['build/out/.newtool/config']],
      ['cat', ['build/out/.cargo/credentials.toml']],
      ['cat', ['build/out/.gitignore_global']],
    ];
    for (const [program, args] of steps) {
      const res = await r.run({ tool: 'exec', program, args });
      expect(leaked(JSON.stringify(res))).toEqual([]);
    }
    // what the home shows at L0: the allow-list only
    const ls = await inBox('L0', 'ls', ['-A', home]);
    expect(ls.stdoutTail.split('\n').filter(Boolean).sort()).toEqual(['.cargo', '.config', '.gitconfig', '.slothtool', 'proj']);
  });

  test('allow-listed files are readable at L0: git identity and global ignores, cargo config (not its credentials)', async () => {
    const r = runner();
    const name = (await r.run({ tool: 'exec', program: 'git', args: ['config', 'user.name'] })) as { exitCode: number; stdoutTail: string };
    expect([name.exitCode, name.stdoutTail.trim()]).toEqual([0, 'Sandbox Tester']);
    const ignore = await inBox('L0', 'cat', [path.join(home, '.config', 'git', 'ignore')]);
    expect(ignore.stdoutTail).toBe('*.global-ignored\n');
    const cargo = await inBox('L0', 'cat', [path.join(home, '.cargo', 'config.toml'), path.join(home, '.cargo', 'credentials.toml')]);
    expect(cargo.stdoutTail).toContain('cargo-config-ok');
    expect(leaked(cargo.stdoutTail)).toEqual([]);
  });

  test('everyday read-only commands still work at L0 with a private home', async () => {
    const r = runner();
    const everyday: Array<[string, string[], string]> = [
      ['git', ['log', '--format=%s %an'], 'first commit Sandbox Tester'],
      ['git', ['status', '--short'], '?? build/\n?? docs/'],
      ['rg', ['-n', 'answer', 'src'], 'src/main.ts:1:export const answer = 42;'],
      ['ls', ['src'], 'main.ts'],
      ['cat', ['readme.txt'], 'hello workspace'],
    ];
    for (const [program, args, expected] of everyday) {
      const res = (await r.run({ tool: 'exec', program, args })) as { exitCode: number; stdoutTail: string; sandbox?: { level: string } };
      expect([program, res.exitCode, res.sandbox?.level, res.stdoutTail.trim()]).toEqual([program, 0, 'L0', expected]);
    }
    // npm keeps its logs in the home: the private one is writable and thrown away
    fs.writeFileSync(path.join(ws, 'package.json'), '{"name":"proj","version":"1.0.0"}\n');
    try {
      const npm = (await r.run({ tool: 'exec', program: 'npm', args: ['ls'] })) as {
        exitCode: number;
        stdoutTail: string;
        sandbox?: { level: string };
      };
      expect([npm.exitCode, npm.sandbox?.level, npm.stdoutTail]).toEqual([0, 'L0', expect.stringContaining('proj@1.0.0')]);
    } finally {
      fs.rmSync(path.join(ws, 'package.json'));
    }
    // interpreters are not L0 steps, but the programs such steps run are: python and node start with the private home
    const py = await inBox('L0', 'python3', ['-c', 'import os; print(sorted(os.listdir(os.path.expanduser("~"))))']);
    expect([py.exitCode, py.stdoutTail.trim()]).toEqual([0, "['.cargo', '.config', '.gitconfig', '.slothtool', 'proj']"]);
    const node = await inBox('L0', process.execPath, ['-e', 'console.log(require("fs").existsSync(require("os").homedir() + "/.codex"))']);
    expect([node.exitCode, node.stdoutTail.trim()]).toEqual([0, 'false']);
  });

  test('a git worktree elsewhere in the home: its git folders are shown with it, so git works there at L0', async () => {
    const wt = path.join(home, 'wt');
    execFileSync('git', ['worktree', 'add', '-q', wt], { cwd: ws, env: env() });
    try {
      const r = createToolRunner({ cwd: wt, workspace: wt, lang: 'en', env: env(), confirm: () => ({ action: 'decline' }) });
      const log = (await r.run({ tool: 'exec', program: 'git', args: ['log', '--format=%s'] })) as {
        exitCode: number;
        stdoutTail: string;
        sandbox?: { level: string };
      };
      expect([log.exitCode, log.sandbox?.level, log.stdoutTail.trim()]).toEqual([0, 'L0', 'first commit']);
      const status = (await r.run({ tool: 'exec', program: 'git', args: ['status', '--short'] })) as { exitCode: number };
      expect(status.exitCode).toBe(0);
    } finally {
      execFileSync('git', ['worktree', 'remove', '--force', wt], { cwd: ws, env: env() });
    }
  });

  test('a link planted in the home after the runner started is judged again: it is not followed into an unlisted place', async () => {
    const box = realBox({ ws, home });
    const cat = () => runInBox(box, { ws, home }, { level: 'L0', program: 'cat', args: [path.join(home, '.gitconfig')] });
    expect((await cat()).stdoutTail).toContain('Sandbox Tester');
    const real = path.join(home, '.gitconfig');
    fs.renameSync(real, `${real}.kept`);
    fs.symlinkSync(path.join(home, '.newtool', 'config'), real);
    try {
      expect(leaked((await cat()).stdoutTail)).toEqual([]);
    } finally {
      fs.rmSync(real);
      fs.renameSync(`${real}.kept`, real);
    }
  });

  test('the SlothTool home at L0: its registry and settings only (slothtool list is an L0 step); no plugin config, no session', async () => {
    const st = path.join(home, '.slothtool');
    const list = await inBox('L0', 'ls', ['-A', st]);
    expect(list.stdoutTail.trim()).toBe('registry.json');
    expect((await inBox('L0', 'cat', [path.join(st, 'registry.json')])).stdoutTail).toBe('{"plugins":{}}');
    const configs = await inBox('L0', 'cat', [
      path.join(st, 'plugin-configs', 'llm-base.json'),
      path.join(st, 'ai', 'sessions', 's1.json'),
    ]);
    expect(configs.stdoutTail).not.toContain('sk-hidden');
    expect(leaked(configs.stdoutTail)).toEqual([]);
  });

  test('L1 keeps the home but hides the secret classes (histories, other assistants, registry credentials); an unlisted tool stays visible there', async () => {
    for (const rel of ['.bash_history', '.zhistory', '.codex/auth.json', '.cargo/credentials.toml']) {
      const r = await inBox('L1', 'cat', [path.join(home, rel)]);
      expect(leaked(r.stdoutTail)).toEqual([]);
    }
    expect((await inBox('L1', 'cat', [path.join(home, '.newtool', 'config')])).stdoutTail).toContain(SECRETS.newtool);
  });

  test('sandbox.allowRead shows more of the home at L0; the secret table still wins', async () => {
    const r = await inBox('L0', 'cat', [path.join(home, '.newtool', 'config')], { allowRead: ['~/.newtool', '~/.codex'] });
    expect(r.stdoutTail).toContain(SECRETS.newtool);
    expect(leaked((await inBox('L0', 'cat', [path.join(home, '.codex', 'auth.json')], { allowRead: ['~/.codex'] })).stdoutTail)).toEqual(
      [],
    );
  });
});
