/**
 * A count of the work the gate does on one text, for the tests that check it stays linear
 * without a clock: characters fed to each pass, places a pass stopped to look closer (a
 * prefilter hit, a `name = value` pair), and characters those closer looks read. Every pass
 * adds to the one counter of the call in progress; nothing is counted when no one asked.
 */
export interface Work {
  /** Characters passed over by the scanning passes (the text length, once per pass). */
  scanned: number;
  /** Places a pass stopped at (prefilter hits, candidate pairs, key blocks, known-value hits). */
  stops: number;
  /** Characters read at those places (sticky expressions, lines looked at, values judged). */
  inspected: number;
}

let current: Work | undefined;

/** Add to the counter of the call in progress, if one is being counted. */
export function count(scanned: number, stops = 0, inspected = 0): void {
  if (!current) return;
  current.scanned += scanned;
  current.stops += stops;
  current.inspected += inspected;
}

/** Run `fn` and return its result with the work it counted. */
export function counted<T>(fn: () => T): { value: T; work: Work } {
  const outer = current;
  const work: Work = { scanned: 0, stops: 0, inspected: 0 };
  current = work;
  try {
    return { value: fn(), work };
  } finally {
    current = outer;
  }
}

/** A replacement that also takes the text after the match, up to `end` (a value read on past what the expression matched). */
export interface Reach {
  text: string;
  end: number;
}

/**
 * `text.replace(re, fn)` that builds a new string only where `fn` changes something (`fn`
 * returns undefined to leave a match as it is): most places a pass stops at are left alone,
 * and copying the whole text for each of them costs more than the scan. `fn` may replace more
 * than the match (a {@link Reach}); the scan goes on after it, so nothing is read twice.
 */
export function replaceMatches(text: string, re: RegExp, fn: (m: RegExpExecArray) => string | Reach | undefined): string {
  count(text.length);
  let parts: string[] | undefined;
  let at = 0;
  re.lastIndex = 0;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    if (m[0].length === 0) {
      re.lastIndex++;
      continue;
    }
    count(0, 1, Math.min(m[0].length, 1100));
    const r = fn(m);
    if (r === undefined || r === m[0]) continue;
    const end = typeof r === 'string' ? m.index + m[0].length : Math.max(r.end, m.index + m[0].length);
    (parts ??= []).push(text.slice(at, m.index), typeof r === 'string' ? r : r.text);
    at = end;
    re.lastIndex = end;
  }
  if (!parts) return text;
  parts.push(text.slice(at));
  return parts.join('');
}
