import * as http from 'http';
import type { AddressInfo } from 'net';
import * as zlib from 'zlib';
import { eachReturns } from '@holic512/testkit';
import { htmlToText, htmlTitle } from '../src/html-text';
import { addressKind, checkedAddress } from '../src/net-guard';
import { runHttpGet } from '../src/tools/http-get';
import type { ToolSession } from '../src/tools/session';
import { tempWorld, testCtx, testSession } from './tools-session';

let server: http.Server;
let port: number;
let world: Awaited<ReturnType<typeof tempWorld>>;

const PAGE = `<!doctype html><html><head><title>Docs &amp; more</title><style>.x{color:red}</style><script>alert("no")</script></head>
<body><h1>Install</h1><p>Run <code>npm i</code> &mdash; then <a href="/next">read on</a>.</p><!-- hidden -->
<ul><li>one</li><li>two</li></ul><p>key: ghp_abcdefghijklmnopqrstuvwxyz0123456789</p></body></html>`;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const url = req.url ?? '/';
    if (url === '/page') return void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PAGE);
    if (url === '/a') return void res.writeHead(302, { location: '/b' }).end();
    if (url === '/b') return void res.writeHead(301, { location: `http://127.0.0.1:${port}/a` }).end();
    if (url.startsWith('/r/')) return void res.writeHead(302, { location: `/r/${Number(url.slice(3)) + 1}` }).end();
    if (url === '/to-page') return void res.writeHead(302, { location: '/page' }).end();
    if (url === '/to-evil') return void res.writeHead(302, { location: `http://evil.test:${port}/page` }).end();
    if (url === '/big') return void res.writeHead(200, { 'content-type': 'text/plain' }).end('x'.repeat(1024 * 1024));
    if (url === '/gz')
      return void res.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'gzip' }).end(zlib.gzipSync('zipped text'));
    if (url === '/png') return void res.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.alloc(100));
    if (url === '/latin1')
      return void res.writeHead(200, { 'content-type': 'text/plain; charset=iso-8859-1' }).end(Buffer.from([0x63, 0x61, 0x66, 0xe9]));
    if (url === '/hang') return; // never answers
    res.writeHead(404, { 'content-type': 'text/plain' }).end('nope');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});
beforeEach(async () => {
  world = await tempWorld();
});
afterEach(async () => {
  await world.cleanup();
});

/** `*.test` names resolve to 127.0.0.1, as a hostile DNS answer would. */
const testResolver = async (host: string) => {
  if (host.endsWith('.test')) return [{ address: '127.0.0.1', family: 4 }];
  throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
};

function session(over: Partial<ToolSession> = {}, http: Partial<ToolSession['http']> = {}): ToolSession {
  const s = testSession(world.ws, world.home, { allowPrivateNetwork: true, ...over }, testResolver);
  s.http = { ...s.http, ...http };
  return s;
}
const get = async (url: string, s: ToolSession) => (await runHttpGet({ tool: 'http.get', url }, testCtx(s))) as Record<string, any>;
const base = () => `http://127.0.0.1:${port}`;

test('HTML becomes text: title, headings, lists, absolute links; scripts, styles and comments dropped; secrets redacted', async () => {
  const r = await get(`${base()}/page`, session());
  expect(r).toMatchObject({ tool: 'http.get', httpStatus: 200, contentType: 'text/html', title: 'Docs & more', truncated: false });
  expect(r.content).toContain('# Install');
  expect(r.content).toContain(`Run npm i — then read on (${base()}/next).`);
  expect(r.content).toContain('- one\n- two');
  expect(r.content).not.toMatch(/alert|color:red|hidden/);
  expect(r.content).not.toContain('ghp_abcdefghij');
});

test.each([
  ['loopback by default', () => `${base()}/page`, {}, 'PRIVATE_ADDRESS'],
  ['IPv4-mapped IPv6 loopback', () => `http://[::ffff:127.0.0.1]:${port}/page`, {}, 'PRIVATE_ADDRESS'],
  ['a name that resolves to loopback', () => `http://docs.test:${port}/page`, {}, 'PRIVATE_ADDRESS'],
  [
    'a redirect hop to a name that resolves to loopback',
    () => `http://start.test:${port}/to-evil`,
    { allowPrivateNetwork: ['start.test'] },
    'PRIVATE_ADDRESS',
  ],
  ['redirect loop', () => `${base()}/a`, { allowPrivateNetwork: true }, 'REDIRECT_LOOP'],
  ['too many redirects', () => `${base()}/r/0`, { allowPrivateNetwork: true }, 'TOO_MANY_REDIRECTS'],
  ['not text', () => `${base()}/png`, { allowPrivateNetwork: true }, 'NOT_TEXT'],
  ['not http', () => 'file:///etc/passwd', { allowPrivateNetwork: true }, 'SCHEME'],
  ['not a URL', () => 'ht!tp:/x', { allowPrivateNetwork: true }, 'INVALID_URL'],
])('%s → error', async (_name, url, over, code) => {
  const r = await get(url(), session({ allowPrivateNetwork: false, ...over } as Partial<ToolSession>));
  expect(r.status).toBe('error');
  expect(r.error.code).toBe(code);
  if (code === 'PRIVATE_ADDRESS') {
    expect(r.error.message).toMatch(/(127\.0\.0\.1|::ffff:7f00:1) \(loopback\)/);
    expect(r.error.hint).toContain('allowPrivateNetwork');
  }
});

test('an allowed host may redirect within itself', async () => {
  const r = await get(`http://start.test:${port}/to-page`, session({ allowPrivateNetwork: ['start.test'] }));
  expect(r).toMatchObject({ httpStatus: 200, title: 'Docs & more', finalUrl: `http://start.test:${port}/page` });
  expect(r.redirects).toEqual([`http://start.test:${port}/page`]);
});

test('an oversize body is cut at the cap and said so', async () => {
  const r = await get(`${base()}/big`, session({}, { maxBytes: 64 * 1024 }));
  expect(r).toMatchObject({ httpStatus: 200, bytes: 64 * 1024, truncated: true });
  expect(r.note).toMatch(/65536 bytes/);
});

test('gzip is decompressed; a declared charset is honoured; 404 bodies still come back', async () => {
  expect((await get(`${base()}/gz`, session())).content).toBe('zipped text');
  expect((await get(`${base()}/latin1`, session())).content).toBe('café');
  expect(await get(`${base()}/missing`, session())).toMatchObject({ httpStatus: 404, content: 'nope' });
});

test('a server that never answers times out', async () => {
  const r = await get(`${base()}/hang`, session({}, { timeoutMs: 300 }));
  expect(r.error.code).toBe('TIMEOUT');
});

describe('address checks', () => {
  eachReturns('%s is %s', (addr: string) => addressKind(addr).kind, [
    ['127.0.0.1', 'private'],
    ['10.0.0.8', 'private'],
    ['172.16.5.4', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'private'],
    ['100.64.0.1', 'private'],
    ['0.0.0.0', 'private'],
    ['::1', 'private'],
    ['::', 'private'],
    ['fe80::1', 'private'],
    ['fd00::1', 'private'],
    ['::ffff:10.0.0.1', 'private'],
    ['::ffff:7f00:1', 'private'],
    ['64:ff9b::7f00:1', 'private'],
    ['2002:7f00:1::1', 'private'],
    ['8.8.8.8', 'public'],
    ['2606:4700::1111', 'public'],
  ]);

  test('a name with one private address among public ones is refused; the checked address is the one returned', async () => {
    const mixed = async () => [
      { address: '93.184.216.34', family: 4 },
      { address: '127.0.0.1', family: 4 },
    ];
    await expect(checkedAddress('rebind.example', false, mixed)).rejects.toMatchObject({ code: 'PRIVATE_ADDRESS', address: '127.0.0.1' });
    await expect(checkedAddress('ok.example', false, async () => [{ address: '93.184.216.34', family: 4 }])).resolves.toEqual({
      address: '93.184.216.34',
      family: 4,
    });
    await expect(checkedAddress('localhost', false, async () => [{ address: '93.184.216.34', family: 4 }])).rejects.toMatchObject({
      code: 'PRIVATE_ADDRESS',
    });
  });
});

describe('htmlToText', () => {
  test('entities, images, tables, unclosed script stays linear', () => {
    expect(htmlToText('<p>a&lt;b &#x41;&#66;</p><img alt="logo"><table><tr><td>x</td><td>y</td></tr></table>')).toBe(
      'a<b AB\n\n[logo]\n\nx | y |',
    );
    expect(htmlTitle('<title> A\n B </title>')).toBe('A B');
    const hostile = '<script>'.repeat(50000) + 'tail';
    expect(htmlToText(hostile)).toBe('');
    expect(htmlToText('<a href="javascript:alert(1)">x</a>')).toBe('x');
  });
});
