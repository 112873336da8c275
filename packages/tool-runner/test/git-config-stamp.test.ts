import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { filterDrivers } from '../src/tools/git-harden';
import { gitConfigStamp } from '../src/tools/git-config-stamp';

// The filter drivers of a repository are read once per configuration: a change to any config
// file git reads (or a configuration that includes other files) reads them again, so a driver
// added between two steps is always switched off.
let root: string;
let repo: string;
let env: NodeJS.ProcessEnv;

beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'git-stamp-'));
  repo = path.join(root, 'repo');
  fs.mkdirSync(repo);
  env = { PATH: process.env.PATH, HOME: path.join(root, 'home'), XDG_CONFIG_HOME: path.join(root, 'xdg') };
  fs.mkdirSync(env.HOME!);
  execFileSync('git', ['init', '-q'], { cwd: repo, env });
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

const gitConfig = (...args: string[]) => execFileSync('git', ['config', ...args], { cwd: repo, env });

test('a driver added to the repository config after a first read is seen at the next', async () => {
  expect(await filterDrivers(repo, env)).toEqual([]);
  const before = gitConfigStamp(repo, env);
  expect(before).toBeDefined();
  expect(gitConfigStamp(path.join(repo), env)).toBe(before); // unchanged: kept
  gitConfig('filter.evil.clean', 'sh -c pwned');
  expect(gitConfigStamp(repo, env)).not.toBe(before);
  expect(await filterDrivers(repo, env)).toEqual(['evil']);
});

test('a driver renamed in place within one clock tick (same size, same mtime and inode) is seen', async () => {
  const config = path.join(repo, '.git', 'config');
  fs.appendFileSync(config, '[filter "aaaa"]\n\tclean = cat\n');
  fs.utimesSync(config, 1_700_000_000, 1_700_000_000);
  const st = fs.statSync(config);
  expect(await filterDrivers(repo, env)).toEqual(['aaaa']);
  const before = gitConfigStamp(repo, env);
  // Rewritten in place with the same length, its times put back: only the bytes differ.
  fs.writeFileSync(config, fs.readFileSync(config, 'utf8').replace('"aaaa"', '"evil"'));
  fs.utimesSync(config, 1_700_000_000, 1_700_000_000);
  expect(fs.statSync(config)).toMatchObject({ size: st.size, mtimeMs: st.mtimeMs, ino: st.ino });
  expect(gitConfigStamp(repo, env)).not.toBe(before);
  expect(await filterDrivers(repo, env)).toEqual(['evil']);
});

test('a driver added in the user config (~/.gitconfig or XDG) is seen too', async () => {
  expect(await filterDrivers(repo, env)).toEqual([]);
  fs.writeFileSync(path.join(env.HOME!, '.gitconfig'), '[filter "lfs"]\n\tclean = x\n');
  expect(await filterDrivers(repo, env)).toEqual(['lfs']);
  fs.mkdirSync(path.join(env.XDG_CONFIG_HOME!, 'git'), { recursive: true });
  fs.writeFileSync(path.join(env.XDG_CONFIG_HOME!, 'git', 'config'), '[filter "xdg"]\n\tsmudge = y\n');
  expect((await filterDrivers(repo, env)).sort()).toEqual(['lfs', 'xdg']);
});

test('a configuration that includes other files is never kept: a change in the included file is seen', async () => {
  const extra = path.join(root, 'extra.gitconfig');
  fs.writeFileSync(extra, '');
  gitConfig('include.path', extra);
  expect(gitConfigStamp(repo, env)).toBeUndefined();
  expect(await filterDrivers(repo, env)).toEqual([]);
  fs.writeFileSync(extra, '[filter "inc"]\n\tprocess = z\n');
  expect(await filterDrivers(repo, env)).toEqual(['inc']);
});

test('environment that points git at other config files, or no repository: no stamp', () => {
  expect(gitConfigStamp(repo, { ...env, GIT_CONFIG_GLOBAL: '/tmp/x' })).toBeUndefined();
  expect(gitConfigStamp(repo, { ...env, GIT_DIR: '/tmp/y' })).toBeUndefined();
  expect(gitConfigStamp(root, env)).toBeUndefined();
  expect(gitConfigStamp(repo, { ...env, GIT_CONFIG_COUNT: '1' })).not.toBe(gitConfigStamp(repo, env));
});

test('a linked worktree reads the common config too', async () => {
  fs.writeFileSync(path.join(repo, 'a'), 'a');
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '--allow-empty', '-m', 'x'], { cwd: repo, env });
  const wt = path.join(root, 'wt');
  execFileSync('git', ['worktree', 'add', '-q', wt], { cwd: repo, env });
  expect(await filterDrivers(wt, env)).toEqual([]);
  gitConfig('filter.shared.clean', 'x');
  expect(await filterDrivers(wt, env)).toEqual(['shared']);
});

test('the system config of a git built with its own prefix counts (<prefix>/etc/gitconfig of the git on PATH)', () => {
  const prefix = path.join(root, 'usr-local');
  fs.mkdirSync(path.join(prefix, 'bin'), { recursive: true });
  fs.mkdirSync(path.join(prefix, 'etc'));
  const realGit = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
  fs.symlinkSync(realGit, path.join(prefix, 'bin', 'git'));
  const withPrefix = { ...env, PATH: `${path.join(prefix, 'bin')}:${env.PATH}` };
  const before = gitConfigStamp(repo, withPrefix);
  fs.writeFileSync(path.join(prefix, 'etc', 'gitconfig'), '[filter "sys"]\n\tclean = x\n');
  expect(gitConfigStamp(repo, withPrefix)).not.toBe(before);
});
