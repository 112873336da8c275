import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { defaultConfig, loadConfig, validateConfig } from '../src/config';
import { AiError } from '../src/errors';

test('defaults', () => {
  expect(defaultConfig()).toMatchObject({
    allowNetwork: false,
    allowWrite: false,
    allowSudo: false,
    defaultMode: 'low',
    defaultProfile: null,
    maxAutoStepsPerTurn: 3,
    context: { maxRequestTokens: 16000, toolDigestCount: 3 },
  });
});

test.each<[unknown, RegExp]>([
  [{ maxAutoStepsPerTurn: 'three' }, /^maxAutoStepsPerTurn: /],
  [{ defaultMode: 'max' }, /^defaultMode: /],
  [{ allowedPrograms: ['ls', 3] }, /^allowedPrograms\.1: /],
  [{ context: { maxRequestTokens: 10 } }, /^context\.maxRequestTokens: /],
  [{ colour: 'red' }, /colour/],
  [[], /^\(root\)/],
])('a bad field is named: %j', (json, pattern) => {
  const r = validateConfig(json);
  expect(r.ok).toBe(false);
  expect(!r.ok && r.errors[0]).toMatch(pattern);
});

test('loadConfig: missing → defaults, bad → AiError naming file and field', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ai-config-'));
  const file = path.join(dir, 'ai.json');
  expect(loadConfig(file)).toEqual(defaultConfig());
  fs.writeFileSync(file, JSON.stringify({ maxAutoStepsPerTurn: 5, context: { recentWindowMaxTokens: 900 } }));
  expect(loadConfig(file)).toMatchObject({ maxAutoStepsPerTurn: 5, context: { recentWindowMaxTokens: 900, maxRequestTokens: 16000 } });
  fs.writeFileSync(file, JSON.stringify({ allowSudo: 'yes' }));
  let err: unknown;
  try {
    loadConfig(file);
  } catch (e) {
    err = e;
  }
  expect(AiError.isInstance(err)).toBe(true);
  expect((err as AiError).code).toBe('CONFIG_INVALID');
  expect((err as AiError).message).toContain(file);
  expect((err as AiError).message).toContain('allowSudo');
  fs.writeFileSync(file, '{oops');
  expect(() => loadConfig(file)).toThrow(/not valid JSON/);
  fs.rmSync(dir, { recursive: true });
});
