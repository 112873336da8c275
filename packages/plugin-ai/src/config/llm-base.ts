import fs = require('fs');
import path = require('path');
import { aiError } from '../errors';
import type { ChatMessage } from '../context/context';
import type { Registry, RegistryEntry } from './registry';
import type { TokenUsage as Usage } from '@holic512/shared/lib/llm-base-contract';
import { modelService } from './model-service';
import { loadLlmBaseBundle, requireLlmBaseMain, sharedModules, sharedZod } from './lazy-llm-base';

export const LLM_BASE_NAME = '@holic512/plugin-llm-base';
export const LLM_BASE_ALIAS = 'llm-base';

/** Token usage of one call, as llm-base reports it (cached tokens and cost: only this repo's llm-base). */
export type { Usage };

/** The outcome of one model call. Never thrown. `notFound` marks an HTTP 404. */
export type LlmResult =
  | {
      ok: true;
      data: unknown;
      usage: Usage;
      model?: string;
      callId?: string;
      fallback?: { from: string; to: string; reason: string };
      /** With `tools`: the answer's text and its tool calls (arguments as the model's JSON text). */
      text?: string;
      toolCalls?: LlmToolCall[];
    }
  | { ok: false; code: string; message: string; notFound: boolean };

/** One native tool call of an answer (FEATURES.tools). */
export interface LlmToolCall {
  id: string;
  name: string;
  arguments: string;
}

/** How structured turns travel for a profile (llm-base `transport_for`, FEATURES.tools). */
export type TransportKind = 'tools' | 'json_schema' | 'json';

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
  /** Tokens the request may take plus room for the answer (an Ollama profile's num_ctx, FEATURES.ollama). */
  minContext?: number;
  /** OpenAI tool definitions: native tool calls (FEATURES.tools). */
  tools?: unknown[];
  /** A JSON Schema the answer must follow (FEATURES.tools). */
  jsonSchema?: { name: string; schema: Record<string, unknown>; strict?: boolean };
  /** One key per conversation for the provider's prompt cache (llm-base sends it only where a provider takes it). */
  cacheKey?: string;
}

/** A local model server's own state (llm-base FEATURES.ollama): is it running, the model pulled, loaded. */
export type ModelState = 'not_running' | 'not_pulled' | 'cold' | 'loading' | 'ready';

/** What llm-base can do for a profile served by Ollama (FEATURES.ollama); absent for other llm-bases. */
export interface ModelService {
  isLocalService(profile: string | null): boolean;
  health(profile: string | null, mode: 'low' | 'high'): Promise<{ state: ModelState; model: string; message: string } | undefined>;
  /** Load the model now (resolves when loaded); false when it could not be. */
  warmUp(profile: string | null, mode: 'low' | 'high', minContext: number): Promise<boolean>;
  /** Download a model, reporting progress lines; the error message when it failed. */
  pull(model: string, profile: string | null, onProgress: (line: string) => void, signal?: AbortSignal): Promise<string | undefined>;
}

/** The model as the agent sees it: one chat call with strict-JSON output. */
export interface LlmClient {
  /** What the loaded llm-base offers (streaming, abort, options argument, wait reports). */
  readonly features: { options: boolean; streaming: boolean; waitEvents?: boolean; tools?: boolean; images?: boolean };
  chat(messages: ChatMessage[], options: LlmCallOptions): Promise<LlmResult>;
  /** Present when llm-base manages a local model server (Ollama). */
  readonly service?: ModelService;
  /** The transport of a profile's calls (FEATURES.tools); absent: the JSON protocol. */
  transport?(profile: string | null): TransportKind;
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

/** Set by the CLI when it runs from its own bundle (bin/ai.js): load llm-base's bundle too. */
let bundles = false;

/** Load llm-base from the bundle its package.json names (`"slothtool": {"bundle": …}`), when it
 * has one, with V8's code cache (shared/code-cache). Only for a process a bin started: a bundle
 * runs in node's main context, never inside a test runner's. */
export function preferBundles(): void {
  bundles = true;
}

/** What to load: package.json's `main` (else lib/index.js), and its `bundle` when preferred and
 * present, with the modules this process can hand it (`provide`). */
function mainOf(root: string): { main: string; bundle?: string; provide?: Record<string, unknown> } {
  let main = path.join(root, 'lib', 'index.js');
  try {
    const pkg: unknown = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
    const fields = (pkg && typeof pkg === 'object' ? pkg : {}) as {
      main?: unknown;
      slothtool?: { bundle?: unknown };
      dependencies?: Record<string, unknown>;
    };
    if (typeof fields.main === 'string' && fields.main) main = path.resolve(root, fields.main);
    const bundle = fields.slothtool?.bundle;
    if (bundles && typeof bundle === 'string' && bundle) {
      const file = path.resolve(root, bundle);
      if (fs.existsSync(file)) {
        // Not spread: that would call the getters (load every module now).
        const provide = Object.assign(sharedModules(fields.dependencies?.['@holic512/shared']), sharedZod(fields.dependencies?.zod));
        return { main, bundle: file, ...(Object.keys(provide).length ? { provide } : {}) };
      }
    }
  } catch {
    // no usable package.json: the documented fallback, lib/index.js
  }
  return { main };
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
  const { main, bundle, provide } = mainOf(root);
  let mod: unknown;
  let from = main;
  if (bundle) {
    try {
      mod = loadLlmBaseBundle(bundle, provide);
      from = bundle;
    } catch {
      // a bundle that cannot be loaded: its package's main, the same module (only slower to start)
    }
  }
  if (mod === undefined) {
    try {
      mod = requireLlmBaseMain(main);
    } catch (err) {
      throw aiError('LLM_BASE_BROKEN', 'llmBaseBroken', { path: main, detail: (err as Error).message.split('\n')[0] });
    }
  }
  return { client: createLlmClient(mod, from), root, module: mod as Record<string, unknown> };
}

/**
 * Wrap a loaded llm-base module. Two llm-bases exist (docs/contracts.md): the original 1.0.x,
 * whose `llm_chat(messages, mode, profile)` takes no options and which has no FEATURES, and this
 * repository's, whose `FEATURES.chat_options` comes with everything `features` names, `transport_for`
 * and the Ollama functions (`service`).
 */
export function createLlmClient(mod: unknown, where = 'llm-base'): LlmClient {
  const llmChat = mod && typeof mod === 'object' ? (mod as { llm_chat?: unknown }).llm_chat : undefined;
  if (typeof llmChat !== 'function') {
    throw aiError('LLM_BASE_BROKEN', 'llmBaseBroken', { path: where, detail: 'llm_chat is not a function' });
  }
  const raw = (mod as { FEATURES?: unknown }).FEATURES;
  const options = raw !== null && typeof raw === 'object' && (raw as { chat_options?: unknown }).chat_options === true;
  const features = { options, streaming: options, waitEvents: options, tools: options, images: options };
  const m = mod as Record<string, unknown>;
  const fn = llmChat as LlmChatFn;
  return {
    features,
    ...(options
      ? {
          service: modelService(m),
          transport(profile: string | null): TransportKind {
            try {
              const t = (m.transport_for as (p: string | null) => unknown)(profile);
              return t === 'tools' || t === 'json_schema' ? t : 'json';
            } catch {
              return 'json';
            }
          },
        }
      : {}),
    async chat(messages, opts) {
      if (opts.signal?.aborted) return aborted();
      try {
        const call = options
          ? fn(messages, opts.mode, opts.profile, {
              signal: opts.signal,
              ...(opts.onText ? { onText: opts.onText } : {}),
              ...(opts.onWait ? { onWait: checkedWait(opts.onWait) } : {}),
              ...(opts.minContext ? { min_context: opts.minContext } : {}),
              ...(opts.tools ? { tools: opts.tools } : {}),
              ...(opts.jsonSchema ? { json_schema: opts.jsonSchema } : {}),
              ...(opts.cacheKey ? { cache_key: opts.cacheKey } : {}),
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

/** The text and tool calls of a tools-transport answer, checked field by field. */
function toolPartsOf(v: Record<string, unknown>): { text?: string; toolCalls?: LlmToolCall[] } {
  if (!Array.isArray(v.tool_calls)) return {};
  const toolCalls = (v.tool_calls as unknown[])
    .filter((c): c is Record<string, unknown> => !!c && typeof c === 'object')
    .filter((c) => typeof c.id === 'string' && typeof c.name === 'string' && typeof c.arguments === 'string')
    .map((c) => ({ id: c.id as string, name: c.name as string, arguments: c.arguments as string }));
  return { text: typeof v.text === 'string' ? v.text : '', toolCalls };
}

function fallbackOf(f: unknown): { fallback?: { from: string; to: string; reason: string } } {
  const x = f && typeof f === 'object' ? (f as Record<string, unknown>) : undefined;
  return x && typeof x.from === 'string' && typeof x.to === 'string'
    ? { fallback: { from: x.from, to: x.to, reason: String(x.reason ?? '') } }
    : {};
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
      usage: {
        input_tokens: num(u.input_tokens),
        output_tokens: num(u.output_tokens),
        ...(num(u.cached_tokens) ? { cached_tokens: num(u.cached_tokens) } : {}),
        ...(typeof u.cost === 'number' && Number.isFinite(u.cost) && u.cost >= 0 && typeof u.currency === 'string'
          ? { cost: u.cost, currency: u.currency.slice(0, 8) }
          : {}),
      },
      model: typeof v.model === 'string' ? v.model : undefined,
      callId: typeof v.call_id === 'string' ? v.call_id : undefined,
      ...fallbackOf(v.fallback),
      ...toolPartsOf(v),
    };
  }
  const e = v.error && typeof v.error === 'object' ? (v.error as Record<string, unknown>) : {};
  const code = typeof e.code === 'string' ? e.code : 'PROVIDER_ERROR';
  const message = typeof e.message === 'string' ? e.message : 'unknown error';
  const status = num(e.status) || num(e.http_status) || num(e.statusCode);
  const notFound = status === 404 || /\b404\b/.test(message);
  return { ok: false, code, message, notFound };
}
