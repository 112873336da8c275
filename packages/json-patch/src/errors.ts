import { text } from './i18n';

/** Every failure of this package has one of these codes. */
export type JsonPatchErrorCode =
  /** `ops` is not an array, or an element is not an object. */
  | 'INVALID_PATCH'
  /** An operation is malformed: unknown `op`, a missing or mistyped member. */
  | 'INVALID_OP'
  /** A JSON Pointer is malformed (does not start with `/`, bad `~` escape). */
  | 'INVALID_POINTER'
  /** A value is not plain JSON (undefined, a function, NaN, a class instance...). */
  | 'INVALID_VALUE'
  /** The pointer names something that does not exist. */
  | 'PATH_NOT_FOUND'
  /** An array index is not a canonical number or is out of bounds. */
  | 'INVALID_INDEX'
  /** The pointer goes through something that is not an object or array. */
  | 'NOT_A_CONTAINER'
  /** A `test` operation found a different value. */
  | 'TEST_FAILED'
  /** A `move` would put a value inside itself. */
  | 'MOVE_INTO_ITSELF'
  /** An option of patchFile / rollbackFile is missing or malformed. */
  | 'INVALID_OPTIONS'
  /** The file is outside every allowed root (after resolving `~`, `..` and symlinks). */
  | 'PATH_NOT_ALLOWED'
  /** The file exists but is not valid JSON. */
  | 'INVALID_JSON'
  /** Another writer holds the file's lock and did not let go in time. */
  | 'LOCKED'
  /** There is no backup to roll back to. */
  | 'NO_BACKUP'
  /** Reading or writing the file failed (permissions, disk full...). */
  | 'IO_ERROR';

/** Options of {@link JsonPatchError}. */
export interface JsonPatchErrorOptions {
  /** Index of the failing operation in the patch, for errors caused by one operation. */
  index?: number;
  /** JSON Pointer of the failing operation (its `path`, or `from` when that is what failed). */
  path?: string;
  /** The file concerned, for file-level errors. */
  file?: string;
  /** The underlying error, if any. */
  cause?: unknown;
}

const MARKER = Symbol.for('@holic512/json-patch/error');

/** The one error class of this package: a `code`, and where it happened. */
export class JsonPatchError extends Error {
  readonly code: JsonPatchErrorCode;
  /** Index of the failing operation (0-based), when an operation failed. */
  readonly index?: number;
  /** JSON Pointer of the failing operation, when an operation failed. */
  readonly path?: string;
  /** The file concerned, for file-level errors. */
  readonly file?: string;
  private readonly [MARKER] = true;

  constructor(code: JsonPatchErrorCode, message: string, options: JsonPatchErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'JsonPatchError';
    this.code = code;
    if (options.index !== undefined) this.index = options.index;
    if (options.path !== undefined) this.path = options.path;
    if (options.file !== undefined) this.file = options.file;
  }

  /** True for a JsonPatchError, even one from another copy of this package. */
  static isInstance(value: unknown): value is JsonPatchError {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[MARKER] === true;
  }
}

/** What each error code means, for a person (exported for the completeness test). */
export const WHAT: Record<JsonPatchErrorCode, { en: string; zh: string }> = {
  INVALID_PATCH: { en: 'the patch is not a list of operations', zh: '补丁不是操作列表' },
  INVALID_OP: { en: 'an operation is malformed', zh: '有一项操作格式不对' },
  INVALID_POINTER: { en: 'a JSON Pointer is malformed', zh: 'JSON Pointer 路径格式不对' },
  INVALID_VALUE: { en: 'a value is not plain JSON', zh: '有一个值不是合法的 JSON' },
  PATH_NOT_FOUND: { en: 'the path does not exist', zh: '路径不存在' },
  INVALID_INDEX: { en: 'an array index is invalid or out of range', zh: '数组下标无效或越界' },
  NOT_A_CONTAINER: { en: 'the path goes through a value that is not an object or array', zh: '路径经过的值不是对象或数组' },
  TEST_FAILED: { en: 'a test operation found a different value', zh: 'test 操作发现值不一致' },
  MOVE_INTO_ITSELF: { en: 'a move would put a value inside itself', zh: 'move 会把值移进它自身' },
  INVALID_OPTIONS: { en: 'the options are invalid', zh: '选项无效' },
  PATH_NOT_ALLOWED: { en: 'the file is outside the files that may be edited', zh: '该文件不在允许修改的范围内' },
  INVALID_JSON: { en: 'the file is not valid JSON and was left untouched', zh: '文件不是合法的 JSON，未做任何修改' },
  LOCKED: { en: 'another program is writing the file', zh: '另一个程序正在写这个文件' },
  NO_BACKUP: { en: 'there is no backup to restore', zh: '没有可恢复的备份' },
  IO_ERROR: { en: 'the file could not be read or written', zh: '无法读写该文件' },
};

/**
 * One line for a person, in their language: what went wrong (by `code`), where (operation
 * number, path, file), then the detailed message. Non-JsonPatchErrors give their message.
 */
export function describeError(err: unknown, lang: 'zh' | 'en' = 'en'): string {
  if (!JsonPatchError.isInstance(err)) return err instanceof Error ? err.message : String(err);
  const what = WHAT[err.code]?.[lang] ?? err.code;
  const where: string[] = [];
  if (err.index !== undefined) where.push(text('operation', lang, { n: err.index + 1 }));
  if (err.path !== undefined) where.push(err.path === '' ? text('wholeDocument', lang) : err.path);
  if (err.file !== undefined) where.push(err.file);
  const head = where.length
    ? text('notAppliedAt', lang, { what, where: where.join(text('listSeparator', lang)) })
    : text('notApplied', lang, { what });
  return `${head}\n${err.message}`;
}
