/** The value when it is a JSON object (not null, not an array), else undefined. */
export function asObject(value: unknown): Record<string, unknown> | undefined {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

/** `text` parsed as JSON when it is an object; undefined when it is not JSON or not an object. */
export function parseJsonObject(text: string): Record<string, unknown> | undefined {
  try {
    return asObject(JSON.parse(text));
  } catch {
    return undefined;
  }
}

/** A plain object as JSON.parse makes them (its prototype is Object.prototype). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype;
}

/**
 * Copy the keys of `from` that are not `known` to `to`, in their order (what zod's loose objects
 * keep); false at a `__proto__` key, which an assignment would take as the prototype.
 */
export function copyOtherKeys(from: Record<string, unknown>, to: Record<string, unknown>, known: ReadonlySet<string>): boolean {
  for (const key of Object.keys(from)) {
    if (key === '__proto__') return false;
    if (!known.has(key)) to[key] = from[key];
  }
  return true;
}
