/**
 * A child signal for one request or one step: aborted when the parent is, and dropped after.
 * Libraries add an abort listener to the signal they are given and do not always remove it
 * (the openai SDK keeps one per request), so a turn of many calls would pile listeners onto
 * the turn's signal (MaxListenersExceededWarning, and memory held to the end of the turn).
 * Giving each call its own child keeps the turn's signal at one listener per running call.
 */
export interface ChildSignal {
  signal: AbortSignal;
  /** Detach from the parent; call when the request or step is over. */
  release(): void;
}

export function childSignal(parent: AbortSignal): ChildSignal {
  const controller = new AbortController();
  if (parent.aborted) {
    controller.abort(parent.reason);
    return { signal: controller.signal, release: () => undefined };
  }
  const onAbort = (): void => controller.abort(parent.reason);
  parent.addEventListener('abort', onAbort, { once: true });
  return { signal: controller.signal, release: () => parent.removeEventListener('abort', onAbort) };
}

/** Run `fn` with a child of `parent` (see childSignal), releasing it when `fn` settles. */
export async function withChildSignal<T>(parent: AbortSignal, fn: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const child = childSignal(parent);
  try {
    return await fn(child.signal);
  } finally {
    child.release();
  }
}
