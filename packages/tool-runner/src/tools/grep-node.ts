import fs = require('fs');
import path = require('path');
import { decodeText, isBinary, readJudgedFile, splitLines } from './fs-common';
import { picomatch } from '../lazy-modules';
import { walkFiles, type WalkStop } from './fs-walk';
import { GREP_MAX_FILE_BYTES, isSecretFile, type GrepOutcome, type GrepQuery, type HitCollector } from './grep-hits';
import { withTimeLimit } from './time-limit';

/**
 * Whether a whole file may be tested at once before it is split into lines (most files do not
 * match at all): with the `m` flag a match inside a line is a match of the text, unless the
 * pattern looks around (it could see the neighbouring line) or the file has `\r` (`$` would not
 * match before it). Such patterns and files are tested line by line only.
 */
function wholeText(pattern: string): boolean {
  return !/\(\?<?[=!]/.test(pattern);
}

/** The pattern as JavaScript reads it (Unicode-aware like ripgrep's, plain when `u` refuses it), or why it is invalid. */
function compile(pattern: string, ignoreCase: boolean): { re: RegExp; whole?: RegExp } | { error: string } {
  const flags = ignoreCase ? 'i' : '';
  let error = '';
  for (const f of [`${flags}u`, flags]) {
    try {
      return { re: new RegExp(pattern, f), ...(wholeText(pattern) ? { whole: new RegExp(pattern, `${f}m`) } : {}) };
    } catch (err) {
      error ||= err instanceof Error ? err.message : String(err);
    }
  }
  return { error };
}

/**
 * fs.grep without ripgrep: the same walk as fs.glob (ignore files, `.git` skipped, links not
 * followed), secret files and binary files skipped, files over 10 MiB skipped, the pattern as a
 * JavaScript regular expression, line by line. All of it runs under the search's deadline
 * (withTimeLimit): a pattern, a glob or an ignore file that backtracks is stopped there, and the
 * matches found so far are kept.
 */
export function grepWithNode(q: GrepQuery, hits: HitCollector): GrepOutcome {
  const compiled = compile(q.pattern, q.ignoreCase);
  if ('error' in compiled) return { engine: 'node', skipped: [], patternError: compiled.error };
  const { re, whole } = compiled;
  const skipped: string[] = [];
  let stopped: GrepOutcome['stopped'];
  /** Search one file; false once the count limit is passed. */
  const consider = (rel: string, abs: string): boolean => {
    const name = rel || path.basename(abs);
    if (isSecretFile(name)) {
      skipped.push(name);
      return true;
    }
    let text: string;
    try {
      const st = fs.lstatSync(abs);
      if (!st.isFile() || st.size > GREP_MAX_FILE_BYTES) return true;
      // The file the walk found, and only that one: a link swapped in meanwhile is not followed (MOVED).
      const buf = readJudgedFile(abs);
      if (isBinary(buf)) return true;
      text = decodeText(buf);
    } catch {
      return true; // unreadable or gone: nothing from it
    }
    if (whole && !text.includes('\r') && !whole.test(text)) return true;
    const lines = splitLines(text);
    for (let i = 0; i < lines.length; i++) {
      if (re.test(lines[i]) && !hits.add(rel, i + 1)) {
        stopped = 'count';
        return false;
      }
    }
    return true;
  };
  const run = withTimeLimit(Math.max(1, q.deadline - q.now()), (): WalkStop | undefined => {
    if (q.kind === 'file') {
      consider('', q.root);
      return undefined;
    }
    const wanted = q.glob ? picomatch()(q.glob, { dot: true, basename: !q.glob.includes('/'), noextglob: true }) : undefined;
    return walkFiles({ workspace: q.workspace, root: q.root, shouldStop: () => (q.signal?.aborted ? 'aborted' : undefined) }, (file) =>
      wanted && !wanted(file.rel) ? undefined : consider(file.rel, file.abs),
    ).stopped;
  });
  stopped ??= run.done ? run.value : 'time';
  return { engine: 'node', skipped, ...(stopped ? { stopped } : {}) };
}
