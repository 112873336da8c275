import fs = require('fs');
import path = require('path');
import { HOME_SECRET_STORES } from './secrets';

/**
 * What the read-only (L0) sandbox binds back, read-only, into its empty private home: what
 * read-only development tools read there (checked by running them: git log/status, rg, npm ls,
 * cargo metadata, python3 -c, node). Home-relative; `*` matches within the last component.
 * Credentials kept inside these folders (`.cargo/credentials.toml`) stay hidden (secrets.ts).
 * Add more with `sandbox.allowRead` in ai.json.
 */
export const DEFAULT_ALLOW_READ: readonly string[] = [
  // git: identity, ignore and attribute files
  '.gitconfig',
  '.config/git',
  '.gitignore_global',
  '.editorconfig',
  // Rust
  '.cargo',
  '.rustup',
  // Node version managers and package caches
  '.nvm',
  '.volta',
  '.fnm',
  '.local/share/fnm',
  '.bun/bin',
  '.deno',
  '.npm/_cacache',
  '.npm/_npx',
  // programs on a usual PATH
  'bin',
  '.local/bin',
  // Python
  '.pyenv',
  '.local/lib/python*',
  '.local/share/pipx',
  // Ruby, JVM, Go and polyglot toolchain managers (not go's build cache: go writes to it, and
  // makes a new one in the writable private home when it is not there)
  '.rbenv',
  '.rvm',
  '.gem/ruby',
  '.m2/repository',
  '.gradle/caches',
  '.gradle/wrapper',
  '.sdkman',
  'go/pkg',
  'go/bin',
  '.asdf',
  '.tool-versions',
  '.local/share/mise',
  '.ghcup',
];

/** A read-only bind of the private home: `from` (a real path) shown at `to`. */
export interface HomeBind {
  from: string;
  to: string;
}

/** The file system calls the home view needs (replaceable in tests). */
export interface HomeViewFs {
  /** The real path, or undefined when nothing is there (a dangling link neither). */
  realpath(p: string): string | undefined;
  readdir(p: string): string[];
}

export const nodeHomeViewFs: HomeViewFs = {
  realpath: (p) => {
    // One realpath(3) call: every step checks each bind again with it (sandbox/index.ts).
    try {
      return fs.realpathSync.native(p);
    } catch {
      return undefined;
    }
  },
  readdir: (p) => {
    try {
      return fs.readdirSync(p);
    } catch {
      return [];
    }
  },
};

/** `child` is `root` or below it. */
export function under(child: string, root: string): boolean {
  if (child === root) return true;
  return child.startsWith(root.endsWith('/') ? root : `${root}/`);
}

/** `~` and `~/x` expanded against `home`; other relative entries are not paths (undefined). */
export function expandHome(entry: string, home: string): string | undefined {
  if (entry === '~') return home;
  if (entry.startsWith('~/')) return path.join(home, entry.slice(2));
  return path.isAbsolute(entry) ? path.normalize(entry) : undefined;
}

/** `*` in the last component, matched against that folder's entries. */
function expandGlob(p: string, vfs: HomeViewFs): string[] {
  const base = path.basename(p);
  if (!base.includes('*')) return [p];
  const dir = path.dirname(p);
  const re = new RegExp(
    `^${base
      .split('*')
      .map((s) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
      .join('[^/]*')}$`,
  );
  return vfs
    .readdir(dir)
    .filter((name) => re.test(name))
    .map((name) => path.join(dir, name));
}

/**
 * The binds of the private home, once per runner: each allowed entry that exists, the default
 * allow-list first, then `extra` (ai.json `sandbox.allowRead`; entries outside the home are
 * visible anyway and left out). `home` is a real path. An entry that leads elsewhere through a
 * symbolic link (itself or a folder above it) is bound as its target only when the target stays
 * in an allowed place (an entry as spelled, or outside the home) and in no secret store: a
 * `~/.gitconfig` that leads to `~/.ssh/config` or to an unlisted home folder is not bound.
 */
export function homeBinds(
  home: string,
  extra: readonly string[] = [],
  vfs: HomeViewFs = nodeHomeViewFs,
  secretRoots: readonly string[] = [],
): HomeBind[] {
  const entries = [
    ...DEFAULT_ALLOW_READ.map((rel) => path.join(home, rel)),
    ...extra.map((e) => expandHome(e, home)).filter((p): p is string => p !== undefined),
  ];
  const allowed = entries.filter((p) => under(p, home) && p !== home);
  const secrets = [...HOME_SECRET_STORES.map((rel) => path.join(home, rel)), ...secretRoots];
  const inAllowedPlace = (target: string) => !under(target, home) || allowed.some((a) => under(target, a));
  const binds: HomeBind[] = [];
  for (const to of allowed.flatMap((p) => expandGlob(p, vfs))) {
    if (secrets.some((s) => under(to, s)) || binds.some((b) => under(to, b.to))) continue;
    const from = vfs.realpath(to);
    if (!from) continue;
    if (from !== to && (!inAllowedPlace(from) || secrets.some((s) => under(from, s)))) continue;
    binds.push({ from, to });
  }
  return binds;
}

/**
 * The git folders a workspace's `.git` file points at (a worktree: its own git dir and the main
 * repository's common dir; a submodule: its folder in the parent's `.git/modules`), which a
 * private home must show for `git status` to work there. Empty for a plain repository.
 */
export function linkedGitDirs(workspace: string, readFile: (p: string) => string | undefined = readText): string[] {
  const dotGit = readFile(path.join(workspace, '.git'));
  const m = dotGit?.match(/^gitdir: *(.+?)\s*$/m);
  if (!m) return [];
  const gitDir = path.resolve(workspace, m[1]);
  const common = readFile(path.join(gitDir, 'commondir'))?.trim();
  return common ? [gitDir, path.resolve(gitDir, common)] : [gitDir];
}

function readText(p: string): string | undefined {
  try {
    return fs.readFileSync(p, 'utf8');
  } catch {
    return undefined;
  }
}
