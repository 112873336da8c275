import * as lockfile from 'proper-lockfile';
import { JsonPatchError } from './errors';

/** Held lock: `assertHeld()` throws if the lock was lost (e.g. judged stale) before a write. */
export interface HeldLock {
  assertHeld(): void;
}

/**
 * Run `fn` while holding an inter-process lock on `file` (a `<file>.lock` directory made by
 * proper-lockfile). Waiters retry for about ten seconds, then fail with LOCKED.
 */
export async function withFileLock<T>(file: string, fn: (lock: HeldLock) => Promise<T>): Promise<T> {
  let compromised: Error | undefined;
  let release: () => Promise<void>;
  try {
    release = await lockfile.lock(file, {
      realpath: false,
      stale: 10_000,
      retries: { retries: 200, factor: 1.2, minTimeout: 5, maxTimeout: 100 },
      onCompromised: (err) => {
        compromised = err;
      },
    });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ELOCKED') {
      throw new JsonPatchError(
        'LOCKED',
        `Expected to lock ${file} for writing, found it locked by another writer for too long. ` +
          `Try again in a moment; if no other SlothTool process is running, delete ${file}.lock.`,
        { file, cause: err },
      );
    }
    throw new JsonPatchError(
      'IO_ERROR',
      `Expected to lock ${file} for writing, but the system said: ${(err as Error).message}. ` +
        'Check that its folder exists and is writable.',
      { file, cause: err },
    );
  }
  const held: HeldLock = {
    assertHeld() {
      if (compromised) {
        throw new JsonPatchError(
          'LOCKED',
          `Expected to still hold the lock on ${file}, found it lost (${compromised.message}). ` +
            'Nothing was written; try again.',
          { file, cause: compromised },
        );
      }
    },
  };
  try {
    return await fn(held);
  } finally {
    await release().catch(() => undefined);
  }
}
