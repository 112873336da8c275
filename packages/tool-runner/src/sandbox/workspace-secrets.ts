import { createHash } from 'crypto';
import fs = require('fs');
import path = require('path');
import { writeFileAtomicSync } from '../atomic-write';
import { findRepo, hashLength, indexedPaths, nodeIndexFs, type IndexFs, type RepoInfo } from './git-index';

/**
 * The `.env*` files of a workspace, as the sandbox treats them. A file git tracks is shown (its
 * content is in the repository's objects, which a step reads anyway), and so is a template (a
 * pattern to copy, not values). Any other env file is a secret: hidden behind /dev/null, and,
 * so git sees it as absent rather than as a file it cannot add (`git add -A`, `git stash -u`
 * would fail on it), listed in an exclude file shown in place of the repository's
 * `info/exclude`. docs/security.md §4a.
 */

/**
 * Words that make an env file a template wherever they stand in its suffix (`.env.example`,
 * `.env.local.sample`, `.env.dist`, `.env.example_v2`): documentation of the variables, not
 * their values. Kept with the class, not as a list of names.
 */
export const ENV_TEMPLATE_WORDS: ReadonlySet<string> = new Set([
  'example',
  'examples',
  'sample',
  'samples',
  'template',
  'templates',
  'tmpl',
  'tpl',
  'dist',
  'default',
  'defaults',
  'schema',
  'skel',
  'skeleton',
  'stub',
  'placeholder',
  'placeholders',
]);

/** `secret` for `.env` and `.env.<suffix>`, `template` when a word of its suffix says so, undefined for other names. Pure. */
export function envFileClass(name: string): 'secret' | 'template' | undefined {
  const m = /^\.env(?:\.(.+))?$/.exec(name);
  if (!m) return undefined;
  const words = (m[1] ?? '').toLowerCase().split(/[.\-_]+/);
  return words.some((w) => ENV_TEMPLATE_WORDS.has(w)) ? 'template' : 'secret';
}

/** A path as an anchored gitignore pattern that matches only it (glob characters and trailing blanks escaped). */
export function excludePattern(rel: string): string {
  return `/${rel.replace(/[\\*?[\]!#]/g, (c) => `\\${c}`).replace(/ +$/, (s) => s.replace(/ /g, '\\ '))}`;
}

/** What the workspace plan needs of the outside world (replaceable in tests). */
export interface WorkspaceSecretsDeps {
  kind(p: string): 'dir' | 'file' | undefined;
  repo(dir: string): RepoInfo | undefined;
  /** Which repository-relative paths the index lists (as files, or folders with files); undefined when it cannot be read. */
  tracked(repo: RepoInfo, rels: readonly string[]): Set<string> | undefined;
  /** A file with the repository's own excludes and `patterns`, to show at `to`; undefined when it has no `info/exclude`. */
  exclude(repo: RepoInfo, patterns: readonly string[]): { from: string; to: string } | undefined;
}

export interface WorkspaceSecrets {
  hide: Array<{ path: string; kind: 'dir' | 'file' }>;
  /** The exclude file shown, read-only, in place of the repository's. */
  exclude?: { from: string; to: string };
}

/**
 * Which env entries of the workspace root to hide, and the exclude file that makes git see the
 * hidden files as absent. `visible`: whether a step of this level sees a path at all. A folder
 * named `.env` that is a Python virtual environment (`pyvenv.cfg`) is a toolchain, not a secret.
 */
export function workspaceSecrets(
  workspace: string,
  entries: readonly string[],
  visible: (p: string) => boolean,
  deps: WorkspaceSecretsDeps,
): WorkspaceSecrets {
  const candidates: Array<{ path: string; kind: 'dir' | 'file' }> = [];
  for (const name of entries) {
    if (envFileClass(name) !== 'secret') continue;
    const p = path.join(workspace, name);
    const kind = visible(p) ? deps.kind(p) : undefined;
    if (kind === 'dir' && deps.kind(path.join(p, 'pyvenv.cfg')) === 'file') continue;
    if (kind) candidates.push({ path: p, kind });
  }
  if (!candidates.length) return { hide: [] };
  const repo = deps.repo(workspace);
  if (!repo) return { hide: candidates };
  const rel = (p: string) => path.relative(repo.top, p).split(path.sep).join('/');
  const tracked =
    deps.tracked(
      repo,
      candidates.map((c) => rel(c.path)),
    ) ?? new Set<string>();
  const hide = candidates.filter((c) => !tracked.has(rel(c.path)));
  const files = hide.filter((c) => c.kind === 'file');
  const exclude = files.length
    ? deps.exclude(
        repo,
        files.map((c) => excludePattern(rel(c.path))),
      )
    : undefined;
  return { hide, ...(exclude ? { exclude } : {}) };
}

/** A file's identity and version, to know when it changed (inode, size, change time). */
function stamp(p: string): string | undefined {
  const st = fs.statSync(p, { throwIfNoEntry: false, bigint: true });
  return st?.isFile() ? `${st.ino}:${st.size}:${st.ctimeNs}:${st.mtimeNs}` : undefined;
}

/** How often an exclude file is rewritten: those left unused this long are removed when another is made. */
const STALE_MS = 24 * 60 * 60 * 1000;

/**
 * The real dependencies, with what they read kept until the file changes (one per sandbox):
 * the index is read again only when it changed, an exclude file written only when the
 * repository's or the hidden set changed. Exclude files live in `runDir` (`<SlothTool home>/run`,
 * hidden from every step; bubblewrap binds from outside the view), named by their content.
 */
export function nodeWorkspaceSecretsDeps(
  runDir: string,
  probe: (p: string) => 'dir' | 'file' | undefined,
  vfs: IndexFs = nodeIndexFs,
): WorkspaceSecretsDeps {
  let index: { key: string; result: Set<string> | undefined } | undefined;
  let exclude: { key: string; result: { from: string; to: string } | undefined } | undefined;
  return {
    kind: probe,
    repo: (dir) => findRepo(dir, vfs),
    tracked(repo, rels) {
      const file = path.join(repo.gitDir, 'index');
      const key = `${file}|${stamp(file) ?? 'none'}|${rels.join('\0')}`;
      if (index?.key !== key) {
        let result: Set<string> | undefined;
        try {
          result = indexedPaths(fs.readFileSync(file), rels, hashLength(repo, vfs));
        } catch {
          // no index yet (a fresh `git init`): nothing is tracked
          result = new Set();
        }
        index = { key, result };
      }
      return index.result;
    },
    exclude(repo, patterns) {
      const to = path.join(repo.commonDir, 'info', 'exclude');
      const key = `${to}|${stamp(to) ?? 'none'}|${patterns.join('\0')}`;
      if (exclude?.key !== key) exclude = { key, result: stamp(to) ? writeExclude(runDir, to, patterns) : undefined };
      return exclude.result;
    },
  };
}

function writeExclude(runDir: string, to: string, patterns: readonly string[]): { from: string; to: string } | undefined {
  const own = nodeIndexFs.readText(to) ?? '';
  const content = `${own}${own && !own.endsWith('\n') ? '\n' : ''}# SlothTool sandbox: hidden from this step, absent to git\n${patterns.join('\n')}\n`;
  const from = path.join(runDir, `exclude-${createHash('sha256').update(content).digest('hex').slice(0, 24)}`);
  try {
    if (fs.existsSync(from)) {
      const now = new Date();
      fs.utimesSync(from, now, now);
      return { from, to };
    }
    // Only inside an existing SlothTool home (never made up along the way).
    if (!fs.existsSync(runDir)) fs.mkdirSync(runDir, { mode: 0o700 });
    writeFileAtomicSync(from, content, { mode: 0o644 });
    removeStale(runDir, from);
    return { from, to };
  } catch {
    // No exclude file: the secret stays hidden; git then says it cannot add it.
    return undefined;
  }
}

function removeStale(runDir: string, keep: string): void {
  for (const name of fs.readdirSync(runDir)) {
    const p = path.join(runDir, name);
    if (!name.startsWith('exclude-') || p === keep) continue;
    try {
      if (Date.now() - fs.statSync(p).mtimeMs > STALE_MS) fs.rmSync(p, { force: true });
    } catch {
      // gone meanwhile
    }
  }
}
