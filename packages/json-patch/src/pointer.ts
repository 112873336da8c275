import { JsonPatchError } from './errors';

/** Split a JSON Pointer (RFC 6901) into unescaped reference tokens. `""` is the whole document. */
export function parsePointer(pointer: string): string[] {
  if (pointer === '') return [];
  if (pointer[0] !== '/') {
    throw new JsonPatchError(
      'INVALID_POINTER',
      `Expected a JSON Pointer starting with "/" (or "" for the whole document), found ${JSON.stringify(pointer)}. ` +
        'Write paths like "/profiles/local/api_key".',
      { path: pointer },
    );
  }
  return pointer
    .slice(1)
    .split('/')
    .map((token) => {
      if (/~(?![01])/.test(token)) {
        throw new JsonPatchError(
          'INVALID_POINTER',
          `Expected "~" to be escaped as "~0" (and "/" as "~1") in ${JSON.stringify(pointer)}, found a bare "~". ` +
            'Escape it and try again.',
          { path: pointer },
        );
      }
      return token.replace(/~1/g, '/').replace(/~0/g, '~');
    });
}

/** Build a JSON Pointer from unescaped tokens (the inverse of {@link parsePointer}). */
export function formatPointer(tokens: readonly (string | number)[]): string {
  return tokens.map((t) => '/' + String(t).replace(/~/g, '~0').replace(/\//g, '~1')).join('');
}
