import { promises as fs } from 'fs';
import * as http from 'http';
import * as path from 'path';
import { FRAMED_CORPUS, SECRET_CORPUS as BASE_CORPUS, fakeToken, findLeak } from '@holic512/testkit';

/** Every format of both corpora (the second: the field's formats in the framings tools print them in). */
const SECRET_CORPUS = [...BASE_CORPUS, ...FRAMED_CORPUS];
/** Each secret, and each of its pieces where it spans lines (a key block): a leak of one line is a leak. */
const secretPieces = (list: typeof SECRET_CORPUS): string[][] =>
  list.flatMap((s) => (s.parts ?? [s.secret]).map((piece, i) => [s.parts ? `${s.name} (part ${i + 1})` : s.name, piece]));
import { chat, cmd, createPtyFixture, type PtyFixture } from './pty/pty-session';
import { runAi } from './run-bin';

// End to end over the real `ai -p --json` bin, this repo's llm-base and the real tool-runner:
// every secret of the corpus sits in the project, the .env is piped into `ai -p`, the model
// asks for the files plain and transformed (base64, reversed, grep -v, awk), and nothing the
// model server received, nothing in the session file, the audit log, the call log or the
// --json events holds a secret, as it is or base64 / hex / reversed. The private files are 0600
// in 0700 folders.

let fx: PtyFixture;
const PROFILE_KEY = `sk-proj-${fakeToken('e2e-profile-key', 48)}`;
const ENV_TOKEN = fakeToken('e2e-env-token', 30);
const ENV_FILE_SECRET = fakeToken('e2e-dotenv', 26);

async function setup(sandbox: 'off' | 'auto', aiConfig: Record<string, unknown> = {}): Promise<void> {
  fx = await createPtyFixture({ aiConfig: { sandbox, ...aiConfig } });
  await fx.temp.writeJson('plugin-configs/llm-base.json', {
    default_profile: 'local',
    profiles: {
      local: {
        base_url: fx.server.baseURL,
        api_key: PROFILE_KEY,
        low_model: 'test-low',
        high_model: 'test-high',
        timeout: 30000,
        max_retries: 0,
      },
    },
  });
  await fs.mkdir(path.join(fx.cwd, 's'));
  for (const [i, s] of SECRET_CORPUS.entries()) await fs.writeFile(path.join(fx.cwd, 's', `${i}-${s.file.replace(/^\./, '')}`), s.text);
  await fs.writeFile(path.join(fx.cwd, '.env'), `APP_NAME=demo\nSTRIPE_SECRET=${ENV_FILE_SECRET}\n`);
  // The value of a secret-looking variable, written by some tool in an encoded form.
  await fs.writeFile(
    path.join(fx.cwd, 'enc.txt'),
    `${Buffer.from(ENV_TOKEN).toString('base64')}\n${Buffer.from(PROFILE_KEY).toString('hex')}\n`,
  );
}
afterEach(async () => {
  await fx.cleanup();
});

async function walkFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const e of await fs.readdir(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...(await walkFiles(p)));
    else out.push(p);
  }
  return out;
}

test('no secret reaches the model, the session, the audit log, the call log or the --json events', async () => {
  // The OS sandbox would hide .env from the commands; this test is about the gate, so the
  // transforms (base64, rev, grep -v, awk) must really run and print.
  await setup('off');
  const files = SECRET_CORPUS.map((s, i) => `s/${i}-${s.file.replace(/^\./, '')}`);
  fx.server.enqueue(
    cmd(
      'look at everything',
      { tool: 'exec', program: 'grep', args: ['-rn', '.', 's'] },
      { tool: 'exec', program: 'cat', args: ['.env', 'enc.txt'] },
      { tool: 'exec', program: 'base64', args: ['.env'] },
      { tool: 'exec', program: 'rev', args: ['.env'] },
      { tool: 'exec', program: 'grep', args: ['-v', 'APP_NAME', '.env'] },
      { tool: 'exec', program: 'awk', args: ['-F=', '{print $2}', '.env'] },
      { tool: 'fs.read', path: files[0] },
    ),
    cmd('and the rest', ...files.slice(1).map((f) => ({ tool: 'fs.read', path: f }))),
    cmd('write a note', { tool: 'fs.write', path: 'note.txt', content: `copy of ${ENV_FILE_SECRET}\n` }),
    chat('done'),
  );
  const piped = `${SECRET_CORPUS.map((s) => s.text).join('\n')}\n`;
  const r = await runAi(['-p', 'check this', '--approve-l1', '--max-steps', '10', '--json'], {
    env: { ...fx.env, MY_SERVICE_TOKEN: ENV_TOKEN },
    cwd: fx.cwd,
    input: piped,
  });
  expect(r.code).toBe(0);
  expect(fx.server.requests.length).toBeGreaterThanOrEqual(4);

  const home = fx.temp.slothtoolHome;
  const sessionFiles = await walkFiles(path.join(home, 'ai', 'sessions'));
  expect(sessionFiles.length).toBeGreaterThan(0);
  const auditFile = path.join(home, 'ai', 'audit.jsonl');
  const callLog = path.join(home, 'plugin-configs', 'llm-base.calls.jsonl');
  const places: Array<[string, string]> = [
    ['model requests', JSON.stringify(fx.server.requests.map((q) => q.body))],
    ['--json events', r.stdout],
    ['audit log', await fs.readFile(auditFile, 'utf8')],
    ['call log', await fs.readFile(callLog, 'utf8')],
    ...(await Promise.all(
      sessionFiles.map(async (f): Promise<[string, string]> => [`session ${path.basename(f)}`, await fs.readFile(f, 'utf8')]),
    )),
  ];
  const secrets = [...secretPieces(SECRET_CORPUS), ['profile key', PROFILE_KEY], ['env token', ENV_TOKEN], ['.env value', ENV_FILE_SECRET]];
  const leaks: string[] = [];
  for (const [where, text] of places) {
    for (const [name, secret] of secrets) {
      const form = findLeak(text, secret) ?? (text.includes(secret) ? secret : undefined);
      if (form) leaks.push(`${name} in ${where} (as ${form.slice(0, 12)}…)`);
    }
  }
  expect(leaks).toEqual([]);

  // The tools really ran and their output reached the model, masked.
  const lastRequest = JSON.stringify(fx.server.requests.at(-1)!.body);
  expect(lastRequest).toContain('[redacted');
  expect(lastRequest).toContain('APP_NAME=demo');
  const afterFirst = JSON.stringify(fx.server.requests[1].body);
  // base64 / rev / awk of .env: the value is known by then (masked once through its name).
  expect(afterFirst).toMatch(/redacted known secret, base64/);
  expect(afterFirst).toMatch(/redacted known secret, reversed/);
  expect(afterFirst).toContain('search_matches');
  expect(JSON.stringify(fx.server.requests[2].body).split('\\"tool\\":\\"fs.read\\"').length).toBeGreaterThan(20);
  // The audit log names what ran, never file contents: fs.write content is a length and a hash.
  const audit = (await fs.readFile(auditFile, 'utf8'))
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  expect(audit.find((a) => a.step.tool === 'fs.write')?.step.content).toEqual({
    chars: ENV_FILE_SECRET.length + 9,
    sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
  });

  const mode = async (p: string) => (await fs.stat(p)).mode & 0o777;
  expect(await mode(path.join(home, 'ai'))).toBe(0o700);
  expect(await mode(path.join(home, 'ai', 'sessions'))).toBe(0o700);
  for (const f of [...sessionFiles, auditFile, callLog]) expect(await mode(f)).toBe(0o600);
});

test('with the sandbox hiding .env, a value of it is still known to the gate (the workspace .env files are read at start)', async () => {
  await setup('auto');
  fx.server.enqueue(
    cmd('try', { tool: 'exec', program: 'cat', args: ['.env'] }),
    cmd('write a note', { tool: 'fs.write', path: 'note.txt', content: `copy of ${ENV_FILE_SECRET}\n` }),
    chat('done'),
  );
  const r = await runAi(['-p', 'check', '--approve-l1', '--json'], { env: fx.env, cwd: fx.cwd });
  expect(r.code).toBe(0);
  const sent = JSON.stringify(fx.server.requests.map((q) => q.body));
  expect(findLeak(sent, ENV_FILE_SECRET) ?? (sent.includes(ENV_FILE_SECRET) ? 'plain' : undefined)).toBeUndefined();
  expect(r.stdout).toContain('copy of [redacted known secret');
});

test('the other paths: a background process, an http.get of a local server and a json_patch copy leak no secret either', async () => {
  // A local server that answers with every secret of the corpus.
  const body = SECRET_CORPUS.map((x) => x.text).join('\n');
  const server = http.createServer((_req, res) => res.end(body));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.address() as { port: number }).port;
  try {
    await setup('off', { allowPrivateNetwork: ['127.0.0.1'] });
    const files = SECRET_CORPUS.map((x, i) => `s/${i}-${x.file.replace(/^\./, '')}`);
    await fs.writeFile(
      path.join(fx.cwd, 'app.json'),
      `${JSON.stringify({ name: 'demo', api_key: PROFILE_KEY.slice(8), settings: {} }, null, 2)}\n`,
    );
    fx.server.enqueue(
      cmd(
        'everything else',
        { tool: 'proc.start', program: 'cat', args: files.slice(0, 24) },
        { tool: 'proc.start', program: 'cat', args: files.slice(24) },
        { tool: 'proc.status', proc_id: 'proc_1', wait_ms: 10000 },
        { tool: 'proc.status', proc_id: 'proc_2', wait_ms: 10000 },
        { tool: 'http.get', url: `http://127.0.0.1:${port}/secrets` },
        { tool: 'config.json_patch', file: 'app.json', patch: [{ op: 'copy', from: '/api_key', path: '/settings/backup' }] },
      ),
      chat('done'),
    );
    const r = await runAi(['-p', 'check the rest', '--approve-l1', '--max-steps', '10', '--json'], { env: fx.env, cwd: fx.cwd });
    expect(r.code).toBe(0);
    const results = r.events.filter((e) => e.type === 'tool_result').map((e) => e.result);
    expect(results.map((x) => x.tool)).toEqual(['proc.start', 'proc.start', 'proc.status', 'proc.status', 'http.get', 'config.json_patch']);
    // They really ran and brought text back, masked.
    expect(results[2].stdoutTail + results[3].stdoutTail).toContain('[redacted');
    expect(JSON.stringify(results[4])).toContain('[redacted');
    expect(results[5]).toMatchObject({ status: 'applied', changes: [{ path: '/settings/backup', kind: 'added' }] });
    const home = fx.temp.slothtoolHome;
    const sessionFiles = await walkFiles(path.join(home, 'ai', 'sessions'));
    const places: Array<[string, string]> = [
      ['model requests', JSON.stringify(fx.server.requests.map((q) => q.body))],
      ['--json events', r.stdout],
      ['audit log', await fs.readFile(path.join(home, 'ai', 'audit.jsonl'), 'utf8')],
      ['call log', await fs.readFile(path.join(home, 'plugin-configs', 'llm-base.calls.jsonl'), 'utf8')],
      ...(await Promise.all(
        sessionFiles.map(async (f): Promise<[string, string]> => [`session ${path.basename(f)}`, await fs.readFile(f, 'utf8')]),
      )),
    ];
    const leaks: string[] = [];
    for (const [where, text] of places) {
      for (const [name, secret] of [...secretPieces(SECRET_CORPUS), ['profile key', PROFILE_KEY], ['copied key', PROFILE_KEY.slice(8)]]) {
        const form = findLeak(text, secret) ?? (text.includes(secret) ? secret : undefined);
        if (form) leaks.push(`${name} in ${where} (as ${form.slice(0, 12)}…)`);
      }
    }
    expect(leaks).toEqual([]);
  } finally {
    await new Promise((r) => server.close(r));
  }
});

test('private files found wider are narrowed', async () => {
  await setup('auto');
  const home = fx.temp.slothtoolHome;
  await fs.mkdir(path.join(home, 'ai', 'sessions'), { recursive: true, mode: 0o755 });
  await fs.chmod(path.join(home, 'ai'), 0o755);
  await fs.chmod(path.join(home, 'ai', 'sessions'), 0o755);
  await fs.writeFile(path.join(home, 'ai', 'audit.jsonl'), '', { mode: 0o644 });
  await fs.chmod(path.join(home, 'ai', 'audit.jsonl'), 0o644);
  fx.server.enqueue(cmd('list', { tool: 'exec', program: 'ls', args: [] }), chat('ok'));
  const r = await runAi(['-p', 'hi', '--json'], { env: fx.env, cwd: fx.cwd });
  expect(r.code).toBe(0);
  const mode = async (p: string) => (await fs.stat(p)).mode & 0o777;
  expect(await mode(path.join(home, 'ai'))).toBe(0o700);
  expect(await mode(path.join(home, 'ai', 'sessions'))).toBe(0o700);
  expect(await mode(path.join(home, 'ai', 'audit.jsonl'))).toBe(0o600);
});

test('the system prompt carries the project memory and appended text masked: no secret of them reaches a request or the session', async () => {
  await setup('off');
  await fs.mkdir(path.join(fx.cwd, '.git'), { recursive: true });
  const memory = SECRET_CORPUS.map((s) => s.text).join('\n');
  await fs.writeFile(path.join(fx.cwd, 'AGENTS.md'), `# Project notes\n\n${memory}\n`);
  const appended = `deploy with token ghp_${fakeToken('e2e-appended', 36)}`;
  fx.server.enqueue(chat('noted'), chat('still noted'));
  const first = await runAi(['-p', 'hi', '--append-system-prompt', appended], { env: fx.env, cwd: fx.cwd });
  expect(first.code).toBe(0);
  // `--continue` sends the recorded prompt again: masked the same way, byte for byte.
  const again = await runAi(['-c', '-p', 'and again'], { env: fx.env, cwd: fx.cwd });
  expect(again.code).toBe(0);
  // Our system prompt (llm-base puts its own JSON-mode line before it).
  const system = (i: number) =>
    (fx.server.requests[i].body as { messages: Array<{ role: string; content: string }> }).messages.find(
      (m) => m.role === 'system' && m.content.includes('# Project notes'),
    )!;
  expect(system(0).content).toContain('[redacted');
  expect(system(1).content).toBe(system(0).content);
  const sessionFiles = await walkFiles(path.join(fx.temp.slothtoolHome, 'ai', 'sessions'));
  const places: Array<[string, string]> = [
    ['model requests', JSON.stringify(fx.server.requests.map((q) => q.body))],
    ...(await Promise.all(
      sessionFiles.map(async (f): Promise<[string, string]> => [`session ${path.basename(f)}`, await fs.readFile(f, 'utf8')]),
    )),
  ];
  const leaks: string[] = [];
  for (const [where, text] of places)
    for (const [name, secret] of [...secretPieces(SECRET_CORPUS), ['appended token', appended.split(' ').pop()!]]) {
      const form = findLeak(text, secret) ?? (text.includes(secret) ? secret : undefined);
      if (form) leaks.push(`${name} in ${where} (as ${form.slice(0, 12)}…)`);
    }
  expect(leaks).toEqual([]);
});
