import { spawn } from 'child_process';
import { promises as fs } from 'fs';
import * as path from 'path';
import { createTempHome, type TempHome } from '@holic512/testkit';

// SIGKILL in the middle of a config write: a child process rewrites llm-base.json as fast as
// it can, alternating two large versions, and is killed at a different moment each round. The
// file is always one whole version, old or new — never cut, never empty, still 0600. A writer
// killed while holding the config's lock blocks the next one only until the lock is stale,
// with a message that says so. (The child loads the compiled package: `npm test` builds first.)

const lib = path.join(__dirname, '..', 'lib', 'index.js');
const STALE_MS = (require(path.join(__dirname, '..', 'lib', 'config-store.js')) as { CONFIG_LOCK_STALE_MS: number }).CONFIG_LOCK_STALE_MS;

const homes: TempHome[] = [];
afterEach(async () => {
  await Promise.all(homes.splice(0).map((h) => h.cleanup()));
});

const WRITER = `
  const llm = require(process.argv[1]);
  const pad = (c) => c.repeat(200000);
  const first = llm.create_profile('p', { base_url: 'http://127.0.0.1:9/v1', api_key: 'k-test-0000', low_model: 'l', high_model: 'h', notes: pad('a') });
  if (!first.success) { process.stderr.write(JSON.stringify(first.error)); process.exit(1); }
  process.stdout.write('ready\\n');
  for (let i = 0; ; i++) {
    const r = llm.update_profile('p', { notes: pad(i % 2 ? 'a' : 'b') });
    if (!r.success) { process.stderr.write(JSON.stringify(r.error)); process.exit(1); }
  }
`;

function killDuringWrites(env: NodeJS.ProcessEnv, delayMs: number): Promise<{ signal: NodeJS.Signals | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', WRITER, lib], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    child.stdout.once('data', () => setTimeout(() => child.kill('SIGKILL'), delayMs));
    child.on('error', reject);
    child.on('close', (_code, signal) => resolve({ signal, stderr }));
  });
}

function updateInChild(env: NodeJS.ProcessEnv, notes: string): Promise<{ success: boolean; error?: { message: string } }> {
  return new Promise((resolve, reject) => {
    const code = `process.stdout.write(JSON.stringify(require(process.argv[1]).update_profile('p', { notes: ${JSON.stringify(notes)} })))`;
    const child = spawn(process.execPath, ['-e', code, lib], { env, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.on('error', reject);
    child.on('close', () => resolve(JSON.parse(out)));
  });
}

test('a config write killed at any moment leaves one whole version', async () => {
  for (let round = 0; round < 10; round++) {
    const temp = await createTempHome();
    homes.push(temp);
    const r = await killDuringWrites(temp.env, 2 + round * 9);
    expect(r).toEqual({ signal: 'SIGKILL', stderr: '' });
    const file = path.join(temp.slothtoolHome, 'plugin-configs', 'llm-base.json');
    const doc = JSON.parse(await fs.readFile(file, 'utf8'));
    expect(doc.profiles.p.notes).toMatch(/^(a{200000}|b{200000})$/);
    expect((await fs.stat(file)).mode & 0o777).toBe(0o600);
  }
});

test('after a writer was killed holding the lock, the next one is told to retry, and succeeds once the lock is stale', async () => {
  const temp = await createTempHome();
  homes.push(temp);
  expect((await killDuringWrites(temp.env, 30)).signal).toBe('SIGKILL');
  const lockDir = path.join(temp.slothtoolHome, 'plugin-configs', 'llm-base.json.lock');
  // Make sure the lock is there, as a killed holder leaves it (the kill may fall between writes).
  await fs.mkdir(lockDir).catch(() => undefined);
  const blocked = await updateInChild(temp.env, 'blocked');
  expect(blocked.success).toBe(false);
  expect(blocked.error?.message).toMatch(/being written by another process; try again/);
  const old = new Date(Date.now() - STALE_MS - 1000);
  await fs.utimes(lockDir, old, old); // as it is STALE_MS later
  expect(await updateInChild(temp.env, 'done')).toMatchObject({ success: true });
  const doc = JSON.parse(await fs.readFile(path.join(temp.slothtoolHome, 'plugin-configs', 'llm-base.json'), 'utf8'));
  expect(doc.profiles.p.notes).toBe('done');
});
