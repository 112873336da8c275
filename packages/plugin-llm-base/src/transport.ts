/**
 * How a caller's structured turns reach the model (FEATURES.tools):
 * - `tools`: OpenAI tool definitions go out as `tools`; the answer is text and/or `tool_calls`
 *   (streamed ones assembled from their deltas exactly as the SDK delivers them);
 * - `json_schema`: `response_format: {type: "json_schema"}` with the caller's schema;
 * - `json`: the strict-JSON prompt, with `json_object` where the profile's json_mode says so.
 * `auto` (a profile's default) uses the best the profile's `probe` found to work.
 */
import type { ProfileConfig } from './types';

export const TRANSPORTS = ['auto', 'tools', 'json_schema', 'json'] as const;
export type Transport = (typeof TRANSPORTS)[number];

/** What `probe` found a profile's server and model can do, with when. */
export interface Capabilities {
  tools: boolean;
  json_schema: boolean;
  json_object: boolean;
  /** The model read a small image correctly (absent: not probed for it). */
  vision?: boolean;
  probed_at: string;
}

/** One tool call of an answer: `arguments` is the model's JSON text, as it sent it. */
export interface ToolCall {
  id: string;
  name: string;
  arguments: string;
}

/** The transport a call uses: the profile's own, or for `auto` the best that its probe passed. */
export function effectiveTransport(profile: Pick<ProfileConfig, 'transport' | 'capabilities'>): Exclude<Transport, 'auto'> {
  const t = profile.transport;
  if (t === 'tools' || t === 'json_schema' || t === 'json') return t;
  const c = profile.capabilities as Partial<Capabilities> | undefined;
  if (c?.tools) return 'tools';
  if (c?.json_schema) return 'json_schema';
  return 'json';
}

/** Streamed `delta.tool_calls` pieces, assembled by `index`: the id and name come once, the
 * arguments in fragments. */
export class ToolCallAssembler {
  private readonly calls = new Map<number, ToolCall>();

  push(deltas: unknown): void {
    if (!Array.isArray(deltas)) return;
    for (const d of deltas as Array<{ index?: number; id?: string; function?: { name?: string; arguments?: string } }>) {
      const index = typeof d?.index === 'number' ? d.index : this.calls.size;
      const call = this.calls.get(index) ?? { id: '', name: '', arguments: '' };
      if (typeof d.id === 'string' && d.id) call.id = d.id;
      if (typeof d.function?.name === 'string') call.name += d.function.name;
      if (typeof d.function?.arguments === 'string') call.arguments += d.function.arguments;
      this.calls.set(index, call);
    }
  }

  result(): ToolCall[] {
    return [...this.calls.entries()]
      .sort((a, b) => a[0] - b[0])
      .map(([i, c]) => ({ ...c, id: c.id || `call_${i}` }))
      .filter((c) => c.name);
  }
}

/** Tool calls of a non-streamed message (`message.tool_calls`). */
export function toolCallsOf(message: unknown): ToolCall[] {
  const calls = (message as { tool_calls?: unknown })?.tool_calls;
  if (!Array.isArray(calls)) return [];
  return calls
    .map((c: { id?: unknown; function?: { name?: unknown; arguments?: unknown } }, i: number) => ({
      id: typeof c?.id === 'string' && c.id ? c.id : `call_${i}`,
      name: typeof c?.function?.name === 'string' ? c.function.name : '',
      arguments: typeof c?.function?.arguments === 'string' ? c.function.arguments : JSON.stringify(c?.function?.arguments ?? {}),
    }))
    .filter((c) => c.name);
}

/**
 * A message as the request carries it: role and content, and for the tool protocol the
 * assistant's `tool_calls` and a tool message's `tool_call_id` (kept only when well formed).
 */
export function requestMessage(m: {
  role: string;
  content?: unknown;
  tool_calls?: unknown;
  tool_call_id?: unknown;
}): Record<string, unknown> {
  const out: Record<string, unknown> = { role: m.role, content: m.content === undefined || m.content === null ? '' : m.content };
  if (m.role === 'assistant' && Array.isArray(m.tool_calls) && m.tool_calls.length) {
    out.tool_calls = m.tool_calls
      .filter((c: { id?: unknown; function?: { name?: unknown } }) => typeof c?.id === 'string' && typeof c?.function?.name === 'string')
      .map((c: { id: string; function: { name: string; arguments?: unknown } }) => ({
        id: c.id,
        type: 'function',
        function: {
          name: c.function.name,
          arguments: typeof c.function.arguments === 'string' ? c.function.arguments : JSON.stringify(c.function.arguments ?? {}),
        },
      }));
  }
  if (m.role === 'tool' && typeof m.tool_call_id === 'string') out.tool_call_id = m.tool_call_id;
  return out;
}

/** Whether a message carries image parts (OpenAI `image_url`). */
export function hasImages(m: { content?: unknown }): boolean {
  return Array.isArray(m.content) && m.content.some((p) => !!p && typeof p === 'object' && (p as { type?: unknown }).type === 'image_url');
}

/** The base64 of a message's image parts given as `data:` URLs (Ollama's `images` takes only those). */
export function dataUrlImages(content: unknown): string[] {
  if (!Array.isArray(content)) return [];
  const out: string[] = [];
  for (const p of content as Array<{ type?: unknown; image_url?: { url?: unknown } }>) {
    const url = p?.type === 'image_url' && typeof p.image_url?.url === 'string' ? p.image_url.url : '';
    const comma = url.startsWith('data:') ? url.indexOf(',') : -1;
    if (comma > 0 && url.slice(0, comma).endsWith(';base64')) out.push(url.slice(comma + 1));
  }
  return out;
}

/** A message's content as text: its text parts joined, an object as its JSON. */
export function contentToText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return content
      .map((p) =>
        typeof p === 'string'
          ? p
          : p && typeof p === 'object' && typeof (p as { text?: unknown }).text === 'string'
            ? (p as { text: string }).text
            : '',
      )
      .join('')
      .trim();
  }
  if (content && typeof content === 'object') return JSON.stringify(content);
  return '';
}

/** The same message in Ollama's native shape (arguments as objects, no ids, images as base64). */
export function ollamaMessage(m: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { role: m.role, content: contentToText(m.content) };
  const images = dataUrlImages(m.content);
  if (images.length) out.images = images;
  if (Array.isArray(m.tool_calls)) {
    out.tool_calls = (m.tool_calls as Array<{ function: { name: string; arguments: string } }>).map((c) => {
      let args: unknown;
      try {
        args = JSON.parse(c.function.arguments);
      } catch {
        args = {};
      }
      return { function: { name: c.function.name, arguments: args } };
    });
  }
  return out;
}
