import * as http from 'http';
import type { AddressInfo } from 'net';
import { runWebSearch, type WebSearchSettings } from '../src/tools/web-search';
import type { ToolSession } from '../src/tools/session';
import { tempWorld, testCtx, testSession } from './tools-session';

/** What the fake providers saw. */
const seen: Array<{ method: string; url: string; headers: http.IncomingHttpHeaders; body: string }> = [];
let server: http.Server;
let base: string;
let world: Awaited<ReturnType<typeof tempWorld>>;

const RESULTS = [
  { title: 'Zod <b>docs</b>', url: 'https://zod.dev/', content: 'TypeScript-first schema validation &amp; more' },
  {
    title: 'Leak',
    url: 'https://x.test/?t=ghp_abcdefghijklmnopqrstuvwxyz0123456789',
    content: 'key ghp_abcdefghijklmnopqrstuvwxyz0123456789',
  },
  { title: 'No url', url: '', content: 'dropped' },
  { title: 'Three', url: 'https://three.test/', content: 'c' },
];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      const url = new URL(req.url ?? '/', 'http://x');
      const json = (status: number, value: unknown) =>
        void res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
      if (url.pathname === '/searx/search') return json(200, { query: url.searchParams.get('q'), results: RESULTS });
      if (url.pathname === '/brave')
        return json(200, { web: { results: RESULTS.map((r) => ({ title: r.title, url: r.url, description: r.content })) } });
      if (url.pathname === '/tavily') return json(200, { query: 'q', results: RESULTS });
      if (url.pathname === '/down/search') return json(503, { error: 'engine down' });
      if (url.pathname === '/html/search') return void res.writeHead(200, { 'content-type': 'text/html' }).end('<html>not json</html>');
      if (url.pathname === '/moved/search') return void res.writeHead(302, { location: 'http://169.254.169.254/' }).end();
      res.writeHead(404).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});
beforeEach(async () => {
  world = await tempWorld();
  seen.length = 0;
});
afterEach(async () => {
  await world.cleanup();
});

function search(
  webSearch: WebSearchSettings | undefined,
  query: string,
  extra: { maxResults?: number; env?: NodeJS.ProcessEnv; session?: Partial<ToolSession> } = {},
) {
  const session = testSession(world.ws, world.home, { ...(webSearch ? { webSearch } : {}), ...extra.session });
  const step = { tool: 'web.search' as const, query, ...(extra.maxResults ? { maxResults: extra.maxResults } : {}) };
  return runWebSearch(step, testCtx(session, { env: extra.env ?? {} })) as Promise<Record<string, any>>;
}

describe('web.search providers', () => {
  test('SearXNG on a loopback address the user configured: GET /search?q=…&format=json; results redacted, tags dropped, capped', async () => {
    const r = await search({ provider: 'searxng', url: `${base}/searx` }, 'zod schema', { maxResults: 2 });
    expect(seen[0]).toMatchObject({ method: 'GET', url: '/searx/search?q=zod+schema&format=json' });
    expect(r.results).toHaveLength(2);
    expect(r.results[0]).toEqual({ title: 'Zod docs', url: 'https://zod.dev/', snippet: 'TypeScript-first schema validation & more' });
    expect(JSON.stringify(r)).not.toMatch(/ghp_abcdef/);
    expect(r).toMatchObject({ provider: 'searxng', summary: 'searxng: 2 results' });
  });

  test('Brave: the key from the named environment variable in X-Subscription-Token, count sent; empty URLs dropped', async () => {
    const r = await search({ provider: 'brave', url: `${base}/brave`, apiKey: 'env:BRAVE_TEST_KEY' }, 'q', {
      env: { BRAVE_TEST_KEY: 'brave-key-1' },
    });
    expect(seen[0].headers['x-subscription-token']).toBe('brave-key-1');
    expect(new URL(seen[0].url, 'http://x').searchParams.get('count')).toBe('8');
    expect(r.results.map((h: { url: string }) => h.url)).toEqual([
      'https://zod.dev/',
      expect.stringContaining('https://x.test/'),
      'https://three.test/',
    ]);
  });

  test('Tavily: POST JSON {query, max_results} with a bearer key', async () => {
    const r = await search({ provider: 'tavily', url: `${base}/tavily`, apiKey: 'env:TAVILY_TEST_KEY' }, 'what is zod', {
      maxResults: 3,
      env: { TAVILY_TEST_KEY: 'tvly-1' },
    });
    expect(seen[0]).toMatchObject({ method: 'POST', url: '/tavily' });
    expect(seen[0].headers.authorization).toBe('Bearer tvly-1');
    expect(JSON.parse(seen[0].body)).toEqual({ query: 'what is zod', max_results: 3 });
    expect(r.results).toHaveLength(3);
  });
});

describe('web.search failures say what to do', () => {
  test.each([
    ['no provider configured', undefined, {}, 'NO_PROVIDER', /set "webSearch" in .*ai\.json/],
    [
      'a key variable that is not set',
      { provider: 'brave', url: 'http://127.0.0.1:9/brave', apiKey: 'env:NOT_SET_HERE' },
      {},
      'NO_API_KEY',
      /NOT_SET_HERE is not set/,
    ],
    ['a provider error', { provider: 'searxng', url: 'BASE/down' }, {}, 'PROVIDER_ERROR', /HTTP 503/],
    ['an answer that is not JSON', { provider: 'searxng', url: 'BASE/html' }, {}, 'PROVIDER_ERROR', /not the JSON search result/],
    ['a redirect (never followed)', { provider: 'searxng', url: 'BASE/moved' }, {}, 'PROVIDER_ERROR', /HTTP 302/],
  ] as const)('%s', async (_name, settings, env, code, message) => {
    const s = settings ? ({ ...settings, url: settings.url.replace('BASE', base) } as WebSearchSettings) : undefined;
    const r = await search(s, 'q', { env });
    expect(r.status).toBe('error');
    expect(r.error.code).toBe(code);
    expect(r.error.message).toMatch(message);
    if (code === 'NO_PROVIDER') expect(r.error.hint).toMatch(/"provider": "searxng"/);
    if (code === 'PROVIDER_ERROR' && /302/.test(String(message))) expect(seen).toHaveLength(1);
  });

  test('a default provider endpoint whose name resolves to a private address is refused (DNS cannot point it inward)', async () => {
    const resolver = async () => [{ address: '127.0.0.1', family: 4 }];
    const session = { http: { timeoutMs: 2000, maxBytes: 65536, maxRedirects: 5, resolve: resolver } };
    const r = await search({ provider: 'brave', apiKey: 'env:K' }, 'q', { env: { K: 'k' }, session });
    expect(r.status).toBe('error');
    expect(r.error.code).toBe('PRIVATE_ADDRESS');
    expect(seen).toHaveLength(0);
  });
});

describe('web.search through the runner', () => {
  test('asked (L1) by default; an allow rule `web.search` lets it run without a question; the runner passes its settings', async () => {
    const { createToolRunner } = await import('../src/runner');
    const asked: string[] = [];
    const make = (allow: string[]) =>
      createToolRunner({
        cwd: world.ws,
        lang: 'en',
        env: { HOME: world.home, SLOTHTOOL_HOME: `${world.home}/.slothtool` },
        sandbox: 'off',
        policy: { permissions: { allow } },
        webSearch: { provider: 'searxng', url: `${base}/searx` },
        confirm: (req) => {
          asked.push(req.decision.rules[0].id);
          return { action: 'decline' };
        },
      });
    const declined = (await make([]).run({ tool: 'web.search', query: 'zod' } as never)) as Record<string, any>;
    expect(declined.status).toBe('declined');
    expect(asked).toEqual(['web.search']);
    const ran = (await make(['web.search']).run({ tool: 'web.search', query: 'zod' } as never)) as Record<string, any>;
    expect(ran.results).toHaveLength(3);
    expect(ran.decision.rules.map((r: { id: string }) => r.id)).toContain('permission.allow');
    expect(asked).toHaveLength(1);
  });

  test('without a provider nothing would be sent: no question, and the result names the setting', async () => {
    const { createToolRunner } = await import('../src/runner');
    let asked = 0;
    const runner = createToolRunner({
      cwd: world.ws,
      lang: 'en',
      env: { HOME: world.home, SLOTHTOOL_HOME: `${world.home}/.slothtool` },
      sandbox: 'off',
      confirm: () => {
        asked++;
        return { action: 'run' };
      },
    });
    const r = (await runner.run({ tool: 'web.search', query: 'zod' } as never)) as Record<string, any>;
    expect(asked).toBe(0);
    expect(r).toMatchObject({
      status: 'error',
      error: { code: 'NO_PROVIDER' },
      decision: { level: 'L0', rules: [{ id: 'web.search.unconfigured' }] },
    });
    expect(seen).toHaveLength(0);
  });
});
