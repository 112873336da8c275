import * as fs from 'fs';
import * as path from 'path';
import { aiError } from './errors';
import type { ChatMessage } from './context';
import type { Registry, RegistryEntry } from './registry';

export const LLM_BASE_NAME = '@holic512/plugin-llm-base';
export const LLM_BASE_ALIAS = 'llm-base';

/** Token usage of one call, as llm-base reports it. */
export interface Usage {
  input_tokens: number;
  output_tokens: number;
  /** Input tokens served from the provider's prompt cache (this repo's llm-base, when the provider says). */
  cached_tokens?: number;
}

/** The outcome of one model call. Never thrown. `notFound` marks an HTTP 404. */
export type LlmResult =
  | { ok: true; data: unknown; usage: Usage; model?: string; callId?: string }
  | { ok: false; code: string; message: string; notFound: boolean };

/** What a model call is waiting for, as llm-base reports it (FEATURES.wait_events). */
export interface LlmWait {
  phase: 'connect' | 'first_token' | 'streaming';
  model: string;
  /** `host:port` of the model server. */
  server: string;
  /** How long this phase may take before llm-base gives the call up. */
  limitMs: number;
}

export interface LlmCallOptions {
  mode: 'low' | 'high';
  profile: string | null;
  signal?: AbortSignal;
  /** Raw text deltas of the reply, when the llm-base streams. */
  onText?: (delta: string) => void;
  /** What the call waits for, when the llm-base tells (not llm-base 1.0.x). */
  onWait?: (wait: LlmWait) => void;
}

/** The model as the agent sees it: one chat call with strict-JSON output. */
export interface LlmClient {
  /** What the loaded llm-base offers (streaming, abort, options argument, wait reports). */
  readonly features: { options: boolean; streaming: boolean; waitEvents?: boolean };
  chat(messages: ChatMessage[], options: LlmCallOptions): Promise<LlmResult>;
}

type LlmChatFn = (messages: ChatMessage[], mode?: string, profile?: string | null, options?: unknown) => unknown;

/** The registry entry of llm-base: alias `llm-base`, else the entry named `@holic512/plugin-llm-base`. */
export function findLlmBaseEntry(registry: Registry): RegistryEntry | undefined {
  const byAlias = registry.plugins[LLM_BASE_ALIAS];
  if (byAlias) return byAlias;
  return Object.values(registry.plugins).find((entry) => entry.name === LLM_BASE_NAME);
}

/** From a bin file up to the folder whose package.json owns it. */
export function packageRootOf(binPath: string, expectedName?: string): string | undefined {
  let dir = path.dirname(path.resolve(binPath));
  let firstFound: string | undefined;
  for (;;) {
    const file = path.join(dir, 'package.json');
    if (fs.existsSync(file)) {
      firstFound ??= dir;
      if (!expectedName) return dir;
      try {
        const pkg: unknown = JSON.parse(fs.readFileSync(file, 'utf8'));
        if (pkg && typeof pkg === 'object' && (pkg as { name?: unknown }).name === expectedName) return dir;
      } catch {
        // a broken package.json on the way up is not ours; keep walking
      }
    }
    const parent = path.dirname(dir);
    if (parent === dir) return firstFound;
    dir = parent;
  }
}

function mainOf(root: string): string {
  try {
    const pkg: unknown = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
    const main = pkg && typeof pkg === 'object' ? (pkg as { main?: unknown }).main : undefined;
    if (typeof main === 'string' && main) return path.resolve(root, main);
  } catch {
    // no usable main: the documented fallback below
  }
  return path.join(root, 'lib', 'index.js');
}

/**
 * Load llm-base through the registry (DESIGN §3). Throws an AiError with the command that
 * fixes it when it is not installed, its binPath is stale, or the module is broken.
 */
export function loadLlmBase(registry: Registry): { client: LlmClient; root: string; module: Record<string, unknown> } {
  const entry = findLlmBaseEntry(registry);
  if (!entry) throw aiError('LLM_BASE_MISSING', 'llmBaseMissing');
  if (!fs.existsSync(entry.binPath)) throw aiError('LLM_BASE_STALE', 'llmBaseStale', { path: entry.binPath });
  const root = packageRootOf(entry.binPath, entry.name);
  if (!root) throw aiError('LLM_BASE_BROKEN', 'llmBaseBroken', { path: entry.binPath, detail: 'no package.json above the bin' });
  const main = mainOf(root);
  let mod: unknown;
  try {
    mod = require(main);
  } catch (err) {
    throw aiError('LLM_BASE_BROKEN', 'llmBaseBroken', { path: main, detail: (err as Error).message.split('\n')[0] });
  }
  return { client: createLlmClient(mod, main), root, module: mod as Record<string, unknown> };
}

/** Wrap a loaded llm-base module, detecting what it offers (1.0.x: only
 * `llm_chat(messages, mode, profile)`; ours: `FEATURES.chat_options` with streaming). */
export function createLlmClient(mod: unknown, where = 'llm-base'): LlmClient {
  const llmChat = mod && typeof mod === 'object' ? (mod as { llm_chat?: unknown }).llm_chat : undefined;
  if (typeof llmChat !== 'function') {
    throw aiError('LLM_BASE_BROKEN', 'llmBaseBroken', { path: where, detail: 'llm_chat is not a function' });
  }
  const raw = (mod as { FEATURES?: unknown }).FEATURES;
  const feat = raw && typeof raw === 'object' ? (raw as Record<string, unknown>) : {};
  const options = feat.chat_options === true;
  const features = { options, streaming: options && feat.streaming === true, waitEvents: options && feat.wait_events === true };
  const fn = llmChat as LlmChatFn;
  return {
    features,
    async chat(messages, opts) {
      if (opts.signal?.aborted) return aborted();
      try {
        const call = options
          ? fn(messages, opts.mode, opts.profile, {
              signal: opts.signal,
              ...(features.streaming && opts.onText ? { onText: opts.onText } : {}),
              ...(features.waitEvents && opts.onWait ? { onWait: checkedWait(opts.onWait) } : {}),
            })
          : fn(messages, opts.mode, opts.profile);
        const value = await raceAbort(Promise.resolve(call), opts.signal);
        if (value === ABORTED) return aborted();
        const result = normalizeResult(value);
        // llm-base reports an aborted call as NETWORK_ERROR; the agent needs to tell them apart.
        return !result.ok && opts.signal?.aborted ? aborted() : result;
      } catch (err) {
        if (opts.signal?.aborted) return aborted();
        return { ok: false, code: 'PROVIDER_ERROR', message: (err as Error)?.message ?? String(err), notFound: false };
      }
    },
  };
}

/** llm-base is another package: pass on only well-formed wait reports. */
function checkedWait(onWait: (wait: LlmWait) => void): (info: unknown) => void {
  return (info) => {
    if (!info || typeof info !== 'object') return;
    const { phase, model, server, limitMs } = info as Record<string, unknown>;
    if (phase !== 'connect' && phase !== 'first_token' && phase !== 'streaming') return;
    if (typeof model !== 'string' || typeof server !== 'string' || typeof limitMs !== 'number') return;
    onWait({ phase, model, server, limitMs });
  };
}

const ABORTED = Symbol('aborted');

function aborted(): LlmResult {
  return { ok: false, code: 'ABORTED', message: 'aborted', notFound: false };
}

/** For the 1.0.x module, which takes no signal: stop waiting when the signal fires. */
function raceAbort<T>(promise: Promise<T>, signal?: AbortSignal): Promise<T | typeof ABORTED> {
  if (!signal) return promise;
  return new Promise((resolve, reject) => {
    const onAbort = () => resolve(ABORTED);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(e);
      },
    );
  });
}

function num(v: unknown): number {
  return typeof v === 'number' && Number.isFinite(v) ? v : 0;
}

/** llm-base results are plain objects from another package: check them field by field. */
export function normalizeResult(value: unknown): LlmResult {
  if (!value || typeof value !== 'object') {
    return { ok: false, code: 'PROVIDER_ERROR', message: 'llm-base returned no result object', notFound: false };
  }
  const v = value as Record<string, unknown>;
  if (v.success === true) {
    const u = v.usage && typeof v.usage === 'object' ? (v.usage as Record<string, unknown>) : {};
    return {
      ok: true,
      data: v.data,
      usage: { input_tokens: num(u.input_tokens), output_tokens: num(u.output_tokens), ...(num(u.cached_tokens) ? { cached_tokens: num(u.cached_tokens) } : {}) },
      model: typeof v.model === 'string' ? v.model : undefined,
      callId: typeof v.call_id === 'string' ? v.call_id : undefined,
    };
  }
  const e = v.error && typeof v.error === 'object' ? (v.error as Record<string, unknown>) : {};
  const code = typeof e.code === 'string' ? e.code : 'PROVIDER_ERROR';
  const message = typeof e.message === 'string' ? e.message : 'unknown error';
  const status = num(e.status) || num(e.http_status) || num(e.statusCode);
  const notFound = status === 404 || /\b404\b/.test(message);
  return { ok: false, code, message, notFound };
}
