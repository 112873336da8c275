/**
 * What a model server's prefix cache could keep of a sequence of chat requests: for each request,
 * the longest prefix it shares with the one before it, message by message (each message as its
 * JSON text; within the first message that differs, its common leading characters), and whether
 * the previous request is an exact prefix of it. A server reuses its KV cache (Ollama,
 * llama.cpp) or bills a cached prefix (hosted APIs) only for that shared part; the rest is read
 * again at full price: the "fresh" characters.
 */

/** A chat message as it travels (any fields: role, content, tool_calls, tool_call_id, images…). */
export type WireMessage = Record<string, unknown>;

/** One request's figures against the request before it. */
export interface RequestPrefix {
  /** Characters of the request's messages (their JSON texts, summed). */
  chars: number;
  /** Of those, the ones in the longest common prefix with the previous request. */
  shared: number;
  /** `chars - shared`: what the server reads again. */
  fresh: number;
  /** Every message of the previous request is, unchanged, at the same place in this one. */
  extendsPrevious: boolean;
}

/** The figures of a whole sequence. */
export interface PrefixStats {
  requests: RequestPrefix[];
  chars: number;
  fresh: number;
  /** fresh / chars (the first request counts as all fresh). */
  freshShare: number;
  /** Consecutive pairs (request i-1, i) compared, and of them the ones where i extends i-1. */
  pairs: number;
  kept: number;
}

function commonLeading(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}

/** The prefix figures of `messages` against `previous` (undefined: the first request). */
export function comparePrefix(previous: readonly WireMessage[] | undefined, messages: readonly WireMessage[]): RequestPrefix {
  const texts = messages.map((m) => JSON.stringify(m));
  const chars = texts.reduce((n, t) => n + t.length, 0);
  if (!previous) return { chars, shared: 0, fresh: chars, extendsPrevious: false };
  const before = previous.map((m) => JSON.stringify(m));
  let shared = 0;
  let i = 0;
  for (; i < Math.min(before.length, texts.length); i++) {
    if (before[i] !== texts[i]) {
      shared += commonLeading(before[i], texts[i]);
      break;
    }
    shared += texts[i].length;
  }
  const extendsPrevious = before.length <= texts.length && before.every((t, k) => t === texts[k]);
  return { chars, shared, fresh: chars - shared, extendsPrevious };
}

/** The figures of a sequence of requests, each compared with the one before it. */
export function prefixStats(requests: ReadonlyArray<readonly WireMessage[]>): PrefixStats {
  const out: RequestPrefix[] = [];
  requests.forEach((messages, i) => out.push(comparePrefix(i ? requests[i - 1] : undefined, messages)));
  const chars = out.reduce((n, r) => n + r.chars, 0);
  const fresh = out.reduce((n, r) => n + r.fresh, 0);
  const pairs = Math.max(0, out.length - 1);
  const kept = out.slice(1).filter((r) => r.extendsPrevious).length;
  return { requests: out, chars, fresh, freshShare: chars ? fresh / chars : 0, pairs, kept };
}

/** How many times each marker occurs in a request's messages (a step output sent twice shows as 2). */
export function markerCounts(messages: readonly WireMessage[], markers: readonly string[]): Map<string, number> {
  const text = JSON.stringify(messages);
  const counts = new Map<string, number>();
  for (const marker of markers) {
    let n = 0;
    for (let at = text.indexOf(marker); at >= 0; at = text.indexOf(marker, at + marker.length)) n++;
    counts.set(marker, n);
  }
  return counts;
}
