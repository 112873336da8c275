import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { defaultConfig, loadConfig, validateConfig } from '../src/config/config';
import { AiError } from '../src/errors';

test('defaults', () => {
  expect(defaultConfig()).toMatchObject({
    allowNetwork: false,
    allowWrite: false,
    allowSudo: false,
    defaultMode: 'low',
    defaultProfile: null,
    maxAutoStepsPerTurn: 3,
    context: { maxRequestTokens: 16000, foldAtPercent: 80, summarizeAbovePercent: 60, foldToPercent: 40 },
  });
});

test.each<[unknown, RegExp]>([
  [{ maxAutoStepsPerTurn: 'three' }, /^maxAutoStepsPerTurn: /],
  [{ defaultMode: 'max' }, /^defaultMode: /],
  [{ allowedPrograms: ['ls', 3] }, /^allowedPrograms\.1: /],
  [{ context: { maxRequestTokens: 10 } }, /^context\.maxRequestTokens: /],
  [{ colour: 'red' }, /colour/],
  [[], /^\(root\)/],
  [{ webSearch: { provider: 'bing' } }, /^webSearch\.provider: provider must be "searxng", "brave" or "tavily"/],
  [{ webSearch: { provider: 'searxng' } }, /^webSearch\.url: searxng needs "url"/],
  [{ webSearch: { provider: 'searxng', url: 'file:///etc/passwd' } }, /^webSearch\.url: url must be an http/],
  [{ webSearch: { provider: 'brave' } }, /^webSearch\.apiKey: brave needs "apiKey": "env:NAME"/],
  [{ webSearch: { provider: 'tavily', apiKey: 'tvly-literal' } }, /^webSearch\.apiKey: apiKey must be "env:NAME"/],
  [{ webSearch: { provider: 'searxng', url: 'http://127.0.0.1:8888', key: 1 } }, /^webSearch.*key/],
])('a bad field is named: %j', (json, pattern) => {
  const r = validateConfig(json);
  expect(r.ok).toBe(false);
  expect(!r.ok && r.errors[0]).toMatch(pattern);
});

test.each([
  [{ provider: 'searxng', url: 'http://127.0.0.1:8888' }],
  [{ provider: 'brave', apiKey: 'env:BRAVE_API_KEY' }],
  [{ provider: 'tavily', apiKey: 'env:TAVILY_API_KEY', url: 'https://proxy.example.com/search' }],
])('webSearch %j is accepted as written', (webSearch) => {
  const r = validateConfig({ webSearch });
  expect(r.ok && r.config.webSearch).toEqual(webSearch);
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
