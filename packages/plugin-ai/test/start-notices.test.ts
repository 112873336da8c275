import { startNotices } from '../src/cli/start-notices';
import { knownSecretsDropped } from '../src/config/known-secrets';

// What a session says once at start about the redaction gate: the secret values it could not take
// to look for by value (masked by their shape and name only), in both languages; nothing when none.

test.each([
  ['en', /^The redaction gate is full: 3 of the secret values .* masked only by their shape and name/],
  ['zh', /^脱敏网关已满：.*有 3 个只按其形态和名称遮盖/],
] as const)('%s: the count of secret values the gate dropped', (lang, said) => {
  const lines = startNotices({ knownSecretsDropped: 3 }, lang);
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(said);
});

test('none dropped: nothing said, and the app carries no count', () => {
  expect(startNotices({}, 'en')).toEqual([]);
  expect(startNotices({ knownSecretsDropped: 0 }, 'zh')).toEqual([]);
  // This process gave the gate nothing near its budget.
  expect(knownSecretsDropped()).toEqual({});
});
