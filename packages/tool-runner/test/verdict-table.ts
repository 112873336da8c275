import type { Decision, Level, Step } from '../src';

/** A command line: split at spaces, or its argv where an argument holds a space. */
export type Line = string | string[];

/** A command line and the verdict it must get: a level, and a rule among the reasons. */
export type Verdict = readonly [line: Line, level: Level, rule: string];

/** Command lines that must all get one verdict: a level, and a rule among the reasons. */
export type VerdictGroup = readonly [level: Level, rule: string, lines: readonly Line[]];

/** The exec step of a line: its first word the program, the rest its arguments. */
export const execStep = (line: Line): Step => {
  const [program, ...args] = Array.isArray(line) ? line : line.split(' ');
  return { tool: 'exec', program, args };
};

/** A line as one string, for a test's name. */
export const lineLabel = (line: Line): string => (Array.isArray(line) ? line.join(' ') : line);

/** The groups' lines, one row a line, each with its group's verdict. */
export const ungrouped = (groups: readonly VerdictGroup[]): Verdict[] =>
  groups.flatMap(([level, rule, lines]) => lines.map((line): Verdict => [line, level, rule]));

/** One row a line, for `test.each`: `[label, level, rule, line]` (label: the line as one string). */
export const verdictRows = (groups: readonly VerdictGroup[]): Array<[string, Level, string, Line]> =>
  ungrouped(groups).map(([line, level, rule]): [string, Level, string, Line] => [lineLabel(line), level, rule, line]);

/** The reason `rule` gives in `d`, if it fired. */
export const reasonOf = (d: Decision, rule: string): string | undefined => d.rules.find((r) => r.id === rule)?.reason;

/** Throws unless `d` has `level` and `rule` among its reasons; the message names every rule that fired, with its level. */
export function expectVerdict(d: Decision, level: Level, rule: string): void {
  if (d.level !== level || !d.rules.some((r) => r.id === rule))
    throw new Error(`expected ${level} ${rule}, got ${d.level} ${JSON.stringify(d.rules.map((r) => `${r.level} ${r.id}`))}`);
}

/** One test a row, named `<line> → <level> <rule>`: `judge(line)` must give the row's verdict. */
export function eachVerdict(verdicts: readonly Verdict[], judge: (line: Line) => Decision): void {
  test.each(verdicts.map(([line, level, rule]) => [lineLabel(line), level, rule, line] as const))(
    '%s → %s %s',
    (_label, level, rule, line) => expectVerdict(judge(line), level, rule),
  );
}
