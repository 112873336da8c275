/**
 * A stamp of every file git reads its configuration from for a repository: the repository's
 * `config` (and `config.worktree`, and the common dir's of a linked worktree), the user's
 * `~/.gitconfig` and `$XDG_CONFIG_HOME/git/config`, and the system config (`/etc/gitconfig`, and
 * `<prefix>/etc/gitconfig` of the git on PATH) — a hash of each file's bytes — plus every
 * GIT_* variable of the environment. Two equal stamps mean git would
 * read the same configuration, so what was read from it can be kept.
 *
 * No stamp (nothing may be kept) when the configuration can change without those files changing:
 * a file with an `[include]` / `[includeIf]`, `GIT_CONFIG_GLOBAL` / `GIT_CONFIG_SYSTEM` /
 * `GIT_CONFIG` naming other files, or a repository whose git dir cannot be found by reading.
 */
import { createHash } from 'crypto';
import fs = require('fs');
import os = require('os');
import path = require('path');

const MAX_CONFIG_BYTES = 1 << 20;

/** The git dir of the repository holding `cwd` (`.git`, or where a `.git` file points), or undefined. */
function gitDir(cwd: string): string | undefined {
  let dir = path.resolve(cwd);
  for (;;) {
    const dotGit = path.join(dir, '.git');
    const st = fs.statSync(dotGit, { throwIfNoEntry: false });
    if (st?.isDirectory()) return dotGit;
    if (st?.isFile()) {
      const m = /^gitdir:\s*(.+)$/m.exec(fs.readFileSync(dotGit, 'utf8').slice(0, 4096));
      return m ? path.resolve(dir, m[1].trim()) : undefined;
    }
    const up = path.dirname(dir);
    if (up === dir) return undefined;
    dir = up;
  }
}

/**
 * Where the system config may be: `/etc/gitconfig`, and `<prefix>/etc/gitconfig` for the git on
 * PATH (a git built with its own prefix: /usr/local, Homebrew's /opt/homebrew, …).
 */
function systemConfigFiles(env: NodeJS.ProcessEnv): string[] {
  const files = ['/etc/gitconfig'];
  for (const dir of (env.PATH ?? '').split(path.delimiter)) {
    if (!dir || !path.isAbsolute(dir)) continue;
    const git = path.join(dir, 'git');
    if (!fs.statSync(git, { throwIfNoEntry: false })?.isFile()) continue;
    const prefix = path.dirname(path.dirname(fs.realpathSync(git)));
    for (const f of [path.join(prefix, 'etc', 'gitconfig'), path.join(path.dirname(dir), 'etc', 'gitconfig')])
      if (!files.includes(f)) files.push(f);
    break;
  }
  return files;
}

/** The config files of that git dir: its own, and its common dir's for a linked worktree. */
function repoConfigFiles(dir: string): string[] {
  const files = [path.join(dir, 'config'), path.join(dir, 'config.worktree')];
  const common = fs.statSync(path.join(dir, 'commondir'), { throwIfNoEntry: false });
  if (common?.isFile()) {
    const target = path.resolve(dir, fs.readFileSync(path.join(dir, 'commondir'), 'utf8').trim());
    files.push(path.join(target, 'config'), path.join(target, 'config.worktree'));
  }
  return files;
}

/**
 * One file's part of the stamp: a hash of what it holds (file times are coarse, a kernel tick,
 * so a same-size rewrite within one tick would keep size, mtime and inode); undefined when it
 * includes other files (no stamp then).
 */
function fileStamp(file: string): string | undefined {
  const st = fs.statSync(file, { throwIfNoEntry: false });
  if (!st) return `${file}:-`;
  if (!st.isFile() || st.size > MAX_CONFIG_BYTES) return undefined;
  const text = fs.readFileSync(file);
  if (/^\s*\[\s*include/im.test(text.toString('utf8'))) return undefined;
  return `${file}:${createHash('sha1').update(text).digest('hex')}`;
}

/** The stamp of the configuration git reads in `cwd` with `env`, or undefined (see above). */
export function gitConfigStamp(cwd: string, env: NodeJS.ProcessEnv): string | undefined {
  try {
    if (
      env.GIT_CONFIG_GLOBAL !== undefined ||
      env.GIT_CONFIG_SYSTEM !== undefined ||
      env.GIT_CONFIG !== undefined ||
      env.GIT_DIR !== undefined
    )
      return undefined;
    const dir = gitDir(cwd);
    if (!dir) return undefined;
    const home = env.HOME || os.homedir();
    const xdg = env.XDG_CONFIG_HOME || path.join(home, '.config');
    const files = [...repoConfigFiles(dir), path.join(home, '.gitconfig'), path.join(xdg, 'git', 'config'), ...systemConfigFiles(env)];
    const parts: string[] = [];
    for (const file of files) {
      const part = fileStamp(file);
      if (part === undefined) return undefined;
      parts.push(part);
    }
    const vars = Object.keys(env)
      .filter((k) => k.startsWith('GIT_'))
      .sort()
      .map((k) => `${k}=${env[k]}`);
    return [path.resolve(cwd), dir, ...parts, ...vars].join('\n');
  } catch {
    return undefined;
  }
}
