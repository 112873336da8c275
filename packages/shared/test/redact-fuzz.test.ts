import fc from 'fast-check';
import { addKnownSecrets, redact } from '../src';

// The gate never throws, is idempotent, and its work grows linearly with the input. Time is
// compared between n and 8n characters of the same text in the same run (linear: about 8×,
// quadratic: about 64×), never against a fixed number of milliseconds.

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

/** Fastest of a few runs: the least disturbed by other work on the machine. */
function fastest(text: string): number {
  let best = Infinity;
  for (let i = 0; i < 3; i++) {
    const t0 = process.hrtime.bigint();
    redact(text);
    best = Math.min(best, Number(process.hrtime.bigint() - t0));
  }
  return best;
}

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
  const large = make(8 * 32 * 1024);
  fastest(small); // warm up the compiled patterns
  const ratio = fastest(large) / Math.max(fastest(small), 1);
  expect(ratio).toBeLessThan(30);
});
