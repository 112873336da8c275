import * as fs from 'fs';

// A cloned repository is untrusted input. These tests build hostile ones: each plants a program
// that would create a marker file, and names it where a git command would run it.

/** A hostile repository: its folder, the planted program, and the marker file that program creates when it runs. */
export interface Planted {
  dir: string;
  marker: string;
  planted: string;
}

/** A way a repository names a program: its name, how it is planted in a repository, and the git commands that would run it. */
export type Mechanism<R extends Planted> = readonly [name: string, plant: (r: R) => void, commands: readonly string[][]];

/** How a test step runs: without the OS sandbox, and with it where the machine has one. */
export type SandboxMode = 'off' | 'auto';

const SANDBOX_MODES: ReadonlyArray<readonly [label: string, mode: SandboxMode]> = [
  ['without the OS sandbox', 'off'],
  ['with the OS sandbox when there is one', 'auto'],
];

/** A name for a test's own repository, made of the words that tell the test apart. */
export const repoName = (...words: string[]): string => words.map((w) => w.replace(/\W+/g, '-')).join('-');

/** Where a test of {@link eachPlantedCommand} stands: the sandbox mode, the mechanism's plant, git's arguments, and a repository name of its own. */
export interface PlantedCommand<R extends Planted> {
  sandbox: SandboxMode;
  plant: (r: R) => void;
  args: string[];
  name: string;
}

/**
 * One test a sandbox mode × mechanism × command, named by `title` (`%s` is the command) under the
 * mode and the mechanism.
 */
export function eachPlantedCommand<R extends Planted>(
  mechanisms: ReadonlyArray<Mechanism<R>>,
  title: string,
  run: (c: PlantedCommand<R>) => Promise<void>,
): void {
  describe.each(SANDBOX_MODES)('%s', (_label, sandbox) => {
    describe.each(mechanisms)('%s', (mechanism, plant, commands) => {
      test.each(commands.map((args) => [args.join(' '), args] as const))(title, (_line, args) =>
        run({ sandbox, plant, args, name: repoName(sandbox, mechanism, ...args) }),
      );
    });
  });
}

/** The control: `plain`, the command without the hardening, runs the planted program (which may fail the command: it ran all the same). */
export function expectPlantedRan(marker: string, plain: () => unknown): void {
  try {
    plain();
  } catch {
    // a failing planted program may fail the command; it ran all the same
  }
  expect(fs.existsSync(marker)).toBe(true);
}

/**
 * One control a row `[mechanism, args]`: in a repository of its own, plain git with those
 * arguments (`plainGit`, no hardening) runs what the mechanism planted, so the hardened runs that
 * never run it prove something.
 */
export function eachControl<R extends Planted>(
  mechanisms: ReadonlyArray<Mechanism<R>>,
  rows: ReadonlyArray<readonly [mechanism: string, args: string[]]>,
  repo: (name: string) => R,
  plainGit: (r: R, args: string[]) => unknown,
): void {
  test.each(rows)('control: without the hardening, %s makes plain git %j run the planted program', (name, args) => {
    const [, plant] = mechanisms.find(([n]) => n === name)!;
    const r = repo(repoName('control', name, ...args));
    plant(r);
    expectPlantedRan(r.marker, () => plainGit(r, args));
  });
}
