/** A deterministic pseudo-random source in [0, 1) (a linear congruential generator): a fuzz test's run is the same every time. */
export function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}
