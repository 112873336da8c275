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
