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
