/**
 * The fastest of `runs` timings (ns) of `work` on each input, taken in turns (a, b, a, b, …) so
 * both meet the same machine: for growth checks measured as a ratio in the same run, never
 * against a fixed number of milliseconds.
 */
export function fastestInTurns<T>(work: (input: T) => unknown, inputs: readonly T[], runs = 5): number[] {
  const best = inputs.map(() => Infinity);
  for (let i = 0; i < runs; i++) {
    inputs.forEach((input, k) => {
      const t0 = process.hrtime.bigint();
      work(input);
      best[k] = Math.min(best[k], Number(process.hrtime.bigint() - t0));
    });
  }
  return best;
}
