import { useAiFixture } from '@holic512/testkit';
import { spawn } from 'child_process';
import { promises as fs } from 'fs';
import * as path from 'path';
import { AI_BIN } from './run-bin';

/** `ai -p --json` with a step that prints far more than anyone reads: bounded events, bounded memory. */

const fx = useAiFixture({ profile: { timeout: 60000 } });

/** Run the bin with its peak RSS reported; stdout is only counted and checked line by line
 * here, so the test itself stays small too. */
function runMeasured(
  args: string[],
): Promise<{ code: number | null; lines: Array<Record<string, any>>; stdoutBytes: number; maxRss: number; stderr: string }> {
  const rssFile = path.join(fx.temp.home, 'max-rss');
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-r', path.join(__dirname, 'report-max-rss.js'), AI_BIN, ...args], {
      env: { ...fx.temp.env, AI_TEST_MAX_RSS_FILE: rssFile },
      cwd: fx.cwd,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const lines: Array<Record<string, any>> = [];
    let rest = '';
    let stdoutBytes = 0;
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      stdoutBytes += d.length;
      const parts = (rest + d).split('\n');
      rest = parts.pop()!;
      for (const line of parts) lines.push(JSON.parse(line)); // every line must be JSON
    });
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', async (code) => {
      try {
        expect(rest).toBe('');
        resolve({ code, lines, stdoutBytes, stderr, maxRss: Number(await fs.readFile(rssFile, 'utf8')) });
      } catch (err) {
        reject(err);
      }
    });
    child.stdin.end();
  });
}

test('a step printing 256 MiB: at most head + tail of it in the events, valid JSON lines, peak RSS < 200 MB', async () => {
  const size = 256 * 1024 * 1024;
  fx.server.enqueue(
    {
      json: {
        type: 'cmd',
        message: 'zeros',
        data: { cwd: null, commands: [{ program: 'head', args: ['-c', String(size), '/dev/zero'] }] },
      },
    },
    { json: { type: 'chat', message: 'done' } },
  );
  const r = await runMeasured(['-p', 'print zeros', '--json']);
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  const outputs = r.lines.filter((e) => e.type === 'output');
  const carried = outputs.reduce((n, e) => n + Buffer.byteLength(e.chunk), 0);
  expect(carried).toBeLessThanOrEqual(2 * 64 * 1024);
  expect(carried).toBeGreaterThan(0);
  expect(outputs.at(-1)).toMatchObject({ id: 'cmd_001', stream: 'stdout', truncated: true, bytes: size, omittedBytes: size - carried });
  expect(r.lines.at(-1)).toMatchObject({ type: 'final', outcome: 'answered' });
  expect(r.maxRss).toBeLessThan(200 * 1024 * 1024);
}, 120000);
