import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { readLanguage } from '../src/language';

// readLanguage is asked on every model call, so it keeps what settings.json said while the file
// is unchanged; a change, even a same-size rewrite in the same clock tick, is seen at once.
let home: string;
beforeEach(() => (home = fs.mkdtempSync(path.join(os.tmpdir(), 'lang-'))));
afterEach(() => fs.rmSync(home, { recursive: true, force: true }));

test('settings.json wins over the locale; a same-size rewrite is seen; a removed file falls back to the locale', () => {
  const file = path.join(home, 'settings.json');
  const env = { LANG: 'zh_CN.UTF-8' };
  expect(readLanguage(home, env)).toBe('zh');
  fs.writeFileSync(file, '{"language":"en"}');
  expect(readLanguage(home, env)).toBe('en');
  fs.writeFileSync(file, '{"language":"zh"}');
  expect(readLanguage(home, env)).toBe('zh');
  fs.writeFileSync(file, '{"language":"en"}');
  expect(readLanguage(home, env)).toBe('en');
  fs.rmSync(file);
  expect(readLanguage(home, env)).toBe('zh');
});

test('an old file is kept by its stamp: rewritten with its old size and times, the cache still sees a new inode or size', () => {
  const file = path.join(home, 'settings.json');
  fs.writeFileSync(file, '{"language":"en"}');
  fs.utimesSync(file, 1_700_000_000, 1_700_000_000);
  expect(readLanguage(home, {})).toBe('en');
  // Replaced (a new inode, as an atomic write does) with the same size and times.
  fs.writeFileSync(`${file}.tmp`, '{"language":"zh"}');
  fs.utimesSync(`${file}.tmp`, 1_700_000_000, 1_700_000_000);
  fs.renameSync(`${file}.tmp`, file);
  expect(readLanguage(home, {})).toBe('zh');
});
