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
