import { createAiFixture, type AiFixture, type ScriptedServer, type TempHome } from '@holic512/testkit';
import { spawn } from 'child_process';
import { promises as fs } from 'fs';
import * as path from 'path';
import { PassThrough } from 'stream';
import { readPipedStdin, withStdin } from '../src/cli/oneshot';
import { AI_BIN } from './run-bin';

describe('readPipedStdin', () => {
  test('reads a pipe to its end', async () => {
    const s = new PassThrough();
    const p = readPipedStdin(s, { firstChunkWaitMs: 60000 });
    s.write('diff --git a/x b/x\n');
    s.end('+汉字\n');
    expect(await p).toEqual({ text: 'diff --git a/x b/x\n+汉字\n', gaveUp: false });
  });

  test('gives up on a pipe that stays open and silent, when asked to', async () => {
    const s = new PassThrough();
    expect(await readPipedStdin(s, { firstChunkWaitMs: 20 })).toEqual({ text: '', gaveUp: true });
  });

  test('once data flows it waits for the end, past the first-chunk wait', async () => {
    jest.useFakeTimers();
    try {
      const s = new PassThrough();
      const p = readPipedStdin(s, { firstChunkWaitMs: 20 });
      s.write('first');
      await jest.advanceTimersByTimeAsync(1000);
      s.end(' second');
      expect(await p).toEqual({ text: 'first second', gaveUp: false });
    } finally {
      jest.useRealTimers();
    }
  });

  test('a terminal is never read', async () => {
    const s = Object.assign(new PassThrough(), { isTTY: true });
    expect(await readPipedStdin(s)).toEqual({ text: '', gaveUp: false });
  });
});

describe('ai -p with a stdin nobody closes', () => {
  let fx: AiFixture;
  let temp: TempHome;
  let server: ScriptedServer;
  beforeAll(async () => {
    fx = await createAiFixture({ profile: { low_model: 'l', high_model: 'h' } });
    ({ temp, server } = fx);
  });
  afterAll(() => fx.cleanup());

  test('answers instead of hanging, and says why it stopped waiting', async () => {
    server.enqueue({ json: { type: 'chat', message: 'Hello there' } });
    const cwd = path.join(temp.home, 'p');
    await fs.mkdir(cwd, { recursive: true });
    const child = spawn(process.execPath, [AI_BIN, '-p', 'hi'], { env: temp.env, cwd, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    child.stdin.destroy();
    expect({ code, stdout }).toEqual({ code: 0, stdout: 'Hello there\n' });
    expect(stderr).toMatch(/sent nothing for 2 s/);
    const last = (server.requests[0].body.messages as Array<{ content: string }>).at(-1);
    expect(last?.content).toBe('hi');
  });
});

test('piped text passes the redaction gate before it reaches the model', () => {
  const env =
    'API_KEY=abcdef1234567890ghij\nDB_URL=postgres://app:hunter2hunter2@db:5432/x\nOPENAI=sk-proj-abcdefghijklmnopqrstuvwxyz0123\nnote: fine\n';
  const out = withStdin('check this', env);
  expect(out).toContain('note: fine');
  for (const secret of ['abcdef1234567890ghij', 'hunter2hunter2', 'abcdefghijklmnopqrstuvwxyz0123']) expect(out).not.toContain(secret);
});
