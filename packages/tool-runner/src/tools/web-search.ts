import { z } from 'zod';
import { htmlToText } from '../html-text';
import { message } from '../i18n';
import { BlockedAddressError, checkedAddress, privateAllowed } from '../net-guard';
import { redact } from '../redact';
import type { WebSearchStep } from '../tool-steps';
import { decodeBody, requestOnce, type RequestInit } from './http-get';
import { toolError, type SessionToolContext, type ToolErrorResult } from './session';
import type { ResultDecision } from './types';

/** The search provider, from ai.json's `webSearch`. */
export interface WebSearchSettings {
  provider: 'searxng' | 'brave' | 'tavily';
  /** SearXNG: the instance (required). Brave, Tavily: another endpoint (a proxy); default theirs. */
  url?: string;
  /** `env:NAME`: the API key is read from that environment variable when a search runs. */
  apiKey?: string;
}

/** One search result, redacted. */
export interface WebSearchHit {
  title: string;
  url: string;
  snippet: string;
}

/** web.search result. */
export interface WebSearchResult {
  _event: 'tool_result';
  id: string;
  tool: 'web.search';
  query: string;
  provider: WebSearchSettings['provider'];
  results: WebSearchHit[];
  summary: string;
  decision: ResultDecision;
}

export const SEARCH_DEFAULT_RESULTS = 8;
export const SEARCH_MAX_RESULTS = 20;
const SNIPPET_CHARS = 400;

const ENDPOINTS = {
  brave: 'https://api.search.brave.com/res/v1/web/search',
  tavily: 'https://api.tavily.com/search',
} as const;

const text = z.string().catch('');
const SearxngBody = z
  .object({ results: z.array(z.object({ title: text, url: text, content: text }).passthrough()).catch([]) })
  .passthrough();
const BraveBody = z
  .object({
    web: z
      .object({ results: z.array(z.object({ title: text, url: text, description: text }).passthrough()).catch([]) })
      .passthrough()
      .optional(),
  })
  .passthrough();
const TavilyBody = z
  .object({ results: z.array(z.object({ title: text, url: text, content: text }).passthrough()).catch([]) })
  .passthrough();

/** The request for a provider: where, how, and how its answer reads as hits. */
export function providerRequest(
  s: WebSearchSettings,
  query: string,
  max: number,
  apiKey: string | undefined,
): { url: URL; init: RequestInit; parse(json: unknown): WebSearchHit[] | undefined } {
  if (s.provider === 'searxng') {
    const url = new URL('search', (s.url ?? '').replace(/\/*$/, '/'));
    url.searchParams.set('q', query);
    url.searchParams.set('format', 'json');
    return {
      url,
      init: { headers: { accept: 'application/json' } },
      parse: (json) => {
        const r = SearxngBody.safeParse(json);
        return r.success ? r.data.results.map((h) => ({ title: h.title, url: h.url, snippet: h.content })) : undefined;
      },
    };
  }
  if (s.provider === 'brave') {
    const url = new URL(s.url ?? ENDPOINTS.brave);
    url.searchParams.set('q', query);
    url.searchParams.set('count', String(max));
    return {
      url,
      init: { headers: { accept: 'application/json', ...(apiKey ? { 'x-subscription-token': apiKey } : {}) } },
      parse: (json) => {
        const r = BraveBody.safeParse(json);
        return r.success ? (r.data.web?.results ?? []).map((h) => ({ title: h.title, url: h.url, snippet: h.description })) : undefined;
      },
    };
  }
  return {
    url: new URL(s.url ?? ENDPOINTS.tavily),
    init: {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}) },
      body: JSON.stringify({ query, max_results: max }),
    },
    parse: (json) => {
      const r = TavilyBody.safeParse(json);
      return r.success ? r.data.results.map((h) => ({ title: h.title, url: h.url, snippet: h.content })) : undefined;
    },
  };
}

/** One line of plain text: tags dropped (Brave marks the query words with `<strong>`), entities decoded, cut. */
function plain(s: string, max: number): string {
  const t = htmlToText(s).replace(/\s+/g, ' ').trim();
  return t.length > max ? `${t.slice(0, max)} …` : t;
}

/**
 * web.search: one request to the provider configured in ai.json (`webSearch`), connected to a
 * checked address (a loopback or private one only when the user configured that URL or allowed
 * private hosts), no redirects, the http.get time and size limits; the answer parsed with zod
 * and every title, URL and snippet redacted.
 */
export async function runWebSearch(step: WebSearchStep, ctx: SessionToolContext): Promise<WebSearchResult | ToolErrorResult> {
  const { session, lang } = ctx;
  const s = session.webSearch;
  const fail = (code: string, msgId: string, params: Record<string, string | number> = {}): ToolErrorResult => {
    const r = toolError(ctx, 'web.search', code, redact(message(msgId, lang, params).reason), { query: redact(step.query) });
    const hint = message(msgId, lang).hint;
    if (hint) r.error.hint = hint;
    return r;
  };
  if (!s) return fail('NO_PROVIDER', 'search.err.no_provider');
  const envName = s.apiKey?.startsWith('env:') ? s.apiKey.slice(4) : undefined;
  const apiKey = envName ? ctx.env[envName] : undefined;
  if (s.provider !== 'searxng' && !apiKey) return fail('NO_API_KEY', 'search.err.no_key', { p: s.provider, v: envName ?? 'NAME' });
  const max = Math.min(SEARCH_MAX_RESULTS, step.maxResults ?? SEARCH_DEFAULT_RESULTS);
  let req: ReturnType<typeof providerRequest>;
  try {
    req = providerRequest(s, step.query, max, apiKey);
  } catch {
    return fail('INVALID_URL', 'http.invalid', { u: s.url ?? '' });
  }
  const controller = new AbortController();
  const onAbort = (): void => controller.abort();
  ctx.signal?.addEventListener('abort', onAbort, { once: true });
  const timer = setTimeout(() => controller.abort(), session.http.timeoutMs);
  try {
    // The URL the user wrote in ai.json is theirs to point at a machine of their own network.
    const allowPrivate = s.url !== undefined || privateAllowed(session.allowPrivateNetwork, req.url);
    const addr = await checkedAddress(req.url.hostname, allowPrivate, session.http.resolve);
    const got = await requestOnce(req.url, addr, session.http.maxBytes, controller.signal, req.init);
    const status = got.res.statusCode ?? 0;
    const body = got.body ? decodeBody(got.body, String(got.res.headers['content-type'] ?? '')) : '';
    if (status < 200 || status >= 300)
      return fail('PROVIDER_ERROR', 'search.err.status', { p: s.provider, n: status, b: plain(body, 300) || '-' });
    let json: unknown;
    try {
      json = JSON.parse(body);
    } catch {
      json = undefined;
    }
    const hits = json === undefined ? undefined : req.parse(json);
    if (!hits) return fail('PROVIDER_ERROR', 'search.err.answer', { p: s.provider });
    const results = hits
      .filter((h) => h.url)
      .slice(0, max)
      .map((h) => ({ title: redact(plain(h.title, 200)), url: redact(h.url), snippet: redact(plain(h.snippet, SNIPPET_CHARS)) }));
    return {
      _event: 'tool_result',
      id: ctx.id,
      tool: 'web.search',
      query: redact(step.query),
      provider: s.provider,
      results,
      summary: message('search.summary', lang, { n: results.length, p: s.provider }).reason,
      decision: ctx.decision,
    };
  } catch (err) {
    if (err instanceof BlockedAddressError) return fail(err.code, 'http.err.private', { h: err.host, a: err.address, r: err.range });
    if (controller.signal.aborted)
      return ctx.signal?.aborted
        ? fail('ABORTED', 'search.err.aborted')
        : fail('TIMEOUT', 'http.err.timeout', { ms: session.http.timeoutMs });
    const e = err as NodeJS.ErrnoException;
    return toolError(ctx, 'web.search', e.code ?? 'NETWORK_ERROR', redact(e.message ?? String(err)), { query: redact(step.query) });
  } finally {
    clearTimeout(timer);
    ctx.signal?.removeEventListener('abort', onAbort);
  }
}
