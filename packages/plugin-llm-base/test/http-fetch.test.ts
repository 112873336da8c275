import { createTempHome, llmBaseConfig, llmProfile, startScriptedServer, TEST_TLS, type ScriptedServer } from '@holic512/testkit';
import { execFile } from 'child_process';
import * as http from 'http';
import * as net from 'net';
import * as path from 'path';
import * as zlib from 'zlib';
import { createHttpFetch } from '../src/http-fetch';

type Handler = (req: http.IncomingMessage, res: http.ServerResponse, body: string) => void;

let server: http.Server;
let base: string;
let handler: Handler;
const sockets = new Set<net.Socket>();

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => handler(req, res, Buffer.concat(chunks).toString()));
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
});
afterAll(async () => {
  for (const s of sockets) s.destroy();
  await new Promise((r) => server.close(r));
});

/** A plain TCP server: `onSocket` decides what each connection gets. */
async function tcpServer(onSocket: (s: net.Socket) => void): Promise<{ port: number; close: () => Promise<void> }> {
  const open = new Set<net.Socket>();
  const s = net.createServer((sock) => {
    open.add(sock);
    sock.on('error', () => undefined);
    onSocket(sock);
  });
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  return {
    port: (s.address() as net.AddressInfo).port,
    close: async () => {
      for (const x of open) x.destroy();
      await new Promise((r) => s.close(r));
    },
  };
}

describe('createHttpFetch', () => {
  test('a POST with a JSON body: status, headers, body, url; the request carries method, headers and length', async () => {
    let seen: { method?: string; type?: string; length?: string; auth?: string; body?: string } = {};
    handler = (req, res, body) => {
      seen = {
        method: req.method,
        type: req.headers['content-type'],
        length: req.headers['content-length'],
        auth: req.headers.authorization,
        body,
      };
      res.writeHead(201, 'Made', { 'content-type': 'application/json', 'x-multi': ['a', 'b'] });
      res.end('{"ok":true}');
    };
    const r = await createHttpFetch()(`${base}/v1/x`, {
      method: 'post',
      headers: new Headers({ 'content-type': 'application/json', Authorization: 'Bearer k' }),
      body: '{"q":1}',
    });
    expect(seen).toEqual({ method: 'POST', type: 'application/json', length: '7', auth: 'Bearer k', body: '{"q":1}' });
    expect([r.status, r.statusText, r.ok, r.url]).toEqual([201, 'Made', true, `${base}/v1/x`]);
    expect(r.headers.get('x-multi')).toBe('a, b');
    expect(await r.json()).toEqual({ ok: true });
  });

  test('a string body outside ASCII goes out as UTF-8, its length in bytes (a lone surrogate as U+FFFD, as fetch sends it)', async () => {
    let seen: { length?: string; body?: string } = {};
    handler = (req, res, body) => {
      seen = { length: req.headers['content-length'], body };
      res.end('{}');
    };
    const text = '{"q":"\u4f60\u597d \ud83d\ude00 \ud800"}';
    await createHttpFetch()(`${base}/v1/x`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: text });
    expect(seen.length).toBe(String(Buffer.byteLength(text)));
    expect(seen.body).toBe('{"q":"\u4f60\u597d \ud83d\ude00 \ufffd"}');
  });

  test('the body streams: the first piece is readable before the server ends', async () => {
    let finish: () => void = () => undefined;
    handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: 1\n\n');
      finish = () => res.end('data: 2\n\n');
    };
    const r = await createHttpFetch()(`${base}/s`);
    const reader = r.body!.getReader();
    const first = await reader.read();
    expect(Buffer.from(first.value!).toString()).toBe('data: 1\n\n');
    finish();
    let rest = '';
    for (let x = await reader.read(); !x.done; x = await reader.read()) rest += Buffer.from(x.value).toString();
    expect(rest).toBe('data: 2\n\n');
  });

  test('connected() on a new connection and again on the kept one it reuses', async () => {
    handler = (_req, res) => res.end('x');
    let connected = 0;
    const f = createHttpFetch({ connected: () => connected++ });
    await (await f(`${base}/a`)).text();
    await (await f(`${base}/b`)).text();
    expect(connected).toBe(2);
  });

  test('bodies in other forms: bytes, URLSearchParams (with its content type), an async iterable', async () => {
    const got: Array<[string | undefined, string]> = [];
    handler = (req, res, body) => {
      got.push([req.headers['content-type'], body]);
      res.end();
    };
    const f = createHttpFetch();
    await f(`${base}/1`, { method: 'PUT', body: new TextEncoder().encode('bytes') });
    await f(`${base}/2`, { method: 'POST', body: new URLSearchParams({ a: '1 2' }) });
    async function* parts() {
      yield 'it';
      yield Buffer.from('er');
    }
    await f(`${base}/3`, { method: 'POST', body: parts() as never });
    expect(got).toEqual([
      [undefined, 'bytes'],
      ['application/x-www-form-urlencoded;charset=UTF-8', 'a=1+2'],
      [undefined, 'iter'],
    ]);
  });

  test('a Request as input, a ReadableStream body, HEAD without a body, an error status passed through as a response', async () => {
    const seen: string[] = [];
    handler = (req, res, body) => {
      seen.push(`${req.method} ${req.url} ${body}`);
      if (req.url === '/fail') return void res.writeHead(503, { 'retry-after': '2' }).end('{"error":"busy"}');
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end(req.method === 'HEAD' ? undefined : 'ok');
    };
    const f = createHttpFetch();
    const fromRequest = await f(new Request(`${base}/req`, { method: 'POST', body: 'from-request' }));
    expect(await fromRequest.text()).toBe('ok');
    const stream = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(new TextEncoder().encode('str'));
        c.enqueue(new TextEncoder().encode('eamed'));
        c.close();
      },
    });
    await (await f(`${base}/stream`, { method: 'POST', body: stream, duplex: 'half' } as RequestInit)).text();
    const head = await f(`${base}/head`, { method: 'HEAD' });
    expect([head.status, head.body, head.headers.get('content-type')]).toEqual([200, null, 'text/plain']);
    const fail = await f(`${base}/fail`);
    expect([fail.ok, fail.status, fail.headers.get('retry-after'), await fail.json()]).toEqual([false, 503, '2', { error: 'busy' }]);
    expect(seen).toEqual(['POST /req from-request', 'POST /stream streamed', 'HEAD /head ', 'GET /fail ']);
  });

  test('redirects: 307 keeps method and body, 303 becomes GET, another origin loses authorization, manual and error', async () => {
    const other = http.createServer((req, res) => res.end(JSON.stringify({ auth: req.headers.authorization ?? null, method: req.method })));
    await new Promise<void>((r) => other.listen(0, '127.0.0.1', r));
    const otherBase = `http://127.0.0.1:${(other.address() as net.AddressInfo).port}`;
    try {
      handler = (req, res, body) => {
        if (req.url === '/307') return void res.writeHead(307, { location: '/echo' }).end();
        if (req.url === '/303') return void res.writeHead(303, { location: '/echo' }).end();
        if (req.url === '/away') return void res.writeHead(302, { location: `${otherBase}/x` }).end();
        if (req.url === '/loop') return void res.writeHead(302, { location: '/loop' }).end();
        res.end(JSON.stringify({ method: req.method, body, auth: req.headers.authorization ?? null }));
      };
      const f = createHttpFetch();
      const post = { method: 'POST', body: 'payload', headers: { authorization: 'Bearer k' } };
      const r307 = await f(`${base}/307`, post);
      expect([await r307.json(), r307.url]).toEqual([{ method: 'POST', body: 'payload', auth: 'Bearer k' }, `${base}/echo`]);
      expect(await (await f(`${base}/303`, post)).json()).toEqual({ method: 'GET', body: '', auth: 'Bearer k' });
      expect(await (await f(`${base}/away`, { headers: { authorization: 'Bearer k' } })).json()).toEqual({ auth: null, method: 'GET' });
      expect((await f(`${base}/307`, { ...post, redirect: 'manual' })).status).toBe(307);
      await expect(f(`${base}/307`, { ...post, redirect: 'error' })).rejects.toMatchObject({ message: 'fetch failed' });
      await expect(f(`${base}/loop`)).rejects.toMatchObject({ message: 'fetch failed', cause: { message: 'redirect count exceeded' } });
    } finally {
      await new Promise((r) => other.close(r));
    }
  });

  test('gzip, deflate and br bodies are decoded; 204 has no body', async () => {
    handler = (req, res) => {
      const enc = req.url!.slice(1);
      if (enc === 'none') return void res.writeHead(204).end();
      const data = Buffer.from('{"packed":true}');
      const packed = enc === 'gzip' ? zlib.gzipSync(data) : enc === 'deflate' ? zlib.deflateSync(data) : zlib.brotliCompressSync(data);
      res.writeHead(200, { 'content-encoding': enc });
      res.end(packed);
    };
    const f = createHttpFetch();
    for (const enc of ['gzip', 'deflate', 'br']) expect(await (await f(`${base}/${enc}`)).json()).toEqual({ packed: true });
    const empty = await f(`${base}/none`);
    expect([empty.status, empty.body]).toEqual([204, null]);
  });

  test('no server: TypeError("fetch failed") with the socket error as cause', async () => {
    const t = await tcpServer(() => undefined);
    await t.close();
    await expect(createHttpFetch()(`http://127.0.0.1:${t.port}/`)).rejects.toMatchObject({
      name: 'TypeError',
      message: 'fetch failed',
      cause: { code: 'ECONNREFUSED' },
    });
  });

  test('a connection that never becomes ready (a TLS handshake never answered): CONNECT_TIMEOUT after the limit', async () => {
    const t = await tcpServer(() => undefined);
    try {
      let connected = false;
      const started = Date.now();
      await expect(
        createHttpFetch({ connectMs: 150, connected: () => (connected = true) })(`https://127.0.0.1:${t.port}/`),
      ).rejects.toMatchObject({ message: 'fetch failed', cause: { code: 'CONNECT_TIMEOUT' } });
      expect(Date.now() - started).toBeGreaterThanOrEqual(140);
      expect(connected).toBe(false);
    } finally {
      await t.close();
    }
  });

  test('a connection cut mid-body errors the body with TypeError("terminated") and a cause', async () => {
    const t = await tcpServer((s) => {
      s.once('data', () => s.write('HTTP/1.1 200 OK\r\ncontent-length: 100\r\n\r\npartial', () => s.destroy()));
    });
    try {
      const r = await createHttpFetch()(`http://127.0.0.1:${t.port}/`);
      const err = await r.text().then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err).toMatchObject({ name: 'TypeError', message: 'terminated' });
      expect((err as { cause?: unknown }).cause).toBeDefined();
    } finally {
      await t.close();
    }
  });

  test('aborting: before the answer rejects with the reason; during the body errors it; an aborted signal never sends', async () => {
    let requests = 0;
    handler = (req, res) => {
      requests++;
      if (req.url === '/hang') return;
      res.writeHead(200);
      res.write('start');
    };
    const f = createHttpFetch();
    const early = new AbortController();
    const p = f(`${base}/hang`, { signal: early.signal });
    setTimeout(() => early.abort(), 50);
    await expect(p).rejects.toMatchObject({ name: 'AbortError' });
    const mid = new AbortController();
    const r = await f(`${base}/body`, { signal: mid.signal });
    const reader = r.body!.getReader();
    await reader.read();
    mid.abort(new Error('stop now'));
    await expect(reader.read()).rejects.toMatchObject({ message: 'stop now' });
    const before = requests;
    await expect(f(`${base}/never`, { signal: AbortSignal.abort() })).rejects.toMatchObject({ name: 'AbortError' });
    expect(requests).toBe(before);
  });

  test('a kept connection the server dropped meanwhile: the request goes once more on a new one; a new one that fails is not retried', async () => {
    let n = 0;
    const t = await tcpServer((s) => {
      const first = n++ === 0;
      let requests = 0;
      s.on('data', () => {
        // The first connection answers once, then drops the next request, as a server's idle
        // timeout racing the reuse would.
        if (first && requests++ > 0) return void s.resetAndDestroy();
        s.write('HTTP/1.1 200 OK\r\ncontent-length: 2\r\nconnection: keep-alive\r\n\r\nok');
      });
    });
    const refuser = await tcpServer((s) => s.once('data', () => s.resetAndDestroy()));
    try {
      const f = createHttpFetch();
      expect(await (await f(`http://127.0.0.1:${t.port}/`)).text()).toBe('ok');
      expect(await (await f(`http://127.0.0.1:${t.port}/`, { method: 'POST', body: 'again' })).text()).toBe('ok');
      expect(n).toBe(2);
      await expect(f(`http://127.0.0.1:${refuser.port}/`)).rejects.toMatchObject({
        message: 'fetch failed',
        cause: { code: 'ECONNRESET' },
      });
    } finally {
      await t.close();
      await refuser.close();
    }
  });
});

describe('over TLS (testkit’s self-signed certificate for 127.0.0.1)', () => {
  test('an untrusted certificate fails as fetch does, with the TLS code as the cause', async () => {
    const tls = await startScriptedServer({ tls: true });
    try {
      await expect(createHttpFetch()(`${tls.baseURL}/models`)).rejects.toMatchObject({
        message: 'fetch failed',
        cause: { code: 'DEPTH_ZERO_SELF_SIGNED_CERT' },
      });
    } finally {
      await tls.close();
    }
  });

  /** A scripted HTTPS server and a SlothTool home whose default profile points at it. */
  async function withTlsProfile(fn: (tls: ScriptedServer, env: NodeJS.ProcessEnv) => Promise<void>): Promise<void> {
    const tls = await startScriptedServer({ tls: true });
    const temp = await createTempHome({ language: 'en' });
    try {
      await temp.writeJson(
        'plugin-configs/llm-base.json',
        llmBaseConfig({ p: llmProfile(tls.baseURL, { api_key: 'sk-tls-test', high_model: 'test-low' }) }),
      );
      await fn(tls, temp.env);
    } finally {
      await tls.close();
      await temp.cleanup();
    }
  }

  test('llm_chat says a certificate it cannot verify is the problem, and names NODE_EXTRA_CA_CERTS', () =>
    withTlsProfile(async (tls, env) => {
      const r = await runNode(
        `require(${JSON.stringify(LIB)}).llm_chat([{ role: 'user', content: 'hi' }]).then((r) => process.stdout.write(JSON.stringify(r)))`,
        env,
      );
      expect(r).toMatchObject({ success: false, error: { code: 'NETWORK_ERROR' } });
      expect(r.error.message).toContain('DEPTH_ZERO_SELF_SIGNED_CERT');
      expect(r.error.message).toContain('NODE_EXTRA_CA_CERTS');
      expect(tls.requests).toHaveLength(0);
    }));

  test('trusted through NODE_EXTRA_CA_CERTS: a streamed reply over HTTPS, and the next call on the kept connection', () =>
    withTlsProfile(async (tls, env) => {
      tls.enqueue({ json: { n: 1 } }, { json: { n: 2 } });
      const code = `const b = require(${JSON.stringify(LIB)}); const m = [{ role: 'user', content: 'hi' }];
        let deltas = 0;
        (async () => {
          const one = await b.llm_chat(m, 'low', null, { onText: () => deltas++ });
          const two = await b.llm_chat(m);
          process.stdout.write(JSON.stringify({ one: one.data, two: two.data, deltas }));
        })();`;
      const r = await runNode(code, { ...env, NODE_EXTRA_CA_CERTS: TEST_TLS.certFile });
      expect(r).toMatchObject({ one: { n: 1 }, two: { n: 2 } });
      expect(r.deltas).toBeGreaterThan(1);
      expect(tls.requests.map((q) => q.path)).toEqual(['/v1/chat/completions', '/v1/chat/completions']);
      expect(tls.requests[0].body.stream).toBe(true);
      expect(tls.requests[1].body.stream).toBeFalsy();
      // Both went over one TLS connection (kept alive between the calls).
      expect(tls.connections).toBe(1);
    }));
});

const LIB = path.join(__dirname, '..', 'lib', 'index.js');

/** Run node code that prints one JSON value (a child, so NODE_EXTRA_CA_CERTS applies). Not
 * execFileSync: the scripted server answers from this process. */
function runNode(code: string, env: NodeJS.ProcessEnv): Promise<any> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ['-e', code], { env, encoding: 'utf8', timeout: 20000 }, (err, out, stderr) => {
      if (err) return reject(new Error(`${err.message}\n${stderr}`));
      try {
        resolve(JSON.parse(out));
      } catch {
        reject(new Error(`not JSON: ${out}\n${stderr}`));
      }
    });
  });
}
