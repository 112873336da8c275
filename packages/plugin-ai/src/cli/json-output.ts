import { redactedJson } from '@holic512/shared';
import type { AgentEvent } from '../agent/events';
import type { Decision, Verdict } from '../agent/runner-types';
import { renderVerdict } from '../agent/render-verdict';
import type { Lang } from '../i18n';

/** Default bytes of a step's output stream carried at the head and at the tail by `--json`. */
export const JSON_OUTPUT_BYTES = 64 * 1024;

interface StreamState {
  /** Bytes of this stream so far. */
  bytes: number;
  /** Bytes already sent as head. */
  head: number;
  /** The head is full: the rest goes to the tail. */
  headDone: boolean;
  /** The latest chunks past the head, at most `limit` bytes kept (the front one may be cut). */
  tail: Array<{ text: string; bytes: number }>;
  tailBytes: number;
}

/** The longest prefix of `text` within `bytes` UTF-8 bytes (never a broken character). */
function headWithin(text: string, bytes: number): string {
  if (Buffer.byteLength(text) <= bytes) return text;
  let cut = Math.min(text.length, bytes);
  while (cut > 0 && Buffer.byteLength(text.slice(0, cut)) > bytes) cut = Math.floor(cut * 0.9);
  return text.slice(0, cut);
}

/** The longest suffix of `text` within `bytes` UTF-8 bytes. */
function tailWithin(text: string, bytes: number): string {
  if (Buffer.byteLength(text) <= bytes) return text;
  let cut = Math.min(text.length, bytes);
  while (cut > 0 && Buffer.byteLength(text.slice(text.length - cut)) > bytes) cut = Math.floor(cut * 0.9);
  return text.slice(text.length - cut);
}

/**
 * The JSON-lines event stream of `ai -p --json`, bounded: of each step's stdout and stderr only
 * the first `limit` bytes go out as they come, and the last `limit` bytes as one more `output`
 * event `{truncated: true, bytes, omittedBytes}` when the step ends. Lines are written in order
 * and respect the stream's back-pressure: while it is full they wait in a queue that the caps
 * keep small, and flush() resolves when everything has been handed over.
 */
export class JsonEventWriter {
  private readonly streams = new Map<string, StreamState>();
  private readonly queue: string[] = [];
  private waiting = false;
  private idle: Array<() => void> = [];

  constructor(
    private readonly out: NodeJS.WritableStream,
    /** Bytes kept at the head and at the tail of each output stream (config `jsonOutputBytes`). */
    public limit: number = JSON_OUTPUT_BYTES,
    /** The user's language: the reasons and hints of a step's decision are worded in it. */
    private readonly lang: Lang = 'zh',
  ) {}

  /** One agent event (text deltas and wait reports, both progress, are not part of the JSON stream). */
  event(event: AgentEvent): void {
    if (event.type === 'text' || event.type === 'message_delta' || event.type === 'wait') return;
    if (event.type === 'output') return this.output(event);
    if (event.type === 'tool_result') this.endStep(event.result.id);
    if (event.type === 'final') for (const id of new Set([...this.streams.keys()].map((k) => k.split('\u0000')[0]))) this.endStep(id);
    if (event.type === 'step') {
      const { verdict, ...rest } = event;
      return this.line({ ...rest, decision: this.decision(verdict) });
    }
    if (event.type === 'confirm') {
      const { verdict, ...request } = event.request;
      return this.line({ type: 'confirm', request: { ...request, decision: this.decision(verdict) } });
    }
    this.line(event);
  }

  /**
   * The edge of `--json`: a verdict worded in the user's language (`reason`, `hint`) beside what a
   * script reads without parsing prose: the level, each rule's `id` and `level`, and
   * `adjustments` (what a setting, a permission rule, the mode or a session allowance changed).
   */
  private decision(verdict: Verdict): Decision & { adjustments: Verdict['adjustments'] } {
    return { ...renderVerdict(verdict, this.lang), adjustments: verdict.adjustments };
  }

  /** Write one JSON line; every string of it (keys too) passes the redaction gate. */
  line(value: unknown): void {
    this.queue.push(redactedJson(value) + '\n');
    this.pump();
  }

  /** Resolves when every line was handed to the stream (after its 'drain' when it was full). */
  flush(): Promise<void> {
    if (!this.queue.length && !this.waiting) return Promise.resolve();
    return new Promise((resolve) => this.idle.push(resolve));
  }

  private pump(): void {
    while (!this.waiting && this.queue.length) {
      const ok = this.out.write(this.queue.shift()!);
      if (!ok) {
        this.waiting = true;
        this.out.once('drain', () => {
          this.waiting = false;
          this.pump();
        });
      }
    }
    if (!this.waiting && !this.queue.length) for (const resolve of this.idle.splice(0)) resolve();
  }

  private output(event: Extract<AgentEvent, { type: 'output' }>): void {
    const key = `${event.id}\u0000${event.stream}`;
    let s = this.streams.get(key);
    if (!s) this.streams.set(key, (s = { bytes: 0, head: 0, headDone: false, tail: [], tailBytes: 0 }));
    let chunk = event.chunk;
    const size = Buffer.byteLength(chunk);
    s.bytes += size + (event.skipped ?? 0);
    // After a gap the head is complete, and the tail starts again: neither is contiguous with it.
    if (event.skipped) {
      s.headDone = true;
      s.tail = [];
      s.tailBytes = 0;
    }
    if (!s.headDone) {
      const head = headWithin(chunk, this.limit - s.head);
      const headBytes = head.length === chunk.length ? size : Buffer.byteLength(head);
      s.head += headBytes;
      if (head) this.line({ type: 'output', id: event.id, chunk: head, stream: event.stream });
      if (head.length === chunk.length) return;
      chunk = chunk.slice(head.length);
      s.headDone = true;
    }
    const bytes = Buffer.byteLength(chunk);
    s.tail.push({ text: chunk, bytes });
    s.tailBytes += bytes;
    while (s.tail.length > 1 && s.tailBytes - s.tail[0].bytes >= this.limit) s.tailBytes -= s.tail.shift()!.bytes;
  }

  private endStep(id: string): void {
    for (const stream of ['stdout', 'stderr'] as const) {
      const key = `${id}\u0000${stream}`;
      const s = this.streams.get(key);
      if (!s) continue;
      this.streams.delete(key);
      if (!s.tail.length) continue;
      const tail = tailWithin(s.tail.map((c) => c.text).join(''), this.limit);
      const omittedBytes = s.bytes - s.head - Buffer.byteLength(tail);
      this.line({
        type: 'output',
        id,
        chunk: tail,
        stream,
        ...(omittedBytes > 0 ? { truncated: true, bytes: s.bytes, omittedBytes } : {}),
      });
    }
  }
}
