/** Every failure the host can explain to a user. The CLI turns `code` + `params` into a message. */
export type SlothToolErrorCode =
  | 'REGISTRY_CORRUPT'
  | 'SETTINGS_CORRUPT'
  | 'NOT_INSTALLED'
  | 'ALREADY_INSTALLED'
  | 'SPEC_NOT_FOUND'
  | 'NPM_FAILED'
  | 'NPM_NOT_FOUND'
  | 'PACKAGE_UNREADABLE'
  | 'NO_BIN'
  | 'PACKAGE_BIN_MISSING'
  | 'NAME_MISMATCH'
  | 'BIN_MISSING'
  | 'INVALID_ALIAS'
  | 'NOT_MANAGED'
  | 'SPAWN_FAILED'
  | 'INTERRUPTED';

/** A typed error with a stable `code` and the values its message needs. */
export class SlothToolError extends Error {
  readonly code: SlothToolErrorCode;
  readonly params: Record<string, string>;

  constructor(code: SlothToolErrorCode, params: Record<string, string> = {}, options?: { cause?: unknown }) {
    super(
      `${code}: ${Object.entries(params)
        .map(([k, v]) => `${k}=${v}`)
        .join(', ')}`,
      options,
    );
    this.name = 'SlothToolError';
    this.code = code;
    this.params = params;
  }

  /** True for a SlothToolError, also one created by another copy of this module. */
  static isInstance(err: unknown): err is SlothToolError {
    return err instanceof Error && err.name === 'SlothToolError' && typeof (err as SlothToolError).code === 'string';
  }
}
