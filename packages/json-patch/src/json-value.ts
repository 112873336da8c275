/** A plain JSON value. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** Own-property lookup: inherited members such as `constructor` never count as present. */
export function hasOwn(obj: object, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(obj, key);
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** Set a key without ever touching a prototype (a key named `__proto__` is just a key). */
export function setOwn(obj: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(obj, key, { value, writable: true, enumerable: true, configurable: true });
}

/** Where `value` stops being plain JSON, as a JSON Pointer, or null when it is plain JSON. */
export function findNonJson(value: unknown, at = '', seen: Set<object> = new Set()): string | null {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return null;
    case 'number':
      return Number.isFinite(value) ? null : at;
    case 'object': {
      if (value === null) return null;
      if (seen.has(value)) return at;
      seen.add(value);
      try {
        if (Array.isArray(value)) {
          for (let i = 0; i < value.length; i++) {
            if (!(i in value)) return `${at}/${i}`;
            const bad = findNonJson(value[i], `${at}/${i}`, seen);
            if (bad !== null) return bad;
          }
          return null;
        }
        if (!isPlainObject(value)) return at;
        for (const key of Object.keys(value)) {
          const bad = findNonJson(value[key], `${at}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`, seen);
          if (bad !== null) return bad;
        }
        return null;
      } finally {
        seen.delete(value);
      }
    }
    default:
      return at;
  }
}

/** Deep copy of a JSON value, with `__proto__` keys kept as plain keys. */
export function cloneJson<T>(value: T): T {
  if (Array.isArray(value)) return value.map((v) => cloneJson(v)) as T;
  if (typeof value === 'object' && value !== null) {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value)) setOwn(out, key, cloneJson((value as Record<string, unknown>)[key]));
    return out as T;
  }
  return value;
}

/** JSON equality: no type coercion, object key order ignored. */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((v, i) => jsonEqual(v, b[i]));
  }
  const ak = Object.keys(a);
  const bo = b as Record<string, unknown>;
  if (ak.length !== Object.keys(bo).length) return false;
  return ak.every((k) => hasOwn(bo, k) && jsonEqual((a as Record<string, unknown>)[k], bo[k]));
}
