import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { defaultConfig, loadConfig } from '../src/config/config';
import { AiConfigSchema } from '../src/config/config-schema';

// defaultConfig() is written out so that a start without an ai.json never builds the schema;
// it must stay the schema's own parse of `{}`, key for key, value for value, in the same order.
test("defaultConfig is the schema's parse of {}, byte for byte", () => {
  const parsed = AiConfigSchema.parse({});
  expect(defaultConfig()).toStrictEqual(parsed);
  expect(JSON.stringify(defaultConfig())).toBe(JSON.stringify(parsed));
});

test('loadConfig of a missing file deep-equals the parse of {} and of an empty file object', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ai-config-defaults-'));
  try {
    const missing = loadConfig(path.join(dir, 'ai.json'));
    expect(missing).toStrictEqual(AiConfigSchema.parse({}));
    fs.writeFileSync(path.join(dir, 'ai.json'), '{}');
    expect(JSON.stringify(loadConfig(path.join(dir, 'ai.json')))).toBe(JSON.stringify(missing));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('each call gives its own object (a caller changing one does not change the next)', () => {
  const a = defaultConfig();
  a.context.maxRequestTokens = 1;
  a.agents.maxSteps = 1;
  expect(defaultConfig().context.maxRequestTokens).toBe(16000);
  expect(defaultConfig().agents.maxSteps).toBe(10);
});
