import { createHash } from 'crypto';
import { promises as fs } from 'fs';
import * as path from 'path';
import { fakeToken, findLeak, useAiFixture } from '@holic512/testkit';
import { runAi } from './run-bin';

// Every path by which text from stdin reaches a model request, end to end over the real `ai`
// bin and the scripted server: the values the known-secrets reader collects (the profiles' API
// keys, literal and `env:NAME`; secret-looking variables; the workspace's .env values) have no
// shape of their own here (a key for a local server), so only the gate's known values can catch
// them. Each path must tell the gate those values before piped text is redacted; the test reads
// what the server recorded.

/** A key for a local server: no provider prefix, not in a config-like line when piped. */
const PROFILE_KEY = `local-${fakeToken('stdin-profile-key', 24)}`;
/** The second profile's key, given as `env:SECOND_KEY`. */
const ENV_REF_KEY = fakeToken('stdin-env-ref-key', 28);
const ENV_TOKEN = fakeToken('stdin-env-token', 26);
const DOTENV_VALUE = fakeToken('stdin-dotenv', 22);
const SECRETS: Array<[string, string]> = [
  ['profile key', PROFILE_KEY],
  ['env: profile key', ENV_REF_KEY],
  ['secret-looking variable', ENV_TOKEN],
  ['.env value', DOTENV_VALUE],
];

const fx = useAiFixture(() => ({
  aiConfig: { sandbox: 'off' },
  profile: { api_key: PROFILE_KEY },
  profiles: { second: { api_key: 'env:SECOND_KEY' } },
}));

const env = () => ({ ...fx.env, SECOND_KEY: ENV_REF_KEY, MY_SERVICE_TOKEN: ENV_TOKEN });
const chat = (message: string) => ({ json: { type: 'chat', message } });

/** Every known value as prose would carry it, and encoded the ways a pipe often does. */
function pipedText(): string {
  const lines = SECRETS.map(
    ([name, v]) => `the ${name} is ${v} (base64 ${Buffer.from(v).toString('base64')}, hex ${Buffer.from(v).toString('hex')})`,
  );
  return `${lines.join('\n')}\nplain words stay\n`;
}

beforeEach(async () => {
  await fs.writeFile(path.join(fx.cwd, '.env'), `APP_NAME=demo\nUPSTREAM_TOKEN=${DOTENV_VALUE}\n`);
});

/** The known values (in any encoded form) found in what the server received. */
function leaks(): string[] {
  const sent = JSON.stringify(fx.server.requests.map((q) => q.body));
  return SECRETS.flatMap(([name, v]) => {
    const form = findLeak(sent, v) ?? (sent.includes(v) ? v : undefined);
    return form ? [`${name} as ${form.slice(0, 10)}…`] : [];
  });
}

const lastUserText = (): string => {
  const messages = fx.server.requests.at(-1)!.body.messages as Array<{ role: string; content: unknown }>;
  return JSON.stringify(messages.filter((m) => m.role === 'user').at(-1)?.content);
};

test('echo … | ai -p "…": piped context reaches the model with every known value masked', async () => {
  fx.server.enqueue(chat('checked'));
  const r = await runAi(['-p', 'check this'], { env: env(), cwd: fx.cwd, input: pipedText() });
  expect(r.code).toBe(0);
  expect(leaks()).toEqual([]);
  const sent = lastUserText();
  expect(sent).toContain('plain words stay');
  expect(sent).toContain('[redacted known secret');
});

test('the prompt itself piped: `… | ai` (stdin not a terminal) and `… | ai -c -p` going on with the last session', async () => {
  fx.server.enqueue(chat('one'), chat('two'));
  expect((await runAi([], { env: env(), cwd: fx.cwd, input: pipedText() })).code).toBe(0);
  expect((await runAi(['-c', '-p'], { env: env(), cwd: fx.cwd, input: pipedText() })).code).toBe(0);
  expect(fx.server.requests).toHaveLength(2);
  // The second request holds the first turn (from the session) and the new piped text.
  expect(JSON.stringify(fx.server.requests[1].body.messages).split('plain words stay')).toHaveLength(3);
  expect(leaks()).toEqual([]);
});

test('ai -i reading piped lines: each line is masked before it becomes a message', async () => {
  fx.server.setHandler(() => chat('noted'));
  const r = await runAi(['-i'], { env: env(), cwd: fx.cwd, input: pipedText() });
  expect(r.code).toBe(0);
  expect(fx.server.requests.length).toBeGreaterThanOrEqual(SECRETS.length);
  expect(leaks()).toEqual([]);
  // The screen echoes the line as it was sent: masked there too.
  for (const [, v] of SECRETS) expect(r.stdout).not.toContain(v);
});

test("a custom command's !`cmd` output and @file reach the model masked", async () => {
  const dir = path.join(fx.temp.slothtoolHome, 'commands');
  await fs.mkdir(dir, { recursive: true });
  await fs.writeFile(path.join(dir, 'show.md'), 'Look at this:\n!`cat notes.txt`\nand @notes.txt\n');
  await fs.writeFile(path.join(fx.cwd, 'notes.txt'), pipedText());
  fx.server.enqueue(chat('seen'));
  const r = await runAi(['-p', '/show'], { env: env(), cwd: fx.cwd });
  expect(r.code).toBe(0);
  const sent = lastUserText();
  expect(sent).toContain('plain words stay');
  expect(sent).toContain('<file path=\\"notes.txt\\">');
  expect(leaks()).toEqual([]);
});

test("a value of Claude Code's settings `env` (which every step runs with) is a known value too", async () => {
  const deployToken = fakeToken('claude-env-token', 30);
  await fs.mkdir(path.join(fx.temp.home, '.claude'), { recursive: true });
  await fs.writeFile(path.join(fx.temp.home, '.claude', 'settings.json'), JSON.stringify({ env: { DEPLOY_TOKEN: deployToken } }));
  fx.server.enqueue(
    { json: { type: 'cmd', message: 'look', data: { cwd: null, commands: [{ program: 'printenv', args: ['DEPLOY_TOKEN'] }] } } },
    chat('seen'),
  );
  const r = await runAi(['-p', 'show it', '--approve-l1', '--json'], { env: env(), cwd: fx.cwd, input: `piped ${deployToken}\n` });
  expect(r.code).toBe(0);
  const result = r.events.find((e) => e.type === 'tool_result');
  expect(result?.result.exitCode).toBe(0);
  const sent = JSON.stringify(fx.server.requests.map((q) => q.body));
  expect(findLeak(sent, deployToken) ?? (sent.includes(deployToken) ? 'plain' : undefined)).toBeUndefined();
  expect(sent).toContain('[redacted known secret');
});

test('.env files giving more secret values than the gate holds: ai -p says once how many are masked by their shape only', async () => {
  // Ten .env files of 256 KiB (what is read of each), every line a 500-character value under a
  // secret name: more forms than the gate's index holds (shared MAX_GIVEN_CHARS).
  const value = (f: number, i: number) =>
    [0, 1, 2, 3]
      .map((k) => createHash('sha512').update(`${f}/${i}/${k}`).digest('hex'))
      .join('')
      .slice(0, 500);
  for (const [f, name] of ['.env', '.env.local', ...'abcdefgh'.split('').map((c) => `.env.${c}`)].entries()) {
    const lines = Array.from({ length: 500 }, (_, i) => `F${f}_K${i}_TOKEN=${value(f, i)}`);
    await fs.writeFile(path.join(fx.cwd, name), `${lines.join('\n')}\n`);
  }
  fx.server.enqueue(chat('fine'));
  const r = await runAi(['-p', 'hello'], { env: env(), cwd: fx.cwd });
  expect(r.code).toBe(0);
  const said = [...r.stderr.matchAll(/The redaction gate is full: (\d+) of the secret values/g)];
  expect(said).toHaveLength(1);
  expect(Number(said[0][1])).toBeGreaterThan(0);
});
