import { promises as fs } from 'fs';
import * as http from 'http';
import type { AddressInfo } from 'net';
import * as path from 'path';
import { chat, cmd, usePtyFixture } from './pty/pty-session';
import { runAi } from './run-bin';

// End-to-end over the real bin and the real tool-runner (issue #35): the model finds a symbol
// with fs.grep, lists files with fs.glob, and searches the web through a SearXNG the user
// configured (a fake one on 127.0.0.1, port 0).

const fx = usePtyFixture();
beforeEach(async () => {
  await fs.mkdir(path.join(fx.cwd, 'src', 'util'), { recursive: true });
  await fs.writeFile(path.join(fx.cwd, 'src', 'util', 'total.js'), 'exports.computeTotal = (items) => items.reduce((a, b) => a + b, 0);\n');
  await fs.writeFile(
    path.join(fx.cwd, 'src', 'main.js'),
    "const { computeTotal } = require('./util/total');\nconsole.log(computeTotal([1, 2]));\n",
  );
  await fs.writeFile(path.join(fx.cwd, '.env'), 'computeTotal_SECRET=hunter2-secret-value\n');
  await fs.writeFile(path.join(fx.cwd, '.gitignore'), 'build/\n');
  await fs.mkdir(path.join(fx.cwd, 'build'));
  await fs.writeFile(path.join(fx.cwd, 'build', 'bundle.js'), 'function computeTotal() {}\n');
});

/** The tool results the model received in request `i`. */
function resultsOf(i: number): Array<Record<string, any>> {
  const out: Array<Record<string, any>> = [];
  for (const m of fx.server.requests[i].body.messages as Array<{ role: string; content: string }>) {
    if (m.role !== 'user' || !m.content.startsWith('{')) continue;
    const v = JSON.parse(m.content);
    if (v?._event === 'tool_result') out.push(v);
  }
  return out;
}

test('fs.grep finds a symbol and fs.glob lists files, without a question (L0), .gitignore and secret files respected', async () => {
  fx.server.enqueue(
    cmd(
      'find where computeTotal is defined',
      { tool: 'fs.grep', pattern: 'computeTotal\\s*=', glob: '*.js' },
      { tool: 'fs.glob', pattern: 'src/**/*.js' },
    ),
    chat('`computeTotal` is defined in src/util/total.js, line 1.'),
  );
  const r = await runAi(['-p', 'where is computeTotal defined?', '--json'], { env: fx.env, cwd: fx.cwd });
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  const [grep, glob] = resultsOf(1).slice(-2);
  expect(grep).toMatchObject({
    tool: 'fs.grep',
    matches: [{ file: 'src/util/total.js', line: 1, text: 'exports.computeTotal = (items) => items.reduce((a, b) => a + b, 0);' }],
    total: 1,
    decision: { level: 'L0', by: 'policy' },
  });
  expect(glob).toMatchObject({ tool: 'fs.glob', total: 2, decision: { level: 'L0' } });
  expect([...glob.files].sort()).toEqual(['src/main.js', 'src/util/total.js']);
  expect(JSON.stringify(fx.server.requests[1].body)).not.toContain('hunter2');
  expect(r.events.some((e) => e.type === 'confirm')).toBe(false);
  expect(r.events.at(-1)).toMatchObject({ type: 'final', outcome: 'answered' });
});

test('web.search through a SearXNG the user configured on 127.0.0.1; without a provider the model is told which setting', async () => {
  const queries: string[] = [];
  const searx = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    queries.push(`${url.pathname}?${url.searchParams.toString()}`);
    res.writeHead(200, { 'content-type': 'application/json' }).end(
      JSON.stringify({
        results: [
          {
            title: 'Array.prototype.reduce()',
            url: 'https://developer.mozilla.org/reduce',
            content: 'The reduce() method executes a reducer',
          },
        ],
      }),
    );
  });
  await new Promise<void>((r) => searx.listen(0, '127.0.0.1', r));
  try {
    const port = (searx.address() as AddressInfo).port;
    fx.server.enqueue(cmd('look it up', { tool: 'web.search', query: 'js reduce initial value' }), chat('Pass 0 as the initial value.'));
    const none = await runAi(['-p', 'search', '--json'], { env: fx.env, cwd: fx.cwd });
    expect(none.code).toBe(0);
    expect(resultsOf(1).at(-1)).toMatchObject({
      tool: 'web.search',
      status: 'error',
      error: { code: 'NO_PROVIDER', message: expect.stringContaining('"webSearch"') },
      decision: { level: 'L0' },
    });
    expect(none.events.some((e) => e.type === 'confirm')).toBe(false);

    await fx.temp.writeJson('plugin-configs/ai.json', {
      webSearch: { provider: 'searxng', url: `http://127.0.0.1:${port}` },
      permissions: { allow: ['web.search'] },
    });
    const first = fx.server.requests.length;
    fx.server.enqueue(
      cmd('look it up', { tool: 'web.search', query: 'js reduce initial value', maxResults: 3 }),
      chat('Pass 0 as the initial value.'),
    );
    const r = await runAi(['-p', 'how do I give reduce a start value?', '--json'], { env: fx.env, cwd: fx.cwd });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(queries).toEqual(['/search?q=js+reduce+initial+value&format=json']);
    expect(resultsOf(first + 1).at(-1)).toMatchObject({
      tool: 'web.search',
      provider: 'searxng',
      results: [
        {
          title: 'Array.prototype.reduce()',
          url: 'https://developer.mozilla.org/reduce',
          snippet: 'The reduce() method executes a reducer',
        },
      ],
      decision: { level: 'L0' },
    });
    expect(r.events.some((e) => e.type === 'confirm')).toBe(false);
  } finally {
    searx.closeAllConnections();
    await new Promise((r) => searx.close(r));
  }
});

test('a bad webSearch in ai.json stops ai with a message naming the field', async () => {
  await fx.temp.writeJson('plugin-configs/ai.json', { webSearch: { provider: 'brave', apiKey: 'BSA-literal-key' } });
  const r = await runAi(['-p', 'hi'], { env: fx.env, cwd: fx.cwd });
  expect(r.code).not.toBe(0);
  expect(r.stderr).toMatch(/webSearch\.apiKey/);
  expect(r.stderr).toMatch(/env:NAME/);
});
