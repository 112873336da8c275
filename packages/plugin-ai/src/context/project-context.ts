import fs = require('fs');
import path = require('path');
import { estimateTokens, truncateHead } from './tokens';

/** The git root above `cwd` (a folder holding `.git`), or undefined. Pure file-system walk:
 * no git process at start-up. */
export function findGitRoot(cwd: string): string | undefined {
  let dir = path.resolve(cwd);
  for (;;) {
    if (fs.existsSync(path.join(dir, '.git'))) return dir;
    const parent = path.dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

/** Instruction file names looked for in each folder, in this order. */
export const INSTRUCTION_FILES = [path.join('.slothtool', 'AGENTS.md'), 'AGENTS.md', 'CLAUDE.md'] as const;

/** Bytes read of one instruction file at most (the token cap trims further). */
const MAX_FILE_BYTES = 256 * 1024;

/** How deep `@file` imports go (a file imported by an imported file is depth 2), as Claude Code. */
export const MAX_IMPORT_DEPTH = 5;

/** One memory file that was loaded (what `/memory` lists). */
export interface LoadedInstructions {
  file: string;
  /** Estimated tokens of what was kept. */
  tokens: number;
  truncated: boolean;
  /** Tokens of the whole file, when it was cut. */
  fullTokens?: number;
  /** `user`: `~/.slothtool/AGENTS.md`, `~/.claude/CLAUDE.md`; `project`: the repository's files. */
  scope?: 'user' | 'project';
  /** The memory file whose `@path` brought this one in. */
  importedBy?: string;
}

/** An `@path` import that was not read, with why. */
export interface MemoryProblem {
  file: string;
  from: string;
  reason: 'outside' | 'refused' | 'depth' | 'missing';
  /** For `refused`: the rule's reason (fs.read's judgement). */
  detail?: string;
}

/** Memory for the system prompt: `file` names every file used, `text` holds them. */
export interface ProjectContext {
  file: string;
  text: string;
  files: LoadedInstructions[];
  /** Imports that were named but not read. */
  problems: MemoryProblem[];
}

/** Where memory comes from beyond the project's folders, and how imports are judged. */
export interface MemoryOptions {
  /** The SlothTool home: its `AGENTS.md` is the user's own memory. */
  slothtoolHome?: string;
  /** The user's home: `~/.claude/CLAUDE.md` (Claude Code's user memory). */
  userHome?: string;
  /** Imports stay inside this folder (default: the git root of `cwd`, else `cwd`). */
  workspace?: string;
  /**
   * Whether an imported file may be read, as fs.read would judge a model's read of it: `true`, or
   * the reason it may not (a secret file, a deny rule). Without it only the workspace check applies.
   */
  mayImport?: (file: string) => true | string;
}

/** The folders searched: `cwd`, then each parent up to the git root (only `cwd` outside a repository). */
function searchedFolders(cwd: string): string[] {
  const start = path.resolve(cwd);
  const root = findGitRoot(start);
  if (!root) return [start];
  const out: string[] = [];
  for (let dir = start; ; dir = path.dirname(dir)) {
    out.push(dir);
    if (dir === root || path.dirname(dir) === dir) break;
  }
  return out;
}

function readCapped(file: string): string | undefined {
  let fd: number | undefined;
  try {
    fd = fs.openSync(file, 'r');
    if (!fs.fstatSync(fd).isFile()) return undefined;
    const buf = Buffer.alloc(MAX_FILE_BYTES);
    const n = fs.readSync(fd, buf, 0, MAX_FILE_BYTES, 0);
    return buf.subarray(0, n).toString('utf8');
  } catch {
    return undefined; // absent or unreadable: the next candidate, as documented
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

function realOf(file: string): string | undefined {
  try {
    return fs.realpathSync(file);
  } catch {
    return undefined;
  }
}

function inside(file: string, root: string): boolean {
  const rel = path.relative(root, file);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

/**
 * The `@path` imports a memory file names, as Claude Code reads them: `@` at the start of a word,
 * outside code blocks and code spans. `alone`: the reference is a line of its own (surely meant as
 * an import, so a missing file is said; an `@name` in a sentence may be a mention).
 */
export function importRefs(text: string): Array<{ ref: string; alone: boolean }> {
  const out: Array<{ ref: string; alone: boolean }> = [];
  let fenced = false;
  for (const line of text.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) {
      fenced = !fenced;
      continue;
    }
    if (fenced) continue;
    const plain = line.replace(/`[^`]*`/g, ' ');
    for (const m of plain.matchAll(/(^|\s)@([^\s`'"<>()]+)/g)) {
      const ref = m[2].replace(/[.,;:!?]+$/, '');
      if (ref) out.push({ ref, alone: plain.trim() === `@${m[2]}` });
    }
  }
  return out;
}

interface Entry {
  file: string;
  raw: string;
  scope: 'user' | 'project';
  importedBy?: string;
}

/** What reading memory files shares: files seen (by real path), the entries in order, the problems. */
interface Reading {
  seen: Set<string>;
  entries: Entry[];
  problems: MemoryProblem[];
  workspace: string;
  mayImport?: MemoryOptions['mayImport'];
}

/** Read one memory file (once, by its real path), then what it imports, depth first. */
function take(r: Reading, file: string, scope: 'user' | 'project', depth: number, importedBy?: string): void {
  const real = realOf(file);
  if (!real || r.seen.has(real)) return; // absent, or already read: a cycle is cut here
  const raw = readCapped(file)?.trim();
  if (!raw) return;
  r.seen.add(real);
  r.entries.push({ file, raw, scope, ...(importedBy ? { importedBy } : {}) });
  for (const { ref, alone } of importRefs(raw)) {
    const target = path.resolve(path.dirname(file), ref);
    const targetReal = realOf(target);
    if (!targetReal || !fs.statSync(targetReal).isFile()) {
      if (alone) r.problems.push({ file: target, from: file, reason: 'missing' });
      continue;
    }
    if (r.seen.has(targetReal)) continue;
    if (!inside(targetReal, r.workspace)) {
      r.problems.push({ file: target, from: file, reason: 'outside' });
      continue;
    }
    if (depth + 1 > MAX_IMPORT_DEPTH) {
      r.problems.push({ file: target, from: file, reason: 'depth' });
      continue;
    }
    const verdict = r.mayImport?.(targetReal) ?? true;
    if (verdict !== true) {
      r.problems.push({ file: target, from: file, reason: 'refused', detail: verdict });
      continue;
    }
    take(r, target, scope, depth + 1, file);
  }
}

/**
 * Shares of a budget: each file gets at most what it needs, and what a small file leaves goes to
 * the larger ones, so one long file can never crowd the others out (each gets an equal share of
 * what is left at least). Pure.
 */
export function shareBudget(sizes: readonly number[], budget: number): number[] {
  const order = sizes.map((size, i) => ({ size, i })).sort((a, b) => a.size - b.size);
  const out = new Array<number>(sizes.length).fill(0);
  let left = Math.max(0, budget);
  order.forEach(({ size, i }, k) => {
    const share = Math.floor(left / (order.length - k));
    out[i] = Math.min(size, share);
    left -= out[i];
  });
  return out;
}

/**
 * Memory for the system prompt, in this order: the user's (`~/.slothtool/AGENTS.md`, then
 * `~/.claude/CLAUDE.md`), then the project's: `.slothtool/AGENTS.md`, `AGENTS.md` and `CLAUDE.md`
 * in `cwd`, then in each parent folder up to the git root, nearest first. Every file is read once
 * (by its real path: a symlink, or a file also imported, counts once); `@path` lines bring in
 * files inside the workspace (fs.read's rules, `mayImport`), at most MAX_IMPORT_DEPTH deep. All
 * within `maxTokens`: a file that does not fit its share is cut, and says so (`truncated`).
 */
export function readProjectContext(cwd: string, maxTokens: number, options: MemoryOptions = {}): ProjectContext | undefined {
  if (maxTokens <= 0) return undefined;
  const workspace = realOf(options.workspace ?? findGitRoot(cwd) ?? cwd) ?? path.resolve(cwd);
  const r: Reading = { seen: new Set(), entries: [], problems: [], workspace, mayImport: options.mayImport };
  if (options.slothtoolHome) take(r, path.join(options.slothtoolHome, 'AGENTS.md'), 'user', 0);
  if (options.userHome) take(r, path.join(options.userHome, '.claude', 'CLAUDE.md'), 'user', 0);
  for (const dir of searchedFolders(cwd)) for (const name of INSTRUCTION_FILES) take(r, path.join(dir, name), 'project', 0);
  if (!r.entries.length) return undefined;
  const single = r.entries.length === 1;
  const heading = (e: Entry) => `--- ${e.file}${e.importedBy ? ` (imported by ${e.importedBy})` : ''}`;
  // The headings are paid for first: the files share what is left.
  const overhead = single ? 0 : r.entries.reduce((n, e) => n + estimateTokens(heading(e)) + 1, 0);
  const full = r.entries.map((e) => estimateTokens(e.raw));
  const shares = shareBudget(full, maxTokens - overhead);
  const files: LoadedInstructions[] = [];
  const texts: string[] = [];
  r.entries.forEach((e, i) => {
    if (shares[i] <= 0) {
      files.push({
        file: e.file,
        tokens: 0,
        truncated: true,
        fullTokens: full[i],
        scope: e.scope,
        ...(e.importedBy ? { importedBy: e.importedBy } : {}),
      });
      return;
    }
    const text = truncateHead(e.raw, shares[i]);
    const cut = text !== e.raw;
    files.push({
      file: e.file,
      tokens: estimateTokens(text),
      truncated: cut,
      ...(cut ? { fullTokens: full[i] } : {}),
      scope: e.scope,
      ...(e.importedBy ? { importedBy: e.importedBy } : {}),
    });
    texts.push(single ? text : `${heading(e)}\n${text}`);
  });
  return {
    file: files
      .filter((f) => f.tokens > 0)
      .map((f) => f.file)
      .join(', '),
    text: texts.join('\n\n'),
    files,
    problems: r.problems,
  };
}
