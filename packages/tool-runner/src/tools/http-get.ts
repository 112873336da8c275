import type { IncomingMessage } from 'http';
import http = require('http');
import https = require('https');
import zlib = require('zlib');
import { htmlTitle, htmlToText } from '../html-text';
import { message } from '../i18n';
import { BlockedAddressError, checkedAddress, privateAllowed, type LookupAddress } from '../net-guard';
import { redact } from '../redact';
import type { HttpGetStep } from '../tool-steps';
import { toolError, type SessionToolContext, type ToolErrorResult } from './session';
import type { ResultDecision } from './types';

/** http.get result: the text of the page (HTML reduced to text), redacted. */
export interface HttpGetResult {
  _event: 'tool_result';
  id: string;
  tool: 'http.get';
  url: string;
  /** Where the last redirect led. */
  finalUrl: string;
  httpStatus: number;
  contentType: string;
  title?: string;
  content: string;
  /** Body bytes received (after decompression). */
  bytes: number;
  /** The body passed the size cap (or the text the content cap). */
  truncated: boolean;
  redirects: string[];
  note?: string;
  /** One line for the user's screen: `HTTP 200 · text/html · 48213 B`. */
  summary: string;
  decision: ResultDecision;
}

/** Characters of text returned at most. */
const MAX_TEXT_CHARS = 100_000;

function isTextType(type: string): boolean {
  return (
    type === '' ||
    type.startsWith('text/') ||
    /^application\/([\w.+-]*\+)?(json|xml|javascript|ecmascript|x-www-form-urlencoded|yaml|x-yaml|toml|x-sh|graphql|ld\+json)$/.test(
      type,
    ) ||
    /\+(json|xml)$/.test(type)
  );
}

export function decodeBody(buf: Buffer, contentType: string): string {
  const m = /charset\s*=\s*"?([\w.:-]+)"?/i.exec(contentType);
  const charset = m ? m[1].toLowerCase() : 'utf-8';
  try {
    return new TextDecoder(charset).decode(buf);
  } catch {
    return new TextDecoder('utf-8').decode(buf);
  }
}

export interface Fetched {
  res: IncomingMessage;
  body?: Buffer;
  truncated: boolean;
}

/** What a request other than http.get's plain GET sends (web.search's provider calls). */
export interface RequestInit {
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
}

/**
 * One request (a GET unless `init` says otherwise), connected to the address that was checked
 * (the `lookup` hands it to the socket, so DNS cannot answer differently between the check and
 * the connection). The body is read (decompressed) up to `maxBytes`; non-text bodies are not read.
 */
export function requestOnce(
  url: URL,
  addr: LookupAddress,
  maxBytes: number,
  signal: AbortSignal,
  init: RequestInit = {},
): Promise<Fetched> {
  return new Promise<Fetched>((resolve, reject) => {
    const mod = url.protocol === 'https:' ? https : http;
    const lookup = (_host: string, opts: { all?: boolean } | number | undefined, cb: (...a: unknown[]) => void): void => {
      if (typeof opts === 'object' && opts?.all) cb(null, [{ address: addr.address, family: addr.family }]);
      else cb(null, addr.address, addr.family);
    };
    const req = mod.request(
      {
        protocol: url.protocol,
        hostname: url.hostname.replace(/^\[|\]$/g, ''),
        port: url.port || undefined,
        path: `${url.pathname}${url.search}`,
        method: init.method ?? 'GET',
        headers: {
          'user-agent': 'slothtool-ai (tool-runner http.get)',
          accept: 'text/html,application/xhtml+xml,text/plain,application/json;q=0.9,*/*;q=0.5',
          'accept-encoding': 'gzip, deflate, br',
          ...init.headers,
        },
        ...(url.username ? { auth: `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}` } : {}),
        lookup: lookup as unknown as http.RequestOptions['lookup'],
        agent: false,
        signal,
      },
      (res) => readResponse(res, maxBytes, resolve, reject),
    );
    req.on('error', reject);
    req.end(init.body);
  });
}

/**
 * Read one response for requestOnce: a redirect or a body that is not text is not read; a text
 * body is decompressed and kept up to `maxBytes` (then the connection is dropped, marked truncated).
 */
function readResponse(res: IncomingMessage, maxBytes: number, resolve: (f: Fetched) => void, reject: (e: Error) => void): void {
  const status = res.statusCode ?? 0;
  const type = String(res.headers['content-type'] ?? '')
    .split(';')[0]
    .trim()
    .toLowerCase();
  if ((status >= 300 && status < 400 && res.headers.location) || !isTextType(type)) {
    res.resume();
    res.destroy();
    resolve({ res, truncated: false });
    return;
  }
  const enc = String(res.headers['content-encoding'] ?? '').toLowerCase();
  let stream: NodeJS.ReadableStream = res;
  if (enc === 'gzip' || enc === 'x-gzip') stream = res.pipe(zlib.createGunzip());
  else if (enc === 'deflate') stream = res.pipe(zlib.createInflate());
  else if (enc === 'br') stream = res.pipe(zlib.createBrotliDecompress());
  const chunks: Buffer[] = [];
  let size = 0;
  let done = false;
  const finish = (truncated: boolean): void => {
    if (done) return;
    done = true;
    resolve({ res, body: Buffer.concat(chunks), truncated });
  };
  stream.on('data', (chunk: Buffer) => {
    if (done) return;
    const room = maxBytes - size;
    if (chunk.length >= room) {
      // The cap: keep what fits, stop reading, drop the connection.
      chunks.push(chunk.subarray(0, room));
      size += room;
      finish(true);
      res.destroy();
      return;
    }
    chunks.push(chunk);
    size += chunk.length;
  });
  stream.on('end', () => finish(false));
  stream.on('error', (e: Error) => (done ? undefined : ((done = true), reject(e))));
  res.on('error', (e: Error) => (done ? undefined : ((done = true), reject(e))));
  // A connection dropped before the end: what arrived is returned, marked truncated.
  res.on('close', () => (res.complete ? undefined : finish(true)));
}

/**
 * http.get: only http/https; every hop's host resolved and every address checked against
 * loopback/private/link-local ranges (unless allowed); at most `maxRedirects` redirects, no
 * loops; a time limit over the whole exchange; a size cap; HTML reduced to text; redacted.
 */
export async function runHttpGet(step: HttpGetStep, ctx: SessionToolContext): Promise<HttpGetResult | ToolErrorResult> {
  const { session, lang } = ctx;
  const settings = session.http;
  const controller = new AbortController();
  const onAbort = (): void => controller.abort();
  ctx.signal?.addEventListener('abort', onAbort, { once: true });
  const timer = setTimeout(() => controller.abort(), settings.timeoutMs);
  const redirects: string[] = [];
  const fail = (code: string, message: string, hint?: string): ToolErrorResult => {
    const r = toolError(ctx, 'http.get', code, redact(message), {
      url: redact(step.url),
      ...(redirects.length ? { redirects: redirects.map(redact) } : {}),
    });
    if (hint) r.error.hint = hint;
    return r;
  };
  try {
    let url: URL;
    try {
      url = new URL(step.url);
    } catch {
      return fail('INVALID_URL', message('http.invalid', lang, { u: step.url }).reason);
    }
    const seen = new Set<string>();
    for (;;) {
      if (url.protocol !== 'http:' && url.protocol !== 'https:')
        return fail('SCHEME', message('http.err.scheme', lang, { u: url.href }).reason);
      if (seen.has(url.href)) return fail('REDIRECT_LOOP', message('http.err.loop', lang, { u: url.href }).reason);
      seen.add(url.href);
      const addr = await checkedAddress(url.hostname, privateAllowed(session.allowPrivateNetwork, url), settings.resolve);
      const got = await requestOnce(url, addr, settings.maxBytes, controller.signal);
      const status = got.res.statusCode ?? 0;
      const location = got.res.headers.location;
      if (status >= 300 && status < 400 && location) {
        if (redirects.length >= settings.maxRedirects)
          return fail('TOO_MANY_REDIRECTS', message('http.err.redirects', lang, { n: settings.maxRedirects }).reason);
        let next: URL;
        try {
          next = new URL(location, url);
        } catch {
          return fail('INVALID_URL', message('http.invalid', lang, { u: location }).reason);
        }
        // Credentials never follow a redirect to another origin.
        if (next.origin !== url.origin) {
          next.username = '';
          next.password = '';
        }
        redirects.push(next.href);
        url = next;
        continue;
      }
      const contentType = String(got.res.headers['content-type'] ?? '');
      if (!got.body)
        return fail('NOT_TEXT', message('http.err.binary', lang, { t: contentType.split(';')[0].trim().toLowerCase() || '?' }).reason);
      return pageResult(step, ctx, { url, status, contentType, body: got.body, truncated: got.truncated, redirects });
    }
  } catch (err) {
    if (err instanceof BlockedAddressError) {
      return fail(
        err.code,
        message('http.err.private', lang, { h: err.host, a: err.address, r: err.range }).reason,
        message('http.err.private', lang).hint,
      );
    }
    if (controller.signal.aborted) {
      if (ctx.signal?.aborted) return fail('ABORTED', 'aborted');
      return fail('TIMEOUT', message('http.err.timeout', lang, { ms: settings.timeoutMs }).reason);
    }
    const e = err as NodeJS.ErrnoException;
    return fail(e.code ?? 'NETWORK_ERROR', e.message ?? String(err));
  } finally {
    clearTimeout(timer);
    ctx.signal?.removeEventListener('abort', onAbort);
  }
}

/** The result of a page that came back as text: HTML reduced to text, capped at MAX_TEXT_CHARS, redacted. */
function pageResult(
  step: HttpGetStep,
  ctx: SessionToolContext,
  got: { url: URL; status: number; contentType: string; body: Buffer; truncated: boolean; redirects: string[] },
): HttpGetResult {
  const { lang } = ctx;
  const { url, status, contentType, redirects } = got;
  const type = contentType.split(';')[0].trim().toLowerCase();
  const raw = decodeBody(got.body, contentType);
  const html = type === 'text/html' || type === 'application/xhtml+xml' || (type === '' && /^\s*<(!doctype html|html)/i.test(raw));
  let text = html ? htmlToText(raw, url.href) : raw;
  const notes: string[] = [];
  let truncated = got.truncated;
  if (got.truncated) notes.push(message('http.note.truncated', lang, { max: ctx.session.http.maxBytes }).reason);
  if (text.length > MAX_TEXT_CHARS) {
    text = text.slice(0, MAX_TEXT_CHARS);
    truncated = true;
  }
  const title = html ? htmlTitle(raw) : undefined;
  return {
    _event: 'tool_result',
    id: ctx.id,
    tool: 'http.get',
    url: redact(step.url),
    finalUrl: redact(url.href),
    httpStatus: status,
    contentType: type,
    ...(title ? { title: redact(title) } : {}),
    content: redact(text),
    bytes: got.body.length,
    truncated,
    redirects: redirects.map(redact),
    ...(notes.length ? { note: notes.join('; ') } : {}),
    summary: `HTTP ${status} · ${type || '?'} · ${got.body.length} B${truncated ? ' (truncated)' : ''}`,
    decision: ctx.decision,
  };
}
