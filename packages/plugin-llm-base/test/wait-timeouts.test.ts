import { createTempHome, eachReturns, llmProfile, startScriptedServer, ScriptedServer, TempHome } from '@holic512/testkit';
import * as api from '../src/index';
import * as openai from 'openai';
import { mapError } from '../src/client';
import type { WaitInfo } from '../src/request-watch';
import { HOSTED_WAIT_LIMITS, isLocalHost, LOCAL_WAIT_LIMITS, waitLimits } from '../src/wait-limits';

let home: TempHome;
let server: ScriptedServer;

const profile = (extra: Record<string, unknown> = {}) =>
  llmProfile(server.baseURL, { low_model: 'qwen2.5:7b', high_model: 'big', timeout: 30000, ...extra });
const user = [{ role: 'user', content: 'hi' }];

beforeEach(async () => {
  home = await createTempHome({ language: 'en' });
  process.env.SLOTHTOOL_HOME = home.slothtoolHome;
  server = await startScriptedServer();
});
afterEach(async () => {
  await server.close();
  await home.cleanup();
});

describe('wait limits', () => {
  eachReturns('%s is local: %s', isLocalHost, [
    ['localhost', true],
    ['127.0.0.1', true],
    ['10.1.2.3', true],
    ['172.16.0.9', true],
    ['172.32.0.9', false],
    ['192.168.1.20', true],
    ['169.254.1.1', true],
    ['[::1]', true],
    ['fd00::5', true],
    ['::ffff:192.168.0.2', true],
    ['gpu-box.local', true],
    ['api.openai.com', false],
    ['8.8.8.8', false],
    ['2001:db8::1', false],
  ]);

  test('local servers get longer first-token limits than hosted ones; profile fields win', () => {
    const base = { api_key: '', low_model: 'a', high_model: 'b', timeout: 1000 };
    expect(waitLimits({ ...base, base_url: 'http://127.0.0.1:11434/v1' })).toEqual(LOCAL_WAIT_LIMITS);
    expect(waitLimits({ ...base, base_url: 'https://api.deepseek.com/v1' })).toEqual(HOSTED_WAIT_LIMITS);
    expect(LOCAL_WAIT_LIMITS.firstToken).toBeGreaterThan(HOSTED_WAIT_LIMITS.firstToken);
    expect(waitLimits({ ...base, base_url: 'https://x.example/v1', first_token_timeout: 5, idle_timeout: 6, connect_timeout: 7 })).toEqual({
      connect: 7,
      firstToken: 5,
      idle: 6,
    });
  });

  test('the profile fields are checked like the others', () => {
    const r = api.create_profile('bad', { ...profile(), first_token_timeout: -1 } as never);
    expect(r).toMatchObject({ success: false });
    expect(JSON.stringify(r)).toMatch(/first_token_timeout/);
  });
});

describe('time-outs', () => {
  test('a server that accepts and never answers: first-token time-out with the next step', async () => {
    api.create_profile('local', profile({ first_token_timeout: 300 }));
    server.enqueue({ hang: true });
    const waits: WaitInfo[] = [];
    const r = await api.llm_chat(user, 'low', 'local', { onText: () => undefined, onWait: (w) => waits.push(w) });
    expect(r).toMatchObject({ success: false, error: { code: 'NETWORK_ERROR' } });
    const message = (r as { error: { message: string } }).error.message;
    expect(message).toContain(`No first token from qwen2.5:7b at 127.0.0.1:${server.port} within 0.3 s`);
    expect(message).toContain('slothtool llm-base doctor local');
    expect(waits.map((w) => [w.phase, w.limitMs])).toEqual([
      ['connect', LOCAL_WAIT_LIMITS.connect],
      ['first_token', 300],
    ]);
    expect(waits[0]).toMatchObject({ model: 'qwen2.5:7b', server: `127.0.0.1:${server.port}` });
  });

  test('the same without streaming', async () => {
    api.create_profile('local', profile({ first_token_timeout: 300 }));
    server.enqueue({ hang: true });
    const r = await api.llm_chat(user, 'low', 'local', {});
    expect((r as { error: { message: string } }).error.message).toContain('No first token from qwen2.5:7b');
  });

  test('a stream that stops: idle time-out', async () => {
    api.create_profile('local', profile({ idle_timeout: 300 }));
    server.enqueue({ content: '{"a":1,"b":2}', chunks: ['{"a":', '1,', '"b":2}'], hangAfterChunks: 1 });
    const phases: string[] = [];
    const r = await api.llm_chat(user, 'low', 'local', { onText: () => undefined, onWait: (w) => phases.push(w.phase) });
    expect((r as { error: { message: string } }).error.message).toContain(
      `The answer from qwen2.5:7b at 127.0.0.1:${server.port} stopped for 0.3 s`,
    );
    expect(phases).toEqual(['connect', 'first_token', 'streaming']);
  });

  test('the caller aborting a hung request is "aborted", not a time-out, and at once', async () => {
    api.create_profile('local', profile());
    server.enqueue({ hang: true });
    const ac = new AbortController();
    const p = api.llm_chat(user, 'low', 'local', {
      signal: ac.signal,
      onText: () => undefined,
      onWait: (w) => w.phase === 'first_token' && ac.abort(),
    });
    expect(await p).toMatchObject({ success: false, error: { code: 'NETWORK_ERROR', message: 'Request aborted' } });
  });

  test('a certificate that cannot be verified says so (not "is the server running?") and what to do', () => {
    const sdk = openai;
    const p = { ...profile(), base_url: 'https://llm.internal:8443/v1' };
    for (const code of [
      'DEPTH_ZERO_SELF_SIGNED_CERT',
      'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
      'CERT_HAS_EXPIRED',
      'ERR_TLS_CERT_ALTNAME_INVALID',
    ]) {
      const err = new sdk.APIConnectionError({
        cause: Object.assign(new TypeError('fetch failed'), { cause: Object.assign(new Error('x'), { code }) }),
      });
      const mapped = mapError(err, { lang: 'en', profileId: 'corp', profile: p }, sdk);
      expect(mapped).toEqual({
        code: 'NETWORK_ERROR',
        message: `Cannot verify the TLS certificate of https://llm.internal:8443/v1: ${code}. If the server uses a private CA, point NODE_EXTRA_CA_CERTS at its certificate file`,
      });
      expect(mapError(err, { lang: 'zh', profileId: 'corp', profile: p }, sdk).message).toContain('TLS 证书');
    }
    const refused = new sdk.APIConnectionError({ cause: Object.assign(new Error('x'), { code: 'ECONNREFUSED' }) });
    expect(mapError(refused, { lang: 'en', profileId: 'corp', profile: p }, sdk).message).toContain('nothing is listening there');
  });

  test('a connect time-out (CONNECT_TIMEOUT from http-fetch) says which server and what to run', () => {
    const sdk = openai;
    const cause = Object.assign(new Error('Connect Timeout Error'), { code: 'CONNECT_TIMEOUT' });
    const err = new sdk.APIConnectionError({ cause });
    const p = { ...profile(), base_url: 'http://192.168.1.20:11434/v1', connect_timeout: 4000 };
    expect(mapError(err, { lang: 'en', profileId: 'gpu', profile: p }, sdk)).toEqual({
      code: 'NETWORK_ERROR',
      message: 'Could not connect to 192.168.1.20:11434 within 4 s. Is the server running? Run: slothtool llm-base doctor gpu',
    });
    expect(mapError(err, { lang: 'zh', profileId: 'gpu', profile: p }, sdk).message).toContain('4 秒内无法连接 192.168.1.20:11434');
  });
});
