import { spawn } from 'child_process';
import { existsSync, promises as fs } from 'fs';
import * as path from 'path';
import { createTempHome, type TempHome } from '@holic512/testkit';
import { defaultAllowedRoots, listBackups } from '../src/index';

// Child processes load the compiled package: run `npx tsc -b packages/json-patch` first
// (`npm test` does). The in-process tests cover the same logic from src/.
const lib = path.join(__dirname, '..', 'lib', 'index.js');
const child = path.join(__dirname, 'fixtures', 'patch-child.js');

let temp: TempHome;
beforeEach(async () => {
  temp = await createTempHome();
});
afterEach(() => temp.cleanup());

function run(args: object): Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, [child, JSON.stringify({ lib, ...args })], { env: temp.env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    p.stderr.on('data', (d) => (stderr += d));
    p.on('error', reject);
    p.on('close', (code, signal) => resolve({ code, signal, stderr }));
  });
}

test('the compiled package exists for the child processes', () => {
  expect(existsSync(lib)).toBe(true);
});

test('writers in separate processes lose no update', async () => {
  const file = await temp.writeJson('settings.json', { language: 'zh' });
  const options = { allowedRoots: defaultAllowedRoots(temp.env), env: temp.env, keepBackups: 100 };
  const results = await Promise.all(
    [0, 1, 2, 3].map((w) => run({ file, options, repeat: 5, ops: [{ op: 'set', path: `/w${w}/n{i}`, value: true }] })),
  );
  expect(results.map((r) => [r.code, r.stderr])).toEqual(results.map(() => [0, '']));
  const doc = await temp.readJson<Record<string, Record<string, boolean>>>('settings.json');
  for (const w of [0, 1, 2, 3]) expect(Object.keys(doc[`w${w}`]).sort()).toEqual(['n0', 'n1', 'n2', 'n3', 'n4']);
  expect(await listBackups(file, { env: temp.env })).toHaveLength(20);
});

const oldText = '{\n  "language": "zh",\n  "keep": [1, 2, 3]\n}\n';
describe.each([
  ['backup', 'old'],
  ['open', 'old'],
  ['write', 'old'],
  ['fsync', 'old'],
  ['close', 'old'],
  ['chmod', 'old'],
  ['rename', 'old'],
  ['after-rename', 'new'],
])('a crash at "%s"', (crashAt, expected) => {
  test(`leaves the ${expected} file, whole`, async () => {
    const file = path.join(temp.slothtoolHome, 'settings.json');
    await fs.writeFile(file, oldText, { mode: 0o640 });
    const options = { allowedRoots: defaultAllowedRoots(temp.env), env: temp.env };
    const ops = [{ op: 'replace', path: '/language', value: 'en' }];
    const result = await run({ file, options, ops, crashAt, bigLength: 200_000 });
    expect(result.signal).toBe('SIGKILL');
    expect(result.stderr).toBe(`crash at ${crashAt}\n`);
    const left = (await fs.readdir(temp.slothtoolHome)).filter((n) => /^\.settings\.json\.\d+\.\w+\.tmp$/.test(n));
    // From "write" to "rename" the crash leaves the atomic write's temp file: proof it died mid-write.
    expect(left.length > 0).toBe(['write', 'fsync', 'close', 'chmod', 'rename'].includes(crashAt));
    const text = await fs.readFile(file, 'utf8');
    const doc = JSON.parse(text) as { language: string; big?: string };
    if (expected === 'old') {
      expect(text).toBe(oldText);
    } else {
      expect(doc.language).toBe('en');
      expect(doc.big).toHaveLength(200_000);
    }
    expect((await fs.stat(file)).mode & 0o777).toBe(0o640);
  });
});
