import type { Level } from '../src';

/** A command line: split at spaces, or its argv where an argument holds a space. */
export type Line = string | string[];

/** Command lines that must all get one verdict: a level, and a rule among the reasons. */
export type VerdictGroup = readonly [level: Level, rule: string, lines: readonly Line[]];

/** One row a line, for `test.each`: `[label, level, rule, line]` (label: the line as one string). */
export const verdictRows = (groups: readonly VerdictGroup[]): Array<[string, Level, string, Line]> =>
  groups.flatMap(([level, rule, lines]) =>
    lines.map((line): [string, Level, string, Line] => [Array.isArray(line) ? line.join(' ') : line, level, rule, line]),
  );
