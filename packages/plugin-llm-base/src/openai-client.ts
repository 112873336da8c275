/**
 * One completion through the openai SDK: the client of a profile (kept per server and key), its
 * requests watched (connect limit, first token, pauses) over node:http's fetch, an answer streamed
 * or whole.
 */
import * as openai from 'openai';
import type OpenAIType from 'openai';
import { LlmBaseError } from './errors';
import { createHttpFetch, FETCH_HOOKS, type FetchHooks } from './http-fetch';
import type { RequestWatch } from './request-watch';
import { contentToText, ToolCallAssembler, toolCallsOf, type ToolCall } from './transport';
import type { ChatOptions } from './client';
import type { ProfileConfig } from './types';

type Sdk = typeof openai;

/** How requests go out: node:http's fetch (http-fetch.ts) with this request's connect limit and hook. */
export interface Transport {
  fetch: typeof fetch;
}

/**
 * A transport whose connection attempt gives up after `connectMs` and tells the watch when the
 * connection is up (the SDK's own timeout only covers the whole wait for response headers,
 * which a local server loading a model legitimately keeps long).
 */
export function watchedTransport(watch: RequestWatch, connectMs: number): Transport {
  return { fetch: createHttpFetch(watchHooks(watch, connectMs)) };
}

function watchHooks(watch: RequestWatch, connectMs: number): FetchHooks {
  return { connectMs, connected: () => watch.connected() };
}

/** The request options that give one request its watch (signal, connect limit, connected). */
function watched(watch: RequestWatch, connectMs: number): OpenAIType.RequestOptions {
  return {
    signal: watch.signal,
    fetchOptions: { [FETCH_HOOKS]: watchHooks(watch, connectMs) } as OpenAIType.RequestOptions['fetchOptions'],
  };
}

/**
 * Clients kept for the process, one per server, key, time-out and retries, so that the calls of a
 * session reuse one client and its open connections (each request brings its own watch).
 */
const clients = new Map<string, OpenAIType>();

export function sharedClient(sdk: Sdk, profile: ProfileConfig, apiKey: string): OpenAIType {
  const key = [profile.base_url, apiKey, profile.timeout, profile.max_retries ?? 2].join('\u0000');
  let client = clients.get(key);
  if (!client) {
    if (clients.size >= 8) clients.delete(clients.keys().next().value as string);
    client = createClient(sdk, profile, apiKey);
    clients.set(key, client);
  }
  return client;
}

/** A client for one profile; keys never reach the environment-driven SDK defaults. */
export function createClient(sdk: Sdk, profile: ProfileConfig, apiKey: string, transport?: Transport): OpenAIType {
  return new sdk.OpenAI({
    fetch: (transport?.fetch ?? createHttpFetch()) as never,
    baseURL: profile.base_url.replace(/\/+$/, ''),
    // The SDK refuses an empty key; keyless local servers ignore whatever is sent.
    apiKey: apiKey || 'no-key',
    organization: null,
    project: null,
    timeout: profile.timeout,
    maxRetries: profile.max_retries ?? 2,
    logLevel: 'off',
  });
}

/** A 400/422 after sending response_format: the provider does not take that parameter. */
export function rejectsResponseFormat(err: unknown, sdk: Sdk): boolean {
  return err instanceof sdk.APIError && (err.status === 400 || err.status === 422);
}

export interface Completed {
  text: string;
  usage: unknown;
  toolCalls?: ToolCall[];
  /** The server refused the response_format; the answer came without it. */
  formatRejected?: boolean;
}

export async function complete(
  client: OpenAIType,
  body: Record<string, unknown>,
  options: ChatOptions,
  watch: RequestWatch,
  connectMs: number,
): Promise<Completed> {
  if (options.onText) {
    const stream = await client.chat.completions.create(
      { ...(body as object), stream: true, stream_options: { include_usage: true } } as OpenAIType.Chat.ChatCompletionCreateParamsStreaming,
      watched(watch, connectMs),
    );
    let text = '';
    let usage: unknown;
    const calls = new ToolCallAssembler();
    for await (const chunk of stream) {
      // Any piece counts, also one without content (a model that streams its reasoning).
      watch.received();
      const delta = chunk.choices?.[0]?.delta;
      if (typeof delta?.content === 'string' && delta.content !== '') {
        text += delta.content;
        options.onText(delta.content);
      }
      calls.push(delta?.tool_calls);
      if (chunk.usage) usage = chunk.usage;
    }
    // The SDK ends the iteration quietly when aborted.
    if (watch.signal.aborted) throw new LlmBaseError('NETWORK_ERROR', 'aborted', 'aborted');
    return { text, usage, toolCalls: calls.result() };
  }
  const res = await client.chat.completions.create(
    body as unknown as OpenAIType.Chat.ChatCompletionCreateParamsNonStreaming,
    watched(watch, connectMs),
  );
  const message = res.choices?.[0]?.message;
  return { text: contentToText(message?.content), usage: res.usage, toolCalls: toolCallsOf(message) };
}
