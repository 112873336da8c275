import type { ScriptedReply } from '@holic512/testkit';
import { useAiFixture } from '@holic512/testkit';
import { promises as fs } from 'fs';
import * as path from 'path';
import { runAi } from './run-bin';

// Faults, end to end through the real bin, this repo's llm-base and the scripted model server:
// for each, ai says what happened and what to do (no stack trace), the user's files and configs
// are byte for byte as they were, and the next run works.
const fx = useAiFixture({
  profile: { timeout: 8000, first_token_timeout: 3000, idle_timeout: 3000, max_retries: 1 },
  server: { chunkSize: 64 },
});
beforeEach(async () => {
  await fs.writeFile(path.join(fx.cwd, 'keep.txt'), "the user's file\n");
  await fx.temp.writeJson('plugin-configs/ai.json', { maxAutoStepsPerTurn: 3 });
});

async function snapshot(): Promise<Record<string, string>> {
  const files = ['plugin-configs/llm-base.json', 'plugin-configs/ai.json', 'registry.json', 'settings.json'].map((f) =>
    path.join(fx.temp.slothtoolHome, f),
  );
  files.push(path.join(fx.cwd, 'keep.txt'));
  const out: Record<string, string> = {};
  for (const f of files) out[f] = await fs.readFile(f, 'utf8').catch(() => '(absent)');
  return out;
}

const noStack = (text: string) => expect(text).not.toMatch(/\n\s+at .+\(.*:\d+:\d+\)|RangeError|TypeError|ReferenceError/);

const serverFaults: Array<[string, ScriptedReply[], RegExp]> = [
  ['500 twice (retried, then given up)', [{ status: 500 }, { status: 500 }], /PROVIDER_ERROR|500|server/i],
  [
    '429 with Retry-After',
    [
      { status: 429, retryAfter: 1 },
      { status: 429, retryAfter: 1 },
    ],
    /RATE_LIMIT|rate|429/i,
  ],
  ['429 without Retry-After', [{ status: 429 }, { status: 429 }], /RATE_LIMIT|rate|429/i],
  ['the connection dropped (twice)', [{ drop: true }, { drop: true }], /NETWORK_ERROR|connect|network/i],
  [
    'a reply cut off mid-stream (twice)',
    [
      { content: '{"type":"chat","message":"hel', cutAfterChunks: 1 },
      { content: '{"type":"chat","message":"hel', cutAfterChunks: 1 },
    ],
    /./,
  ],
  ['a model that never answers', [{ hang: true } as ScriptedReply], /first token|time|waited|doctor/i],
];

test.each(serverFaults)(
  '%s: a clear message, files intact, the next run works',
  async (_name, replies, message) => {
    const before = await snapshot();
    fx.server.enqueue(...replies);
    const r = await runAi(['-p', 'hi'], { env: fx.temp.env, cwd: fx.cwd });
    expect(r.code).not.toBe(0);
    expect(r.stderr + r.stdout).toMatch(message);
    noStack(r.stderr);
    expect(await snapshot()).toEqual(before);
    // whatever of the faulty script was not used, the next run meets a healthy server
    fx.server.setHandler(() => ({ json: { type: 'chat', message: 'back to normal' } }));
    const next = await runAi(['-p', 'hi again'], { env: fx.temp.env, cwd: fx.cwd });
    expect({ code: next.code, out: next.stdout }).toEqual({ code: 0, out: 'back to normal\n' });
  },
  60_000,
);

test.each<[string, ScriptedReply]>([
  ['garbage bytes', { content: '\u0000\u0001\uFFFD\u00ff not json at all \u0007' }],
  ['a truncated JSON object', { content: '{"type":"cmd","message":"x","data":{"commands":[{"program":"ls"' }],
  [
    'a 10 MB reply',
    {
      content: `{"type":"chat","message":"${'x'.repeat(10 * 1024 * 1024)}"}`,
      chunks: [`{"type":"chat","message":"${'x'.repeat(10 * 1024 * 1024)}"}`.match(/[\s\S]{1,65536}/g)!].flat(),
    },
  ],
])(
  '%s: answered (repair, then the raw text marked as such or a clear error), no crash, files intact',
  async (_name, reply) => {
    const before = await snapshot();
    fx.server.enqueue(reply, reply);
    const r = await runAi(['-p', 'hi'], { env: fx.temp.env, cwd: fx.cwd });
    noStack(r.stderr);
    expect([0, 1]).toContain(r.code);
    expect(await snapshot()).toEqual(before);
  },
  60_000,
);

test.each([
  ['registry.json', '{"plugins": {"x": ', /registry/i],
  ['plugin-configs/ai.json', '{ broken', /ai\.json/],
  ['plugin-configs/llm-base.json', '{"default_profile": 3', /llm-base\.json|config/i],
])(
  'a corrupt %s is named, left as it is, and fixing it makes the next run work',
  async (file, text, message) => {
    const full = path.join(fx.temp.slothtoolHome, file);
    const good = await fs.readFile(full, 'utf8');
    await fs.writeFile(full, text);
    const r = await runAi(['-p', 'hi'], { env: fx.temp.env, cwd: fx.cwd });
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(message);
    noStack(r.stderr);
    expect(await fs.readFile(full, 'utf8')).toBe(text);
    await fs.writeFile(full, good);
    fx.server.enqueue({ json: { type: 'chat', message: 'fixed' } });
    expect((await runAi(['-p', 'hi'], { env: fx.temp.env, cwd: fx.cwd })).stdout).toBe('fixed\n');
  },
  60_000,
);

test('a corrupt settings.json: the language falls back to the locale, the run still works', async () => {
  await fs.writeFile(path.join(fx.temp.slothtoolHome, 'settings.json'), '{oops');
  fx.server.enqueue({ json: { type: 'chat', message: 'still works' } });
  const r = await runAi(['-p', 'hi'], { env: { ...fx.temp.env, LC_ALL: 'en_US.UTF-8' }, cwd: fx.cwd });
  expect(r).toMatchObject({ code: 0, stdout: 'still works\n' });
});

test('ai -c on a damaged session file: the readable records come back, the rest are counted, the next turn works', async () => {
  fx.server.enqueue({ json: { type: 'chat', message: 'first' } });
  expect((await runAi(['-p', 'remember apples'], { env: fx.temp.env, cwd: fx.cwd })).code).toBe(0);
  const dir = path.join(fx.temp.slothtoolHome, 'ai', 'sessions');
  const [file] = await fs.readdir(dir);
  await fs.appendFile(path.join(dir, file), '{"t":"user","at":"x","content":\n\u0000garbage\n');
  fx.server.enqueue({ json: { type: 'chat', message: 'you said apples' } });
  const r = await runAi(['-c', '-p', 'what did I say?'], { env: fx.temp.env, cwd: fx.cwd });
  expect(r).toMatchObject({ code: 0, stdout: 'you said apples\n' });
  noStack(r.stderr);
  const sent = JSON.stringify(fx.server.requests.at(-1)!.body.messages);
  expect(sent).toContain('remember apples');
});
