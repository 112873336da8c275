/** A child's output stream as exec captures it: into a BoundedCapture, decoded for display, and
 * past a size read by a worker thread (capture-offload.ts). */
import { BoundedCapture, cutEndUtf8, cutStartUtf8 } from './capture';
import { OFFLOAD_AFTER_BYTES, OFFLOAD_START_BYTES, startOffloadWorker, type OffloadWorker } from './capture-offload';
import { OutputDecoder } from './decode';

/** How a captured stream is stopped early (a destroy, or a stop of its worker). */
export interface OutputReader {
  destroy(): void;
}

/**
 * Capture a child's output stream, and hand its text to `cb` (UTF-8 decoded across chunks) for
 * display. Past OFFLOAD_START_BYTES a worker starts, and past OFFLOAD_AFTER_BYTES, once it runs,
 * the reading moves to it (capture-offload.ts); the display then gets the newest output every
 * 100 ms and, at the end, its last bytes.
 */
export function wireOutput(
  stream: NodeJS.ReadableStream | null,
  cap: BoundedCapture,
  cb?: (s: string, skippedBytes?: number) => void,
): OutputReader {
  if (!stream) return { destroy: () => undefined };
  const decoder = cb ? new OutputDecoder() : undefined;
  const show = (chunk: Buffer): void => {
    if (!cb || !decoder) return;
    const text = decoder.write(chunk);
    try {
      if (text) cb(text);
    } catch {
      // A failing display callback must not take the process down or stop the capture.
    }
  };
  let worker: OffloadWorker | undefined;
  let tried = process.platform === 'win32';
  // Samples start and end anywhere: each is decoded on its own, between character boundaries,
  // and says how many bytes before it were not shown (offsets count what the worker read).
  let shownUpTo = 0;
  // The incomplete character the event loop's decoder held back when the worker took over.
  let heldBack = 0;
  // Paused once, until the starting worker runs (or is gone).
  let held = false;
  const sample = (bytes: Buffer, end: number): void => {
    const from = cutStartUtf8(bytes);
    const whole = cutEndUtf8(from);
    const start = end - from.length;
    const text = new OutputDecoder().write(whole);
    if (!text) return;
    cb?.(text, Math.max(0, start - shownUpTo) + heldBack);
    heldBack = 0;
    shownUpTo = start + whole.length;
  };
  const onData = (chunk: Buffer): void => {
    cap.push(chunk);
    show(chunk);
    if (!tried && cap.total >= OFFLOAD_START_BYTES) {
      tried = true;
      worker = startOffloadWorker(cap, cb ? sample : undefined);
    }
    if (!worker || cap.total < OFFLOAD_AFTER_BYTES) return;
    if (worker.ready) {
      if (worker.handOver(stream)) {
        stream.removeListener('data', onData);
        heldBack = decoder?.pendingBytes ?? 0;
      }
    } else if (!held) {
      // The worker is still starting (a first step): wait for it rather than read on. Every
      // chunk read here is a new buffer that stays in memory until a collection, and V8
      // collects for outside memory only late: reading on while a worker starts raises the
      // peak memory (bench "Output capture", runner.run() of 1 GiB).
      held = worker.hold(stream) || true;
    }
  };
  // Ended before the hand-over: the worker is not needed.
  const unneeded = (): void => {
    if (!worker?.handedOver) worker?.stop();
  };
  stream.on('end', unneeded);
  stream.on('close', unneeded);
  stream.on('data', onData);
  stream.on('error', () => undefined);
  return {
    destroy: () => {
      if (worker?.handedOver) return worker.stop();
      worker?.stop();
      (stream as unknown as { destroy?: () => void }).destroy?.();
    },
  };
}
