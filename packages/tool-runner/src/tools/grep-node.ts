import * as fs from 'fs';
import * as path from 'path';
import * as vm from 'vm';
import { decodeText, isBinary } from './fs-common';
import { modPicomatch } from './fs-glob';
import { walkFiles } from './fs-walk';
import { GREP_MAX_FILE_BYTES, isSecretFile, type GrepOutcome, type GrepQuery, type HitCollector } from './grep-hits';

/** Text searched per call into the time-limited context (a call's fixed cost is spread over this much). */
const BATCH_CHARS = 4 * 1024 * 1024;

/**
 * The matcher, in a context of its own: a JavaScript regular expression can backtrack for a very
 * long time on a hostile pattern, and only the context's time limit interrupts it (V8 checks for
 * the interrupt inside the regular-expression engine). `scan` returns the matching line numbers
 * of each text, lines split as fs.read splits them.
 */
const SCAN = new vm.Script(`out = (function (texts) {
  var res = [];
  for (var t = 0; t < texts.length; t++) {
    if (pre && texts[t].indexOf('\\r') < 0 && !pre.test(texts[t])) {
      res.push([]);
      continue;
    }
    var lines = texts[t].split(/\\r?\\n/);
    if (lines.length && lines[lines.length - 1] === '') lines.pop();
    var hits = [];
    for (var i = 0; i < lines.length; i++) if (re.test(lines[i])) hits.push(i + 1);
    res.push(hits);
  }
  return res;
})(texts)`);

/**
 * Whether a whole file may be tested at once before it is split into lines (most files do not
 * match at all): with the `m` flag a match inside a line is a match of the text, unless the
 * pattern looks around (it could see the neighbouring line) or the file has `\r` (`$` would not
 * match before it). Such patterns and files are tested line by line only.
 */
function wholeText(pattern: string): boolean {
  return !/\(\?<?[=!]/.test(pattern);
}

/** The pattern compiled in a fresh context (Unicode-aware like ripgrep's, plain when `u` refuses it), or why it is invalid. */
function compile(pattern: string, ignoreCase: boolean): { context: vm.Context } | { error: string } {
  const context = vm.createContext({ src: pattern, texts: [], out: null, re: null, pre: null });
  const flags = ignoreCase ? 'i' : '';
  let error = '';
  for (const f of [`${flags}u`, flags]) {
    try {
      vm.runInContext(`re = new RegExp(src, ${JSON.stringify(f)}); pre = ${wholeText(pattern) ? `new RegExp(src, ${JSON.stringify(`${f}m`)})` : 'null'};`, context, { timeout: 1000 });
      return { context };
    } catch (err) {
      error ||= err instanceof Error ? err.message : String(err);
    }
  }
  return { error };
}

/**
 * fs.grep without ripgrep: the same walk as fs.glob (ignore files, `.git` skipped, links not
 * followed), secret files and binary files skipped, files over 10 MiB skipped, the pattern as a
 * JavaScript regular expression, line by line. Linear in the text except for the pattern itself,
 * which runs under the search's deadline: past it the search stops and says so.
 */
export function grepWithNode(q: GrepQuery, hits: HitCollector): GrepOutcome {
  const compiled = compile(q.pattern, q.ignoreCase);
  if ('error' in compiled) return { engine: 'node', skipped: [], patternError: compiled.error };
  const { context } = compiled;
  const skipped: string[] = [];
  const wanted = q.glob ? modPicomatch()(q.glob, { dot: true, basename: !q.glob.includes('/') }) : undefined;
  let batch: Array<{ rel: string; text: string }> = [];
  let chars = 0;
  let stopped: GrepOutcome['stopped'];
  const flush = (): boolean => {
    if (!batch.length) return true;
    const texts = batch.map((b) => b.text);
    context.texts = texts;
    try {
      SCAN.runInContext(context, { timeout: Math.max(1, q.deadline - q.now()) });
    } catch {
      stopped = 'time';
      return false;
    } finally {
      context.texts = [];
    }
    const out = context.out as number[][];
    for (let i = 0; i < batch.length; i++) {
      for (const line of out[i]) {
        if (!hits.add(batch[i].rel, line)) {
          stopped = 'count';
          return false;
        }
      }
    }
    batch = [];
    chars = 0;
    return true;
  };
  const consider = (rel: string, abs: string): boolean => {
    if (isSecretFile(rel || path.basename(abs))) {
      skipped.push(rel || path.basename(abs));
      return true;
    }
    let text: string;
    try {
      const st = fs.lstatSync(abs);
      if (!st.isFile() || st.size > GREP_MAX_FILE_BYTES) return true;
      const buf = fs.readFileSync(abs);
      if (isBinary(buf)) return true;
      text = decodeText(buf);
    } catch {
      return true; // unreadable or gone: nothing from it
    }
    batch.push({ rel, text });
    chars += text.length;
    return chars < BATCH_CHARS || flush();
  };
  if (q.kind === 'file') {
    consider('', q.root);
  } else {
    const walked = walkFiles(
      {
        workspace: q.workspace,
        root: q.root,
        shouldStop: () => (q.signal?.aborted ? 'aborted' : q.now() > q.deadline ? 'time' : undefined),
      },
      (file) => (wanted && !wanted(file.rel) ? undefined : consider(file.rel, file.abs)),
    );
    stopped ??= walked.stopped;
  }
  if (!stopped) flush();
  return { engine: 'node', skipped, ...(stopped ? { stopped } : {}) };
}
