import type { WaitLimits } from './wait-limits';

/** What a request is waiting for right now. */
export type WaitPhase = 'connect' | 'first_token' | 'streaming';

/** Told when a request starts waiting for something new (ChatOptions.onWait). */
export interface WaitInfo {
  phase: WaitPhase;
  /** The model asked. */
  model: string;
  /** `host:port` of the server. */
  server: string;
  /** The limit of this phase in milliseconds (time-outs end the request after it). */
  limitMs: number;
}

/** Why a request was given up: the phase that took too long and its limit. */
export interface WaitTimeout {
  phase: WaitPhase;
  limitMs: number;
}

/**
 * The clock of one request: aborts it (through its own controller, linked to the caller's
 * signal) when the first piece of the answer or the next one is late. The connect limit is
 * enforced by the transport (http-fetch.ts); this watch is told when the connection is up.
 */
export class RequestWatch {
  private readonly controller = new AbortController();
  private timer?: NodeJS.Timeout;
  private phase: WaitPhase = 'connect';
  private unlink: () => void = () => undefined;
  /** Set when the watch aborted the request. */
  timedOut?: WaitTimeout;

  constructor(
    private readonly limits: WaitLimits,
    /** The model and the server this request went to. */
    readonly info: { model: string; server: string },
    private readonly onWait?: (info: WaitInfo) => void,
    parent?: AbortSignal,
  ) {
    if (parent) {
      const onAbort = () => this.controller.abort(parent.reason);
      if (parent.aborted) this.controller.abort(parent.reason);
      else parent.addEventListener('abort', onAbort, { once: true });
      this.unlink = () => parent.removeEventListener('abort', onAbort);
    }
    this.enter('connect', limits.connect, false);
  }

  /** The signal to give the request: aborted by the caller or by a time-out. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** A connection is up (a new one, or a kept-alive one reused). */
  connected(): void {
    if (this.phase === 'connect') this.enter('first_token', this.limits.firstToken, true);
  }

  /** A piece of the answer arrived. */
  received(): void {
    if (this.phase !== 'streaming') {
      this.enter('streaming', this.limits.idle, true);
      return;
    }
    this.arm(this.limits.idle);
  }

  /** The request is over: no timer, no link to the caller's signal. */
  done(): void {
    clearTimeout(this.timer);
    this.unlink();
  }

  private enter(phase: WaitPhase, limitMs: number, timed: boolean): void {
    this.phase = phase;
    if (timed) this.arm(limitMs);
    this.onWait?.({ phase, model: this.info.model, server: this.info.server, limitMs });
  }

  private arm(limitMs: number): void {
    clearTimeout(this.timer);
    const phase = this.phase;
    this.timer = setTimeout(() => {
      this.timedOut = { phase, limitMs };
      this.controller.abort();
    }, limitMs);
    this.timer.unref?.();
  }
}
