/** Whether an error is a closed pipe on the other end (`slothtool list | head -1`). */
export function isEpipe(err: unknown): boolean {
  return !!err && typeof err === 'object' && (err as { code?: unknown }).code === 'EPIPE';
}

const watched = new WeakSet<NodeJS.WritableStream>();

/**
 * For CLI entry files: when the reader of `stream` goes away (EPIPE), call `onClosed` (the CLI
 * exits with status 0, quietly) instead of crashing with a stack trace. Other errors are thrown
 * again. Installed once per stream.
 */
export function onClosedPipe(stream: NodeJS.WritableStream, onClosed: () => void): void {
  if (watched.has(stream)) return;
  watched.add(stream);
  stream.on('error', (err: unknown) => {
    if (isEpipe(err)) onClosed();
    else throw err;
  });
}
