// Table tests for pure functions: each case is one row of data, the check is written once here.
// The jest globals are declared, not imported: testkit is built without jest's types.

type Each = <R extends readonly unknown[]>(rows: readonly R[]) => (title: string, fn: (...row: R) => void) => void;
declare const test: { each: Each };
declare const expect: (value: unknown) => { toEqual(expected: unknown): void };

/**
 * One jest test per row `[...args, expected]`: `fn(...args)` must equal `expected` (`toEqual`, so
 * strings, numbers and booleans compare as with `toBe` and objects by content). `title` is a jest
 * `test.each` title over the row's cells (`%s`, `%j`, `%d`, `%#`).
 *
 * @example eachReturns('%s -> %s', aliasFromName, [['@acme/greet', 'greet'], ['cowsay', 'cowsay']]);
 */
export function eachReturns<A extends unknown[], R>(title: string, fn: (...args: A) => R, rows: ReadonlyArray<readonly [...A, R]>): void {
  test.each(rows)(title, (...row) => {
    const args = row.slice(0, -1) as A;
    expect(fn(...args)).toEqual(row[row.length - 1]);
  });
}

/**
 * One jest test per input: `fn(input)` must give the input back unchanged. Inputs come as a list
 * (the title formats the input) or as a record of name → input (the title formats the name).
 *
 * @example eachUnchanged('leaves ordinary text alone: %s', redact, ['git status', 'task-1234-abc']);
 * @example eachUnchanged('stays readable: %s', redact, { 'a UUID': 'request_id = 3f2b9c1e-…' });
 */
export function eachUnchanged<T>(title: string, fn: (input: T) => T, inputs: readonly T[] | Readonly<Record<string, T>>): void {
  const rows: Array<readonly [string | T, T]> = Array.isArray(inputs)
    ? inputs.map((input: T) => [input, input] as const)
    : Object.entries(inputs as Record<string, T>);
  test.each(rows)(title, (_title, input) => {
    expect(fn(input)).toEqual(input);
  });
}

/** What exists, for {@link pathProbe}: folders and files by their full path. */
export interface PathKinds {
  dirs?: readonly string[];
  files?: readonly string[];
}

/**
 * A file-system probe answering from lists instead of the disk: `'dir'` for a listed folder,
 * `'file'` for a listed file, `undefined` for any other path (for code that takes a `probe`, like
 * the sandbox's `sandboxSpec`).
 *
 * @example const probe = pathProbe({ dirs: ['/home/u/.ssh'], files: ['/home/u/.npmrc'] });
 */
export function pathProbe({ dirs = [], files = [] }: PathKinds): (path: string) => 'dir' | 'file' | undefined {
  const kinds = new Map<string, 'dir' | 'file'>([...dirs.map((d) => [d, 'dir'] as const), ...files.map((f) => [f, 'file'] as const)]);
  return (path) => kinds.get(path);
}
