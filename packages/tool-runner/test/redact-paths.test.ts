import { promises as fsp } from 'fs';
import * as http from 'http';
import type { AddressInfo } from 'net';
import * as path from 'path';
import { FRAMED_CORPUS, SECRET_CORPUS, findLeak, type SecretSample } from '@holic512/testkit';
import type { Step, ToolResult } from '../src';
import { approvingRunner } from './redact-runner';
import { tempWorld } from './tools-session';

// Every secret format of both corpora, planted in a workspace file, reached by every path a tool
// result can take to the model: exec cat, exec grep (its parsed structure), fs.read, a
// background process (proc.start + proc.status), http.get from a local server, and the result
// of a json_patch that copies the text. Nothing that comes back may hold the secret, as it is
// or base64 / hex / reversed.

let world: Awaited<ReturnType<typeof tempWorld>>;
let server: http.Server;
let port = 0;
const served = new Map<string, string>();

beforeAll(async () => {
  world = await tempWorld();
  server = http.createServer((req, res) => {
    const body = served.get(decodeURIComponent((req.url ?? '/').slice(1)));
    res.writeHead(body === undefined ? 404 : 200, { 'content-type': 'text/plain' });
    res.end(body ?? 'missing');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await world.cleanup();
});

const runner = () => approvingRunner(world, { allowPrivateNetwork: true });

/** The paths, each a list of steps; the last result is what is checked (all of them are). */
function pathsFor(s: SecretSample, file: string, jsonFile: string): Array<[string, Step[]]> {
  return [
    ['exec cat', [{ tool: 'exec', program: 'cat', args: [file] }]],
    ['exec grep (parsed)', [{ tool: 'exec', program: 'grep', args: ['-Hn', '.', file] }]],
    ['fs.read', [{ tool: 'fs.read', path: file }]],
    [
      'proc.start + proc.status',
      [{ tool: 'proc.start', program: 'cat', args: [file] } as Step, { tool: 'proc.status', proc_id: 'PROC', wait_ms: 10000 } as Step],
    ],
    ['http.get', [{ tool: 'http.get', url: `http://127.0.0.1:${port}/${encodeURIComponent(s.file)}` }]],
    ['json_patch result', [{ tool: 'config.json_patch', file: jsonFile, patch: [{ op: 'copy', from: '/note', path: '/backup' }] } as Step]],
  ];
}

describe.each([...SECRET_CORPUS, ...FRAMED_CORPUS].map((s, i) => [s.name, s, i] as const))('%s', (_name, s, i) => {
  test('no path lets it through', async () => {
    const dir = path.join(world.ws, `s${i}`);
    await fsp.mkdir(dir, { recursive: true });
    const file = path.join(dir, s.file);
    const jsonFile = path.join(dir, 'data.json');
    await fsp.writeFile(file, s.text);
    await fsp.writeFile(jsonFile, JSON.stringify({ note: s.text }));
    served.set(s.file, s.text);
    const r = runner();
    try {
      let ran = 0;
      let masked = 0;
      for (const [label, steps] of pathsFor(s, file, jsonFile)) {
        let procId = '';
        for (const step of steps) {
          const st = (step as { proc_id?: string }).proc_id === 'PROC' ? ({ ...step, proc_id: procId } as Step) : step;
          const result: ToolResult = await r.run(st);
          procId = (result as { proc_id?: string }).proc_id ?? procId;
          if ((result as { status?: string }).status !== 'blocked') ran++;
          const text = JSON.stringify(result);
          if (text.includes('[redacted')) masked++;
          for (const piece of s.parts ?? [s.secret]) {
            expect({ label, leak: findLeak(text, piece) ?? (text.includes(piece) ? piece : undefined) }).toEqual({
              label,
              leak: undefined,
            });
          }
        }
      }
      // Private key files are refused outright by some paths; every other path really ran.
      expect(ran).toBeGreaterThanOrEqual(4);
      // ...and brought the text back, with the secret masked in it.
      expect(masked).toBeGreaterThanOrEqual(4);
    } finally {
      r.dispose?.();
    }
  });
});

test('grep output reaches the model as a parsed structure, redacted too', async () => {
  const s = SECRET_CORPUS.find((x) => x.name === 'INI value')!;
  const file = path.join(world.ws, 'grep-parsed.ini');
  await fsp.writeFile(file, s.text);
  const result = (await runner().run({ tool: 'exec', program: 'grep', args: ['-Hn', 'password', file] })) as Record<string, any>;
  expect(result.parsed).toBeDefined();
  expect(JSON.stringify(result.parsed)).toContain('[redacted');
  expect(JSON.stringify(result)).not.toContain(s.secret);
});
