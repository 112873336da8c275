import { promises as fs } from 'fs';
import path = require('path');
import { JsonPatchError } from './errors';
import { expandPath } from './home';

/** Options for resolving a file against allowed roots. */
export interface ResolveOptions {
  /** Environment for `~` and `SLOTHTOOL_HOME`. Default `process.env`. */
  env?: NodeJS.ProcessEnv;
  /** Base for relative paths. Default `process.cwd()`. */
  cwd?: string;
}

/**
 * The real path of `file`: `~` expanded, `..` removed, symlinks followed. A file that does
 * not exist yet resolves through its nearest existing ancestor. A symlink whose target is
 * missing is refused, since writing through it would land somewhere unchecked.
 */
export async function resolveRealPath(file: string, options: ResolveOptions = {}): Promise<string> {
  const absolute = expandPath(file, options.env, options.cwd);
  const missing: string[] = [];
  let current = absolute;
  for (;;) {
    try {
      const real = await fs.realpath(current);
      return path.join(real, ...missing.reverse());
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'ENOTDIR') throw ioError(absolute, 'resolve', err);
      const isLink = await fs.lstat(current).then(
        (s) => s.isSymbolicLink(),
        () => false,
      );
      if (isLink) {
        throw new JsonPatchError(
          'PATH_NOT_ALLOWED',
          `Expected ${current} to lead to an existing file, found a symbolic link whose target is missing. ` +
            'Remove the link or point it at a real file inside an allowed root.',
          { file: absolute },
        );
      }
      const parent = path.dirname(current);
      if (parent === current) return absolute;
      missing.push(path.basename(current));
      current = parent;
    }
  }
}

const GLOB = /[*?[]/;

/** One allowed root, resolved: an exact real path or a pattern over real paths. */
async function rootMatcher(root: string, options: ResolveOptions): Promise<(real: string) => boolean> {
  const absolute = expandPath(root, options.env, options.cwd);
  const segments = absolute.split(path.sep);
  const firstGlob = segments.findIndex((s) => GLOB.test(s));
  if (firstGlob === -1) {
    const real = await resolveRealPath(absolute, options).catch(() => absolute);
    // A folder admits every file beneath it (compared as real paths, segment by segment: /a/b
    // does not admit /a/bc); a file admits itself.
    const isDir = await fs.stat(real).then(
      (st) => st.isDirectory(),
      () => false,
    );
    if (!isDir) return (target) => target === real;
    const prefix = real.endsWith(path.sep) ? real : real + path.sep;
    return (target) => target === real || target.startsWith(prefix);
  }
  const base = segments.slice(0, firstGlob).join(path.sep) || path.sep;
  const realBase = await resolveRealPath(base, options).catch(() => base);
  const pattern = segments.slice(firstGlob).map(globSegment).join(escapeRegExp(path.sep));
  const regex = new RegExp('^' + escapeRegExp(path.join(realBase, path.sep)) + pattern + '$');
  return (target) => regex.test(target);
}

function globSegment(segment: string): string {
  let out = '';
  for (let i = 0; i < segment.length; i++) {
    const ch = segment[i];
    if (ch === '*') out += '[^/\\\\]*';
    else if (ch === '?') out += '[^/\\\\]';
    else out += escapeRegExp(ch);
  }
  return out;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Resolve `file` and check it against `allowedRoots`: folders (every file beneath them), exact
 * files, or patterns such as `~/.slothtool/plugin-configs/*.json`, where `*` and `?` stay inside
 * one path segment.
 * Both sides are compared as real paths, so `..` and symlinks cannot escape.
 * Returns the real path, or throws PATH_NOT_ALLOWED.
 */
export async function resolveAllowedFile(file: string, allowedRoots: readonly string[], options: ResolveOptions = {}): Promise<string> {
  if (typeof file !== 'string' || file.trim() === '') {
    throw new JsonPatchError('PATH_NOT_ALLOWED', `Expected a file path, found ${JSON.stringify(file)}. Name the JSON file to change.`);
  }
  if (!Array.isArray(allowedRoots) || allowedRoots.some((r) => typeof r !== 'string')) {
    throw new JsonPatchError(
      'INVALID_OPTIONS',
      'Expected allowedRoots to be an array of paths or patterns, found something else. Pass e.g. defaultAllowedRoots().',
      { file },
    );
  }
  const real = await resolveRealPath(file, options);
  const matchers = await Promise.all(allowedRoots.map((root) => rootMatcher(root, options)));
  if (!matchers.some((matches) => matches(real))) {
    const shown = real === expandPath(file, options.env, options.cwd) ? real : `${real} (from ${file})`;
    throw new JsonPatchError(
      'PATH_NOT_ALLOWED',
      `Expected a file inside the allowed roots (${allowedRoots.join(', ') || 'none given'}), found ${shown}. ` +
        'Only those files may be changed; pick one of them or ask the user to allow this file.',
      { file },
    );
  }
  return real;
}

export function ioError(file: string, action: string, err: unknown): JsonPatchError {
  const e = err as NodeJS.ErrnoException;
  const said = e.message ?? String(err);
  // Node's messages already start with the code (`ENOSPC: no space left on device, write`).
  const detail = e.code && !said.startsWith(e.code) ? `${e.code} ${said}` : said;
  return new JsonPatchError(
    'IO_ERROR',
    `Expected to ${action} ${file}, but the system said: ${detail}. ` +
      'Check the file and folder permissions and free disk space, then try again.',
    { file, cause: err },
  );
}
