/** Anything thrown on a call's path as `{code, message}`: one error per cause, never a key. */
import { LlmBaseError, type ApiError, type ErrorCode } from './errors';
import { t, type Lang } from './i18n';
import { redactSecrets } from './masking';
import { startHintOf } from './presets';
import type { ProfileConfig } from './types';
import { serverOf, waitLimits } from './wait-limits';

type Sdk = typeof import('openai');

/** Milliseconds as seconds for a message: 0.4, 4, 120. */
export function seconds(ms: number): number {
  return ms < 10_000 ? Math.round(ms / 100) / 10 : Math.round(ms / 1000);
}

export interface MapContext {
  lang: Lang;
  profileId?: string;
  profile?: ProfileConfig;
  apiKey?: string;
  signal?: AbortSignal;
}

/** The first errno-like code (`ECONNREFUSED`, `CONNECT_TIMEOUT`, a TLS one) along an error's cause chain. */
export function causeCode(err: unknown): string | undefined {
  let cur: unknown = err;
  for (let i = 0; i < 5 && cur && typeof cur === 'object'; i++) {
    const code = (cur as { code?: unknown }).code;
    if (typeof code === 'string' && (/^(E[A-Z]+|CONNECT_TIMEOUT)$/.test(code) || isTlsCode(code))) return code;
    cur = (cur as { cause?: unknown }).cause;
  }
  return undefined;
}

/** Codes of a connection that never opened: nothing listens there, or the address leads nowhere. */
const NOT_OPENED = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'EADDRNOTAVAIL', 'EHOSTDOWN']);

/** Whether a code means the connection was never made (refused, no such host), not cut after. */
export function neverConnected(code: string | undefined): boolean {
  return code !== undefined && NOT_OPENED.has(code);
}

/** OpenSSL's and node's certificate and TLS codes (`DEPTH_ZERO_SELF_SIGNED_CERT`, `ERR_TLS_CERT_ALTNAME_INVALID`, …). */
function isTlsCode(code: string): boolean {
  return /^([A-Z0-9_]*CERT[A-Z0-9_]*|UNABLE_TO_[A-Z0-9_]+|ERR_(TLS|SSL)_[A-Z0-9_]+)$/.test(code);
}

function apiDetail(err: { message?: string; error?: unknown }): string {
  const body = err.error as { message?: unknown } | undefined;
  if (body && typeof body.message === 'string' && body.message) return body.message;
  return err.message ?? '';
}

/** Nothing listens at the profile's address: start the server (named when it is a known local
 * one), or correct the address; doctor for this profile. */
function refused(ctx: MapContext, detail: string): string {
  const vars = { url: ctx.profile?.base_url ?? '', detail, name: ctx.profileId ?? '' };
  const hint = ctx.profile ? startHintOf(ctx.profile) : undefined;
  return hint ? t(ctx.lang, 'connectionStart', { ...vars, hint }) : t(ctx.lang, 'connection', vars);
}

/** Map anything thrown on the call path to `{code, message}`; messages never carry a key. */
export function mapError(err: unknown, ctx: MapContext, sdk?: Sdk): ApiError {
  const secrets = [ctx.apiKey];
  const clean = (m: string) => redactSecrets(m, secrets);
  const result = (code: ErrorCode, message: string, status?: number): ApiError =>
    status ? { code, message: clean(message), status } : { code, message: clean(message) };
  const name = ctx.profileId ?? '';
  const url = ctx.profile?.base_url ?? '';

  if (ctx.signal?.aborted) return result('NETWORK_ERROR', t(ctx.lang, 'aborted'));
  if (LlmBaseError.isInstance(err)) return result(err.code, err.message);
  if (sdk) {
    if (err instanceof sdk.APIUserAbortError) return result('NETWORK_ERROR', t(ctx.lang, 'aborted'));
    if (err instanceof sdk.APIConnectionTimeoutError)
      return result('NETWORK_ERROR', t(ctx.lang, 'timeout', { ms: ctx.profile?.timeout ?? 0, url }));
    if (err instanceof sdk.APIConnectionError) {
      if (causeCode(err) === 'CONNECT_TIMEOUT' && ctx.profile) {
        const s = seconds(waitLimits(ctx.profile).connect);
        return result('NETWORK_ERROR', t(ctx.lang, 'connectTimeout', { server: serverOf(url), s, name }));
      }
      const code = causeCode(err);
      const detail = code ?? err.message;
      if (isTlsCode(detail)) return result('NETWORK_ERROR', t(ctx.lang, 'tlsError', { url, detail }));
      // A reset or a close after the request went out is a cut, not "cannot connect".
      if (code && !neverConnected(code)) return result('NETWORK_ERROR', t(ctx.lang, 'streamCut', { url, detail, name }));
      return result('NETWORK_ERROR', refused(ctx, detail));
    }
    if (err instanceof sdk.APIError) {
      const status = err.status ?? 0;
      const detail = apiDetail(err);
      if (status === 401 || status === 403) return result('AUTH_ERROR', t(ctx.lang, 'authError', { status, detail, name }), status);
      if (status === 429) return result('RATE_LIMIT', t(ctx.lang, 'rateLimit', { detail }), status);
      if (status) return result('PROVIDER_ERROR', t(ctx.lang, 'providerStatus', { status, detail }), status);
      return result('PROVIDER_ERROR', t(ctx.lang, 'providerError', { detail }));
    }
  }
  const e = err as { name?: string; message?: string } | undefined;
  if (e?.name === 'AbortError') return result('NETWORK_ERROR', t(ctx.lang, 'aborted'));
  // Without the SDK (Ollama's native API, http-fetch): the same two cases told apart. A refused
  // or unresolvable address never connected; a connection closed mid-body is TypeError('terminated')
  // with the socket error as cause (http-fetch.ts), or a reset.
  const code = causeCode(err);
  if (code === 'CONNECT_TIMEOUT' && ctx.profile) {
    return result(
      'NETWORK_ERROR',
      t(ctx.lang, 'connectTimeout', { server: serverOf(url), s: seconds(waitLimits(ctx.profile).connect), name }),
    );
  }
  if (code && isTlsCode(code)) return result('NETWORK_ERROR', t(ctx.lang, 'tlsError', { url, detail: code }));
  if (neverConnected(code)) return result('NETWORK_ERROR', refused(ctx, code!));
  if (code || e?.message === 'terminated')
    return result('NETWORK_ERROR', t(ctx.lang, 'streamCut', { url, detail: code ?? e?.message ?? '', name }));
  return result('PROVIDER_ERROR', t(ctx.lang, 'providerError', { detail: e?.message ?? String(err) }));
}
