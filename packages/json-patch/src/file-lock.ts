import * as lockfile from 'proper-lockfile';
import { JsonPatchError } from './errors';

/** Held lock: `assertHeld()` throws if the lock was lost (e.g. judged stale) before a write. */
export interface HeldLock {
  assertHeld(): void;
}

/** Default number of retries while another writer holds the lock (about 20 s in all). */
export const DEFAULT_LOCK_RETRIES = 200;

/**
 * Run `fn` while holding an inter-process lock on `file` (a `<file>.lock` directory made by
 * proper-lockfile). Waiters retry `retries` times (at most 100 ms apart), then fail with
 * LOCKED. A lock not refreshed for 10 s (its holder died) is taken over.
 */
export async function withFileLock<T>(file: string, fn: (lock: HeldLock) => Promise<T>, retries = DEFAULT_LOCK_RETRIES): Promise<T> {
  let compromised: Error | undefined;
  let release: () => Promise<void>;
  try {
    release = await lockfile.lock(file, {
      realpath: false,
      stale: 10_000,
      retries: { retries, factor: 1.2, minTimeout: 5, maxTimeout: 100 },
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
          `Expected to still hold the lock on ${file}, found it lost (${compromised.message}). ` + 'Nothing was written; try again.',
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
