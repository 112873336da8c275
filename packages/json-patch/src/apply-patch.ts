import { JsonPatchError, type JsonPatchErrorCode } from './errors';
import { cloneJson, findNonJson, hasOwn, jsonEqual, setOwn, type JsonValue } from './json-value';
import { maskValue, isSecretPath } from './mask';
import { parseOps, type PatchOp } from './ops';
import { formatPointer, parsePointer } from './pointer';

type Container = Record<string, unknown> | unknown[];
interface Box {
  root: unknown;
}
interface Ctx {
  index: number;
  op: PatchOp;
}

/**
 * Apply a patch and return the new document. `doc` is never changed, and the patch is
 * all-or-nothing: when any operation fails, a {@link JsonPatchError} carrying that
 * operation's `index` and `path` is thrown and no result exists.
 * The result shares no objects with `doc` or `ops`.
 */
export function applyPatch<T = JsonValue>(doc: unknown, ops: unknown): T {
  const bad = findNonJson(doc);
  if (bad !== null) {
    throw new JsonPatchError(
      'INVALID_VALUE',
      `Expected the document to be plain JSON, found a non-JSON value at ${JSON.stringify(bad || '(the document itself)')}. ` +
        'Pass a value produced by JSON.parse.',
    );
  }
  const patch = parseOps(ops);
  const box: Box = { root: cloneJson(doc) };
  patch.forEach((op, index) => applyOp(box, { index, op }));
  return box.root as T;
}

function applyOp(box: Box, ctx: Ctx): void {
  const { op } = ctx;
  const tokens = pointer(op.path, ctx);
  switch (op.op) {
    case 'add':
      return put(box, tokens, cloneJson(op.value), ctx, 'add');
    case 'remove':
      return remove(box, tokens, ctx);
    case 'replace':
      return put(box, tokens, cloneJson(op.value), ctx, 'replace');
    case 'move': {
      const from = pointer(op.from, ctx, op.from);
      const value = get(box.root, from, ctx, op.from);
      if (op.from === op.path) return;
      if (from.length < tokens.length && from.every((t, i) => t === tokens[i])) {
        throw fail(
          'MOVE_INTO_ITSELF',
          ctx,
          `Expected "path" of a move to lie outside "from", found ${JSON.stringify(op.path)} inside ${JSON.stringify(op.from)}. ` +
            'A value cannot be moved into itself; copy it instead.',
        );
      }
      remove(box, from, ctx, op.from);
      return put(box, tokens, value, ctx, 'add');
    }
    case 'copy': {
      const from = pointer(op.from, ctx, op.from);
      return put(box, tokens, cloneJson(get(box.root, from, ctx, op.from)), ctx, 'add');
    }
    case 'test': {
      const actual = get(box.root, tokens, ctx);
      if (!jsonEqual(actual, op.value)) {
        const secret = isSecretPath(tokens);
        throw fail(
          'TEST_FAILED',
          ctx,
          `Expected ${op.path || '(the document)'} to equal ${preview(op.value, secret)}, found ${preview(actual, secret)}` +
            `${secret ? ' (values hidden: secret)' : ''}. ` +
            'The document is not in the state the patch assumes; read it again and rebuild the patch.',
        );
      }
      return;
    }
    case 'set':
      return set(box, tokens, cloneJson(op.value), ctx);
    case 'unset':
      return unset(box, tokens, ctx);
  }
}

/**
 * "add" and "replace" (RFC 6902 §4.1, §4.3): the whole document, an array element (add inserts
 * before the index, or appends at `-`; replace overwrites one that exists) or an object member
 * (replace: only one that exists).
 */
function put(box: Box, tokens: string[], value: unknown, ctx: Ctx, how: 'add' | 'replace'): void {
  if (tokens.length === 0) {
    box.root = value;
    return;
  }
  const add = how === 'add';
  const { parent, key } = member(box, tokens, ctx);
  if (Array.isArray(parent)) {
    const i = add && key === '-' ? parent.length : arrayIndex(key, parent.length, add, ctx, tokens);
    parent.splice(i, add ? 0 : 1, value);
  } else if (add || hasOwn(parent, key)) {
    setOwn(parent, key, value);
  } else {
    throw notFound(ctx, tokens, tokens.length - 1, ctx.op.path);
  }
}

function remove(box: Box, tokens: string[], ctx: Ctx, at = ctx.op.path): void {
  if (tokens.length === 0) {
    throw fail(
      'INVALID_OP',
      ctx,
      `Expected "${ctx.op.op}" to name a member of the document, found "" (the whole document). ` +
        'Use "replace" with path "" to change the whole document.',
      at,
    );
  }
  const { parent, key } = member(box, tokens, ctx, at);
  if (Array.isArray(parent)) {
    parent.splice(arrayIndex(key, parent.length, false, ctx, tokens, at), 1);
  } else if (hasOwn(parent, key)) {
    delete parent[key];
  } else {
    throw notFound(ctx, tokens, tokens.length - 1, at);
  }
}

function set(box: Box, tokens: string[], value: unknown, ctx: Ctx): void {
  if (tokens.length === 0) {
    box.root = value;
    return;
  }
  let node: unknown = box.root;
  for (let depth = 0; depth < tokens.length - 1; depth++) {
    const parent = container(node, tokens.slice(0, depth + 1), ctx);
    const key = tokens[depth];
    if (Array.isArray(parent)) {
      node = parent[arrayIndex(key, parent.length, false, ctx, tokens.slice(0, depth + 1))];
    } else {
      if (!hasOwn(parent, key)) setOwn(parent, key, {});
      node = parent[key];
    }
  }
  const parent = container(node, tokens, ctx);
  const key = tokens[tokens.length - 1];
  if (Array.isArray(parent)) {
    const i = key === '-' ? parent.length : arrayIndex(key, parent.length, true, ctx, tokens);
    parent[i] = value;
  } else {
    setOwn(parent, key, value);
  }
}

function unset(box: Box, tokens: string[], ctx: Ctx): void {
  if (tokens.length === 0) {
    throw fail(
      'INVALID_OP',
      ctx,
      'Expected "unset" to name a member of the document, found "" (the whole document). ' +
        'Use "set" with path "" and value {} to empty the whole document.',
    );
  }
  let node: unknown = box.root;
  for (const key of tokens.slice(0, -1)) {
    node = childIfPresent(node, key);
    if (node === undefined) return;
  }
  const key = tokens[tokens.length - 1];
  if (Array.isArray(node)) {
    if (isCanonicalIndex(key) && Number(key) < node.length) node.splice(Number(key), 1);
  } else if (typeof node === 'object' && node !== null && hasOwn(node, key)) {
    delete (node as Record<string, unknown>)[key];
  }
}

function childIfPresent(node: unknown, key: string): unknown {
  if (Array.isArray(node)) return isCanonicalIndex(key) ? node[Number(key)] : undefined;
  if (typeof node === 'object' && node !== null && hasOwn(node, key)) return (node as Record<string, unknown>)[key];
  return undefined;
}

/** The value at `tokens`; every step must exist. */
/** The container the path's last token is a member of, and that token. */
function member(box: Box, tokens: string[], ctx: Ctx, at = ctx.op.path): { parent: Container; key: string } {
  return { parent: container(get(box.root, tokens.slice(0, -1), ctx, at), tokens, ctx, at), key: tokens[tokens.length - 1] };
}

function get(root: unknown, tokens: string[], ctx: Ctx, at = ctx.op.path): unknown {
  let node = root;
  tokens.forEach((key, depth) => {
    const parent = container(node, tokens.slice(0, depth + 1), ctx, at);
    if (Array.isArray(parent)) {
      node = parent[arrayIndex(key, parent.length, false, ctx, tokens.slice(0, depth + 1), at)];
    } else if (hasOwn(parent, key)) {
      node = parent[key];
    } else {
      throw notFound(ctx, tokens, depth, at);
    }
  });
  return node;
}

/** `node` as an object or array, or a NOT_A_CONTAINER error naming the step that hit it. */
function container(node: unknown, stepTokens: string[], ctx: Ctx, at = ctx.op.path): Container {
  if (typeof node === 'object' && node !== null) return node as Container;
  const parentPath = formatPointer(stepTokens.slice(0, -1)) || '(the document)';
  throw fail(
    'NOT_A_CONTAINER',
    ctx,
    `Expected ${parentPath} to be an object or array so that "${ctx.op.op}" can reach ${JSON.stringify(at)}, ` +
      `found ${preview(node, isSecretPath(stepTokens))}. Change the path, or replace ${parentPath} first.`,
    at,
  );
}

function isCanonicalIndex(key: string): boolean {
  return /^(0|[1-9][0-9]*)$/.test(key);
}

/**
 * Parse an array index into an array of `length` items. With `allowEnd` (the last step of
 * add/set) the index may equal the length, meaning "append".
 */
function arrayIndex(key: string, length: number, allowEnd: boolean, ctx: Ctx, stepTokens: string[], at = ctx.op.path): number {
  const arrayPath = formatPointer(stepTokens.slice(0, -1)) || '(the document)';
  if (!isCanonicalIndex(key)) {
    throw fail(
      'INVALID_INDEX',
      ctx,
      `Expected an array index under ${arrayPath} (0, 1, 2... without leading zeros${allowEnd ? ', or "-" for the end' : ''}), ` +
        `found ${JSON.stringify(key)}. Use a plain number.`,
      at,
    );
  }
  const i = Number(key);
  const max = allowEnd ? length : length - 1;
  if (i > max) {
    const found = length === 0 ? `index ${i} in an empty array` : `${i} (the array has ${length} item${length === 1 ? '' : 's'})`;
    throw fail(
      'INVALID_INDEX',
      ctx,
      `Expected ${max < 0 ? 'an existing element' : `an index from 0 to ${max}`} under ${arrayPath}, found ${found}. ` +
        (allowEnd ? 'Use an index inside the array or "-" to append.' : 'Use an index inside the array.'),
      at,
    );
  }
  return i;
}

function notFound(ctx: Ctx, tokens: string[], depth: number, at: string): JsonPatchError {
  const missing = formatPointer(tokens.slice(0, depth + 1));
  const hint =
    (ctx.op.op === 'add' || ctx.op.op === 'copy' || ctx.op.op === 'move') && missing !== ctx.op.path && at === ctx.op.path
      ? ` "${ctx.op.op}" does not create parents; add them first or use "set", which does.`
      : ' Check the path against the current document.';
  return fail(
    'PATH_NOT_FOUND',
    ctx,
    `Expected ${missing} to exist for "${ctx.op.op}" at ${JSON.stringify(at)}, found nothing there.${hint}`,
    at,
  );
}

function pointer(p: string, ctx: Ctx, at = ctx.op.path): string[] {
  try {
    return parsePointer(p);
  } catch (err) {
    if (JsonPatchError.isInstance(err)) throw fail(err.code, ctx, err.message, at);
    throw err;
  }
}

function fail(code: JsonPatchErrorCode, ctx: Ctx, message: string, at = ctx.op.path): JsonPatchError {
  return new JsonPatchError(code, `Operation ${ctx.index} ("${ctx.op.op}"): ${message}`, { index: ctx.index, path: at });
}

/** A short, masked rendering of a value for an error message. */
function preview(value: unknown, secret: boolean): string {
  if (value === undefined) return 'nothing';
  const text = JSON.stringify(maskValue(value, secret));
  return text.length > 80 ? text.slice(0, 77) + '...' : text;
}
