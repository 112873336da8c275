/** Limits of an untrusted JSON value (a model's reply, a patch, a tool's input). */
export interface JsonLimits {
  /** Deepest nesting of arrays and objects; default 64. */
  maxDepth?: number;
  /** Most values (objects, arrays, strings, numbers, …) in all; default 200 000. */
  maxNodes?: number;
}

/**
 * Why `value` is over the limits, or undefined when it is within them. Walks without recursion,
 * so a value nested 100 000 deep is answered, not a stack overflow.
 */
export function jsonLimitProblem(value: unknown, limits: JsonLimits = {}): string | undefined {
  const maxDepth = limits.maxDepth ?? 64;
  const maxNodes = limits.maxNodes ?? 200_000;
  // Two parallel stacks (values and their depths): no object per value walked (every step of a runner is checked).
  const stack: unknown[] = [value];
  const depths: number[] = [0];
  let nodes = 0;
  while (stack.length) {
    const v = stack.pop();
    const depth = depths.pop()!;
    if (++nodes > maxNodes) return `it holds more than ${maxNodes} values`;
    if (v === null || typeof v !== 'object') continue;
    if (depth >= maxDepth) return `it is nested deeper than ${maxDepth} levels`;
    const children = Array.isArray(v) ? v : Object.values(v as Record<string, unknown>);
    for (const c of children) {
      stack.push(c);
      depths.push(depth + 1);
    }
  }
  return undefined;
}
