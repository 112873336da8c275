import { JsonPatchError } from './errors';
import { findNonJson, hasOwn, isPlainObject, type JsonValue } from './json-value';

/** RFC 6902 `add`: insert into an array or set an object member (parent must exist). */
export interface AddOp {
  op: 'add';
  path: string;
  value: JsonValue;
}
/** RFC 6902 `remove`: the target must exist. */
export interface RemoveOp {
  op: 'remove';
  path: string;
}
/** RFC 6902 `replace`: the target must exist. */
export interface ReplaceOp {
  op: 'replace';
  path: string;
  value: JsonValue;
}
/** RFC 6902 `move`: remove at `from`, add at `path`. */
export interface MoveOp {
  op: 'move';
  from: string;
  path: string;
}
/** RFC 6902 `copy`: add a copy of the value at `from` at `path`. */
export interface CopyOp {
  op: 'copy';
  from: string;
  path: string;
}
/** RFC 6902 `test`: fail the whole patch unless the target equals `value`. */
export interface TestOp {
  op: 'test';
  path: string;
  value: JsonValue;
}
/** Extension: set the target, creating missing parent objects on the way. */
export interface SetOp {
  op: 'set';
  path: string;
  value: JsonValue;
}
/** Extension: remove the target if it is there; no error when it is absent. */
export interface UnsetOp {
  op: 'unset';
  path: string;
}

/** One patch operation: the six of RFC 6902 plus `set` and `unset`. */
export type PatchOp = AddOp | RemoveOp | ReplaceOp | MoveOp | CopyOp | TestOp | SetOp | UnsetOp;

/** Every accepted value of `op`. */
export const PATCH_OP_NAMES = ['add', 'remove', 'replace', 'move', 'copy', 'test', 'set', 'unset'] as const;

const NEEDS_VALUE = new Set(['add', 'replace', 'test', 'set']);
const NEEDS_FROM = new Set(['move', 'copy']);

/**
 * Check untrusted operations (they usually come from a model) and return them typed.
 * Members an operation does not use are ignored, as RFC 6902 asks.
 */
export function parseOps(ops: unknown): PatchOp[] {
  if (!Array.isArray(ops)) {
    throw new JsonPatchError(
      'INVALID_PATCH',
      `Expected the patch to be an array of operations, found ${describe(ops)}. ` +
        'Send e.g. [{"op": "replace", "path": "/language", "value": "en"}].',
    );
  }
  return ops.map((raw, index) => parseOp(raw, index));
}

function parseOp(raw: unknown, index: number): PatchOp {
  if (!isPlainObject(raw)) {
    throw new JsonPatchError(
      'INVALID_PATCH',
      `Expected operation ${index} to be an object like {"op": "add", "path": "/a", "value": 1}, found ${describe(raw)}.`,
      { index },
    );
  }
  const op = raw.op;
  const path = typeof raw.path === 'string' ? raw.path : undefined;
  if (typeof op !== 'string' || !(PATCH_OP_NAMES as readonly string[]).includes(op)) {
    throw new JsonPatchError(
      'INVALID_OP',
      `Expected "op" of operation ${index} to be one of ${PATCH_OP_NAMES.join(', ')}, found ${describe(op)}. ` +
        'Use one of those operations.',
      { index, path },
    );
  }
  if (path === undefined) {
    throw new JsonPatchError(
      'INVALID_OP',
      `Expected operation ${index} ("${op}") to have a string "path" (a JSON Pointer like "/a/b"), found ${describe(raw.path)}. ` +
        'Add the path of the value to change.',
      { index },
    );
  }
  if (NEEDS_VALUE.has(op)) {
    if (!hasOwn(raw, 'value') || raw.value === undefined) {
      throw new JsonPatchError(
        'INVALID_OP',
        `Expected operation ${index} ("${op}" at ${JSON.stringify(path)}) to have a "value" member, found none. ` +
          'Add "value" (use null for an explicit null).',
        { index, path },
      );
    }
    const bad = findNonJson(raw.value);
    if (bad !== null) {
      throw new JsonPatchError(
        'INVALID_VALUE',
        `Expected the "value" of operation ${index} to be plain JSON, found a non-JSON value at ${JSON.stringify(bad || '(the value itself)')}. ` +
          'Use only objects, arrays, strings, finite numbers, booleans and null.',
        { index, path },
      );
    }
    return { op, path, value: raw.value } as PatchOp;
  }
  if (NEEDS_FROM.has(op)) {
    if (typeof raw.from !== 'string') {
      throw new JsonPatchError(
        'INVALID_OP',
        `Expected operation ${index} ("${op}" to ${JSON.stringify(path)}) to have a string "from" (a JSON Pointer), found ${describe(raw.from)}. ` +
          'Add "from" with the path of the value to ' +
          op +
          '.',
        { index, path },
      );
    }
    return { op, from: raw.from, path } as PatchOp;
  }
  return { op, path } as PatchOp;
}

function describe(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  const text = JSON.stringify(value) ?? String(value);
  return `${typeof value} ${text.length > 60 ? text.slice(0, 57) + '...' : text}`;
}
