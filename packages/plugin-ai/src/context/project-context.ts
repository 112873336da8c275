import * as fs from 'fs';
import * as path from 'path';
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

/** One instruction file that was loaded (what `/memory` lists). */
export interface LoadedInstructions {
  file: string;
  /** Estimated tokens of what was kept. */
  tokens: number;
  truncated: boolean;
}

/** Project instructions for the system prompt: `file` names every file used, `text` holds them. */
export interface ProjectContext {
  file: string;
  text: string;
  files: LoadedInstructions[];
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

/**
 * Project instructions: `.slothtool/AGENTS.md`, `AGENTS.md` and `CLAUDE.md` in `cwd`, then in
 * each parent folder up to the git root — nearest first. Every file found is used (the same
 * file reached twice, e.g. CLAUDE.md as a symlink to AGENTS.md, once), within `maxTokens` in
 * all: nearer files come first and are cut last.
 */
export function readProjectContext(cwd: string, maxTokens: number): ProjectContext | undefined {
  if (maxTokens <= 0) return undefined;
  const seen = new Set<string>();
  const files: LoadedInstructions[] = [];
  const texts: string[] = [];
  let left = maxTokens;
  for (const dir of searchedFolders(cwd)) {
    for (const name of INSTRUCTION_FILES) {
      if (left <= 0) break;
      const file = path.join(dir, name);
      let real: string;
      try {
        real = fs.realpathSync(file);
      } catch {
        continue;
      }
      if (seen.has(real)) continue;
      seen.add(real);
      const raw = readCapped(file)?.trim();
      if (!raw) continue;
      const text = truncateHead(raw, left);
      const tokens = estimateTokens(text);
      left -= tokens;
      files.push({ file, tokens, truncated: text !== raw });
      texts.push(text);
    }
  }
  if (!files.length) return undefined;
  // One file goes in as it is; several are headed by their path, nearest first.
  const text = texts.length === 1 ? texts[0] : texts.map((t, i) => `--- ${files[i].file}\n${t}`).join('\n\n');
  return { file: files.map((f) => f.file).join(', '), text, files };
}
