import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { appendPrivate, readJsonLines } from '../src/private-files';

// Appends are several per step: the folder is made private once per process, and again when it
// went missing meanwhile; the file is 0600 however it was found.
let root: string;
beforeEach(() => (root = fs.mkdtempSync(path.join(os.tmpdir(), 'private-'))));
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

test('creates the folder 0700 and the file 0600, appends, and survives the folder being removed', () => {
  const file = path.join(root, 'a', 'b', 'log.jsonl');
  appendPrivate(file, 'one\n');
  expect(fs.statSync(path.dirname(file)).mode & 0o777).toBe(0o700);
  expect(fs.statSync(file).mode & 0o777).toBe(0o600);
  appendPrivate(file, 'two\n');
  expect(fs.readFileSync(file, 'utf8')).toBe('one\ntwo\n');
  fs.rmSync(path.join(root, 'a'), { recursive: true });
  appendPrivate(file, 'three\n');
  expect(fs.readFileSync(file, 'utf8')).toBe('three\n');
  expect(fs.statSync(path.dirname(file)).mode & 0o777).toBe(0o700);
});

test('a file found wider is narrowed to 0600', () => {
  const file = path.join(root, 'wide.log');
  fs.writeFileSync(file, '', { mode: 0o644 });
  fs.chmodSync(file, 0o644);
  appendPrivate(file, 'x\n');
  expect(fs.statSync(file).mode & 0o777).toBe(0o600);
});

test('readJsonLines: the values oldest first, a torn or blank line skipped, none without a file', () => {
  const file = path.join(root, 'log.jsonl');
  expect(readJsonLines(file)).toEqual([]);
  fs.writeFileSync(file, '"a"\n{"n": 1}\n\n  \n{"cut": \n[2]\n');
  expect(readJsonLines(file)).toEqual(['a', { n: 1 }, [2]]);
  fs.mkdirSync(path.join(root, 'dir.jsonl'));
  expect(() => readJsonLines(path.join(root, 'dir.jsonl'))).toThrow(/EISDIR/);
});
