import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { readCheckedFile, writeFileAtomicSync } from '../src/atomic-write';

let root: string;
beforeEach(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'atomic-')));
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

test('writes whole files, keeps an existing mode, gives a new one the mode asked for, leaves no temp file', () => {
  const file = path.join(root, 'a.json');
  writeFileAtomicSync(file, '{"a":1}\n', { mode: 0o600 });
  expect(fs.statSync(file).mode & 0o777).toBe(0o600);
  fs.chmodSync(file, 0o640);
  writeFileAtomicSync(file, Buffer.from('{"a":2}\n'), { mode: 0o600 });
  expect(fs.readFileSync(file, 'utf8')).toBe('{"a":2}\n');
  expect(fs.statSync(file).mode & 0o777).toBe(0o640);
  expect(fs.readdirSync(root)).toEqual(['a.json']);
});

test('a link put where the file was is replaced, never followed', () => {
  const secret = path.join(root, 'secret.txt');
  fs.writeFileSync(secret, 'keep me\n');
  const file = path.join(root, 'config.json');
  fs.symlinkSync(secret, file);
  writeFileAtomicSync(file, '{}\n');
  expect(fs.readFileSync(secret, 'utf8')).toBe('keep me\n');
  expect(fs.lstatSync(file).isSymbolicLink()).toBe(false);
});

test('readCheckedFile: the file, null when missing, MOVED for a link in the last part or a folder swapped for a link', () => {
  const dir = path.join(root, 'ws');
  fs.mkdirSync(dir);
  fs.writeFileSync(path.join(dir, 'a.json'), '{"x":1}');
  expect(readCheckedFile(path.join(dir, 'a.json'))?.bytes.toString()).toBe('{"x":1}');
  expect(readCheckedFile(path.join(dir, 'none.json'))).toBeNull();
  const outside = path.join(root, 'outside');
  fs.mkdirSync(outside);
  fs.writeFileSync(path.join(outside, 'a.json'), 'SECRET');
  fs.symlinkSync(path.join(outside, 'a.json'), path.join(dir, 'link.json'));
  expect(() => readCheckedFile(path.join(dir, 'link.json'))).toThrow(expect.objectContaining({ code: 'MOVED' }));
  fs.renameSync(dir, `${dir}.old`);
  fs.symlinkSync(outside, dir);
  expect(() => readCheckedFile(path.join(dir, 'a.json'))).toThrow(expect.objectContaining({ code: 'MOVED' }));
  expect(() => writeFileAtomicSync(path.join(dir, 'a.json'), 'overwrite')).toThrow(expect.objectContaining({ code: 'MOVED' }));
  expect(fs.readFileSync(path.join(outside, 'a.json'), 'utf8')).toBe('SECRET');
});

test('the flush is skipped only when asked (fsync: false), and the write is still whole and atomic', () => {
  // In a plain node process, where fs's functions can be counted.
  const file = path.join(root, 'hint');
  const code = `const fs = require('fs'); let n = 0; const real = fs.fsyncSync; fs.fsyncSync = (fd) => { n++; return real(fd); };
    const { writeFileAtomicSync } = require(${JSON.stringify(path.join(__dirname, '..', 'lib', 'atomic-write.js'))});
    writeFileAtomicSync(${JSON.stringify(file)}, 'one'); const flushed = n;
    writeFileAtomicSync(${JSON.stringify(file)}, 'two', { fsync: false, mode: 0o600 });
    process.stdout.write(JSON.stringify([flushed, n]));`;
  const r = require('child_process').spawnSync(process.execPath, ['-e', code], { encoding: 'utf8' });
  expect(r.stderr).toBe('');
  expect(JSON.parse(r.stdout)).toEqual([1, 1]);
  expect(fs.readFileSync(file, 'utf8')).toBe('two');
  expect(fs.readdirSync(root)).toEqual(['hint']);
});
