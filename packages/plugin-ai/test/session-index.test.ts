import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { pointerName, SessionStore } from '../src/sessions/sessions';

// --continue finds this folder's session through a pointer: it does not look at the other
// sessions (their number does not matter); without a pointer it scans once and writes one.
let dir: string;
beforeEach(() => {
  dir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'ai-index-')), 'sessions');
});
afterEach(() => fs.rmSync(path.dirname(dir), { recursive: true, force: true }));

const meta = (id: string, cwd: string, at: string) => ({
  t: 'meta' as const,
  v: 1 as const,
  id,
  cwd,
  createdAt: at,
  mode: 'low' as const,
  profile: null,
});

function fill(store: SessionStore, n: number): void {
  for (let i = 0; i < n; i++) store.append(`s${i}`, meta(`s${i}`, `/elsewhere/${i}`, `2026-11-2${i % 9}T10:00:00.000Z`));
}

test('with a pointer, lastFor reads one session file, not the others', () => {
  const store = new SessionStore(dir);
  store.append('mine', meta('mine', '/work/proj', '2026-11-01T10:00:00.000Z'));
  store.markLast('/work/proj', 'mine');
  // 200 other "sessions" that would block whoever opened one (FIFOs nobody writes to): looking
  // at them would hang this test instead of answering.
  execFileSync(
    'mkfifo',
    Array.from({ length: 200 }, (_v, i) => path.join(dir, `other${i}.jsonl`)),
  );
  expect(store.lastFor('/work/proj')?.id).toBe('mine');
});

test('without a pointer (sessions of an older version) it scans once and writes the pointer', () => {
  const store = new SessionStore(dir);
  fill(store, 20);
  store.append('old', meta('old', '/work/proj', '2026-11-01T10:00:00.000Z'));
  expect(store.lastFor('/work/proj')?.id).toBe('old');
  const pointers = path.join(path.dirname(dir), 'sessions-last');
  expect(fs.readdirSync(pointers)).toHaveLength(1);
  expect(fs.statSync(pointers).mode & 0o777).toBe(0o700);
  expect(fs.readdirSync(dir).every((f) => f.endsWith('.jsonl'))).toBe(true);
});

test("a folder's pointer is named by the first half of the SHA-256 of its path", () => {
  expect(pointerName('')).toBe('e3b0c44298fc1c149afbf4c8996fb924');
  expect(pointerName('a')).toBe('ca978112ca1bbdcafac231b39a23dc4d');
  const store = new SessionStore(dir);
  store.append('s', meta('s', '/work/proj', '2026-11-01T10:00:00.000Z'));
  store.markLast('/work/proj', 's');
  expect(fs.readdirSync(path.join(path.dirname(dir), 'sessions-last'))).toEqual([pointerName('/work/proj')]);
});

test('a pointer to a session of another folder, or to nothing, is not trusted', () => {
  const store = new SessionStore(dir);
  store.append('a', meta('a', '/work/a', '2026-11-01T10:00:00.000Z'));
  store.markLast('/work/b', 'a');
  expect(store.lastFor('/work/b')).toBeUndefined();
  store.markLast('/work/c', 'gone');
  expect(store.lastFor('/work/c')).toBeUndefined();
});

test('listing sessions skips a FIFO or a link named *.jsonl instead of waiting on it', () => {
  const store = new SessionStore(dir);
  store.append('real', meta('real', '/work/proj', '2026-11-01T10:00:00.000Z'));
  execFileSync('mkfifo', [path.join(dir, 'pipe.jsonl')]);
  fs.symlinkSync('/etc/hostname', path.join(dir, 'link.jsonl'));
  expect(store.list().map((s) => s.id)).toEqual(['real']);
});
