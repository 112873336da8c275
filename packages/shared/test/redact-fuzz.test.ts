import fc from 'fast-check';
import { fastestInTurns } from '@holic512/testkit';
import { addKnownSecrets, redact } from '../src';

// The gate never throws, is idempotent, and its work grows linearly with the input. Time is
// compared between n and 16n characters of the same text in the same run, measured in turns
// (linear: about 16×, quadratic: about 256×; the bound, 64×, leaves 4× either way for a busy
// machine), never against a fixed number of milliseconds.

/** Pieces that make the patterns start and almost match: names, separators, quotes, runs. */
const PIECES = ['password', 'token', 'api_key', 'Authorization', 'Bearer ', 'sk-', 'ghp_', 'AKIA', 'eyJ', 'xoxb-', '--token ', 'mysql -p',
  '://', 'u:p@', '=', ':', '"', "'", '\\"', ' ', '\n', '-----BEGIN PRIVATE KEY-----', '-----END PRIVATE KEY-----', 'a1b2c3d4e5f6', 'QUJDRA==', '${', '.', '-', '_'];

const textArb = fc.array(fc.oneof(fc.constantFrom(...PIECES), fc.string({ maxLength: 12 })), { maxLength: 60 }).map((parts) => parts.join(''));

test('never throws, returns a string, and is idempotent on random and adversarial text', () => {
  addKnownSecrets(['fuzz-known-value-123']);
  fc.assert(
    fc.property(textArb, (text) => {
      const once = redact(text);
      expect(typeof once).toBe('string');
      expect(redact(once)).toBe(once);
    }),
    { numRuns: 400 },
  );
});

const ADVERSARIAL: Array<[string, (n: number) => string]> = [
  ['a hex run', (n) => 'a1b2c3d4'.repeat(n / 8)],
  ['a base64 run', (n) => 'QUJDREVGR0g+/'.repeat(n / 13)],
  ['nested quotes', (n) => '"a":"\\"b\\":\''.repeat(n / 12)],
  ['one long line of = and :', (n) => 'k=:v:=x'.repeat(n / 7)],
  ['names without values', (n) => 'password token api_key '.repeat(n / 23)],
  ['token prefixes', (n) => 'sk-a-ghp_AKIAeyJ.'.repeat(n / 17)],
  ['an unclosed key block', (n) => '-----BEGIN RSA PRIVATE KEY-----\n' + 'M'.repeat(n)],
  ['an unclosed quoted secret', (n) => 'password="' + 'x'.repeat(n)],
  ['dash runs', (n) => '--'.repeat(n / 2)],
  ['random pieces', (n) => fc.sample(textArb, { numRuns: 1, seed: 42 })[0].repeat(Math.max(1, n / 200)).slice(0, n)],
];

test.each(ADVERSARIAL)('work stays linear: %s', (_name, make) => {
  const small = make(32 * 1024);
  const large = make(16 * 32 * 1024);
  redact(small); // warm up the compiled patterns
  const [s, l] = fastestInTurns(redact, [small, large]);
  expect(l / Math.max(s, 1)).toBeLessThan(64);
});
