import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { readConfig } from '../src/config-store';

// The module object itself (the `import * as` namespace cannot be spied on); the sources read through it.
const nodeFs = require('fs') as typeof import('fs');

// readConfig asks the file system on every call: a file unchanged since a read that came well
// after its last change is not read again; any change (in place with the same size, replaced,
// removed) is seen by the very next call, and every caller gets its own copy.

let home: string;
let file: string;
const ctx = () => ({ env: { SLOTHTOOL_HOME: home } as NodeJS.ProcessEnv, lang: 'en' as const });
const config = (model: string) =>
  JSON.stringify({
    default_profile: 'p',
    profiles: { p: { base_url: 'http://127.0.0.1:9/v1', api_key: 'sk-test', low_model: model, high_model: model, timeout: 1000 } },
  });

/** Wait until a file written now gets another change time than `file` has (the file system's clock moved on). */
function nextFileTick(): void {
  const probe = path.join(home, 'tick');
  const before = fs.statSync(file, { bigint: true }).ctimeNs;
  for (let i = 0; i < 100_000; i++) {
    fs.writeFileSync(probe, String(i));
    if (fs.statSync(probe, { bigint: true }).ctimeNs !== before) return;
  }
  throw new Error('the file system clock did not move');
}

beforeEach(() => {
  home = fs.mkdtempSync(path.join(os.tmpdir(), 'llm-config-read-'));
  fs.mkdirSync(path.join(home, 'plugin-configs'));
  file = path.join(home, 'plugin-configs', 'llm-base.json');
  fs.writeFileSync(file, config('m-one'));
});
afterEach(() => {
  jest.restoreAllMocks();
  fs.rmSync(home, { recursive: true, force: true });
});

/** Pretend the file's last change was long ago (what SETTLED_MS waits for), without waiting. */
const later = () => {
  const now = Date.now() + 60_000;
  jest.spyOn(Date, 'now').mockReturnValue(now);
};

test('a settled, unchanged file is not read again; each caller still gets its own copy', () => {
  later();
  const read = jest.spyOn(nodeFs, 'readFileSync');
  const a = readConfig(ctx());
  const reads = read.mock.calls.filter(([p]) => p === file).length;
  expect(reads).toBe(1);
  a.profiles.p.low_model = 'changed by a caller';
  const b = readConfig(ctx());
  const c = readConfig(ctx());
  expect(read.mock.calls.filter(([p]) => p === file).length).toBe(reads);
  expect(b.profiles.p.low_model).toBe('m-one');
  expect(b).not.toBe(c);
});

/** Pretend the file's last change was just now, however long the machine took to get here. */
const soon = () => {
  const changed = Number(fs.statSync(file, { bigint: true }).ctimeNs / 1_000_000n);
  jest.spyOn(Date, 'now').mockReturnValue(changed + 1);
};

test('a file changed very recently is read every time (its time stamp could hide a second change)', () => {
  soon();
  const read = jest.spyOn(nodeFs, 'readFileSync');
  readConfig(ctx());
  readConfig(ctx());
  expect(read.mock.calls.filter(([p]) => p === file).length).toBe(2);
});

test.each([
  ['rewritten in place with the same size', () => fs.writeFileSync(file, config('m-two'))],
  ['replaced by a renamed file', () => (fs.writeFileSync(`${file}.tmp`, config('m-two')), fs.renameSync(`${file}.tmp`, file))],
  [
    'rewritten with its old modification time put back',
    () => {
      const st = fs.statSync(file);
      fs.writeFileSync(file, config('m-two'));
      fs.utimesSync(file, st.atime, st.mtime);
    },
  ],
])('a settled file %s: the next call sees the change', (_what, change) => {
  readConfig(ctx());
  later();
  expect(readConfig(ctx()).profiles.p.low_model).toBe('m-one');
  expect(readConfig(ctx()).profiles.p.low_model).toBe('m-one');
  nextFileTick();
  change();
  expect(config('m-two').length).toBe(config('m-one').length);
  expect(readConfig(ctx()).profiles.p.low_model).toBe('m-two');
});

test('a removed file is an empty config at once; a broken one is an error at once', () => {
  later();
  readConfig(ctx());
  readConfig(ctx());
  nextFileTick();
  fs.rmSync(file);
  expect(readConfig(ctx())).toEqual({ default_profile: '', profiles: {} });
  fs.writeFileSync(file, '{ not json');
  expect(() => readConfig(ctx())).toThrow(/llm-base\.json/);
});

// A file of valid JSON the schema refuses: the error names the file and every field that is wrong.
test.each([
  [
    'a timeout that is not a positive whole number',
    { p: { base_url: 'http://127.0.0.1:9/v1', low_model: 'm', high_model: 'm', timeout: -5 } },
    ['profiles.p.timeout'],
  ],
  [
    'a base_url that is not http(s), a model that is empty',
    { p: { base_url: 'ftp://x', low_model: '', high_model: 'm' } },
    ['profiles.p.base_url: expected an http(s) URL', 'profiles.p.low_model: expected a model id'],
  ],
  [
    'pricing of another shape',
    { p: { base_url: 'http://x/v1', low_model: 'm', high_model: 'm', pricing: { currency: 'USD', low: { input: -1, output: 1 } } } },
    ['profiles.p.pricing.low.input'],
  ],
  ['a profile that is not an object', { p: 'sk-123' }, ['profiles.p:']],
])('%s: the error names the file and the field', (_what, profiles, fields) => {
  fs.writeFileSync(file, JSON.stringify({ default_profile: 'p', profiles }));
  let message = '';
  try {
    readConfig(ctx());
  } catch (err) {
    message = (err as Error).message;
  }
  expect(message).toContain(file);
  for (const field of fields) expect(message).toContain(field);
});
