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
  const stack: Array<{ v: unknown; depth: number }> = [{ v: value, depth: 0 }];
  let nodes = 0;
  while (stack.length) {
    const { v, depth } = stack.pop()!;
    if (++nodes > maxNodes) return `it holds more than ${maxNodes} values`;
    if (v === null || typeof v !== 'object') continue;
    if (depth >= maxDepth) return `it is nested deeper than ${maxDepth} levels`;
    const children = Array.isArray(v) ? v : Object.values(v as Record<string, unknown>);
    for (const c of children) stack.push({ v: c, depth: depth + 1 });
  }
  return undefined;
}
