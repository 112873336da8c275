import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { completeWorkspacePath, gitRead } from '../src';

// What `ai -i` uses for the person (not the model): completing an `@path` with fs.glob's walker,
// and git's read subcommands hardened for /diff.

let root: string;
beforeEach(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'person-tools-')));
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

const write = (rel: string, text = '') => {
  fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
  fs.writeFileSync(path.join(root, rel), text);
};
const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', args, { cwd, encoding: 'utf8', env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1' } });

describe('completeWorkspacePath', () => {
  beforeEach(() => {
    write('.gitignore', 'build/\n*.log\n');
    for (const f of [
      'src/main.ts',
      'src/lib/a.ts',
      'src/lib/b.ts',
      'build/out.js',
      'docs/n.md',
      'app.log',
      'README.md',
      '.env',
      '.github/ci.yml',
      'id_ed25519',
      'notes.md',
      'empty/.gitkeep',
    ])
      write(f);
    fs.mkdirSync(path.join(root, 'really-empty'));
  });
  const complete = (partial: string, cwd = root) => completeWorkspacePath({ workspace: root, cwd, partial });

  test.each([
    ['', ['README.md', 'docs/', 'empty/', 'notes.md', 'src/']],
    ['s', ['src/']],
    ['src/', ['src/lib/', 'src/main.ts']],
    ['src/lib/', ['src/lib/a.ts', 'src/lib/b.ts']],
    ['no', ['notes.md']],
    ['.', ['.github/', '.gitignore']],
    ['build/', []],
    ['app', []],
    ['id', []],
    ['../', []],
    ['/etc/', []],
  ])('%j → %j (.gitignore respected, secret files and hidden names left out)', (partial, found) => {
    expect(complete(partial)).toEqual(found);
  });

  test('relative to where the person is, inside the workspace', () => {
    expect(completeWorkspacePath({ workspace: root, cwd: path.join(root, 'src'), partial: 'l' })).toEqual(['lib/']);
    expect(completeWorkspacePath({ workspace: root, cwd: path.join(root, 'src'), partial: '../d' })).toEqual(['../docs/']);
  });

  test('a link is not followed out of the workspace', () => {
    const outside = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'person-outside-')));
    try {
      fs.writeFileSync(path.join(outside, 'secret.txt'), 'x');
      fs.symlinkSync(outside, path.join(root, 'linked'));
      expect(complete('linked/')).toEqual([]);
      expect(complete('li')).toEqual([]);
    } finally {
      fs.rmSync(outside, { recursive: true, force: true });
    }
  });
});

describe('gitRead', () => {
  test('runs read subcommands only', async () => {
    await expect(gitRead(['commit', '-m', 'x'], { cwd: root })).rejects.toThrow(/read subcommands only/);
    await expect(gitRead(['-c', 'core.pager=x', 'push'], { cwd: root })).rejects.toThrow(/read subcommands only/);
    await expect(gitRead([], { cwd: root })).rejects.toThrow(/read subcommands only/);
  });

  test("a repository's external diff and textconv never run (hardened as a model's git step)", async () => {
    git(root, 'init', '-q');
    git(root, 'config', 'user.email', 'a@b.c');
    git(root, 'config', 'user.name', 'A');
    write('f.txt', 'one\n');
    git(root, 'add', 'f.txt');
    git(root, 'commit', '-qm', 'first');
    write('f.txt', 'one\ntwo\n');
    const marker = path.join(root, 'ran');
    const planted = path.join(root, 'evil.sh');
    fs.writeFileSync(planted, `#!/bin/sh\ntouch "${marker}"\n`, { mode: 0o755 });
    git(root, 'config', 'diff.external', planted);
    write('.gitattributes', '*.txt diff=evil\n');
    git(root, 'config', 'diff.evil.textconv', planted);
    git(root, 'config', 'core.pager', planted);
    const r = await gitRead(['diff', '--no-color', 'HEAD'], { cwd: root });
    expect(r.exitCode).toBe(0);
    expect(r.stdoutTail).toContain('+two');
    expect(fs.existsSync(marker)).toBe(false);
  });
});
