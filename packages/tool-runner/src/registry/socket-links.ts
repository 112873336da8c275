/**
 * Live facts for judging the socket, not its name: a Unix socket a step names (in any spelling the
 * rules read: `--unix-socket x`, `UNIX-CONNECT:x`, `unix:///x`, `http+unix://%2Fx`, a proxy's
 * `socks5h://localhost/x`, a bind mount's source) may be a link to a container engine's socket, or
 * the engine's socket itself under another name (a hard link, a bind mount). Each is recorded in
 * the step's {@link PathLinks} with the engine's place as its target, so the command is judged
 * again as naming the engine's socket (registry/exec.ts judgeLinkTargets).
 */
import * as fs from 'fs';
import * as path from 'path';
import { engineSocketFiles, holdsEngineSocket, isEngineSocket } from '../policy/engine-sockets';
import { pathParts, socketParts, type PathLinks } from '../policy/links';
import { resolveBelow, type PathFs, type ResolvedPath } from '../workspace';

/** What the socket facts are gathered with. */
export interface SocketLinkOptions {
  /** The home `~` and `$HOME` stand for. */
  home?: string;
  /** The engines' socket files to compare by device and inode (default {@link engineSocketFiles} for this user). */
  engines?: readonly string[];
  /** The judgement's (workspace.ts judgementPathFs): its lstat answers are shared with the words' walk. */
  pfs: PathFs;
  /** stat that follows links, for the engines' files (default fs.statSync). */
  stat?: (p: string) => { dev: number; ino: number } | undefined;
}

const defaultStat = (p: string) => fs.statSync(p, { throwIfNoEntry: false });

/** `~/x`, `$HOME/x` with the home put in; undefined when there is none to put in. */
function expandHome(part: string, home: string | undefined): string | undefined {
  const m = /^(?:~|\$HOME|\$\{HOME\})(?=\/)/.exec(part);
  if (!m) return part;
  return home ? home + part.slice(m[0].length) : undefined;
}

/** The engines' files by `dev:ino`, looked at once per judgement and only when a named path is a socket. */
function engineIds(opts: SocketLinkOptions): Map<string, string> {
  const ids = new Map<string, string>();
  const stat = opts.stat ?? defaultStat;
  for (const f of opts.engines ?? engineSocketFiles(opts.home, process.getuid?.())) {
    let st: { dev: number; ino: number } | undefined;
    try {
      st = stat(f);
    } catch {
      st = undefined;
    }
    if (st && !ids.has(`${st.dev}:${st.ino}`)) ids.set(`${st.dev}:${st.ino}`, f);
  }
  return ids;
}

/**
 * Add to `links` every socket part of `words` that leads to an engine's socket (or a folder
 * holding one) under another name: through links (resolved as the kernel walks them, dangling
 * ones to their target), or by being the same file (device and inode) as one of `engines`.
 * Whole words and `--opt=value` parts that lead through a link are there already (gatherLinks);
 * here they only gain the same-file check.
 */
export function gatherSocketLinks(words: readonly string[], cwd: ResolvedPath, links: PathLinks, opts: SocketLinkOptions): void {
  let ids: Map<string, string> | undefined;
  const sameFile = (real: string): string | undefined => {
    const st = opts.pfs.lstatSync?.(real) as (fs.Stats & { isSocket?: () => boolean }) | undefined;
    if (!st || typeof st.isSocket !== 'function' || !st.isSocket()) return undefined;
    ids ??= engineIds(opts);
    return ids.get(`${st.dev}:${st.ino}`);
  };
  const seen = new Set<string>();
  for (const w of words) {
    const parts = [...pathParts(w).map((part) => ({ part, plain: true })), ...socketParts(w).map(({ part }) => ({ part, plain: false }))];
    for (const { part, plain } of parts) {
      if (seen.has(part) || /[\0\n]/.test(part)) continue;
      seen.add(part);
      const expanded = expandHome(part, opts.home);
      if (expanded === undefined) continue;
      const spelled = path.resolve(cwd.abs, expanded);
      const r = resolveBelow(cwd.real, expanded, opts.pfs);
      const engine = r.exists ? sameFile(r.real) : undefined;
      const real = engine ?? r.real;
      if (real === spelled || (engine === undefined && plain)) continue;
      if (engine === undefined && !isEngineSocket(real, opts.home) && !holdsEngineSocket(real, opts.home)) continue;
      links.words[part] = { abs: spelled, real };
    }
  }
}
