import fc from 'fast-check';
import { fastestInTurns } from '@holic512/testkit';
import { redact } from '../src/redact';

// Redaction must stay linear in the length of its input: hostile output (long hex or base64
// runs, dotted runs, repeated keywords, nested quotes, very long lines) once took minutes for a
// megabyte. The check is a ratio measured in the same run, in turns: 16× the input may cost at
// most 64× the time (linear is 16×, quadratic 256×: 4× room either way for a busy machine),
// never an absolute time.
const adversarial: Record<string, (n: number) => string> = {
  hex: (n) => 'a1b2c3d4e5f6'.repeat(n / 12),
  base64: (n) => 'QUJDRGVmZ2hpamtsbW5vcA=='.repeat(n / 24),
  dots: (n) => 'a.'.repeat(n / 2),
  keywords: (n) => 'xpasswordx'.repeat(n / 10),
  pairs: (n) => 'password=x '.repeat(n / 11),
  quotes: (n) => '"\'"\'"token"\'"\'": "'.repeat(n / 20),
  'url-like': (n) => 'a://b:c'.repeat(n / 7),
  'long env line': (n) => `API_KEY_${'A'.repeat(n - 10)}=x`,
  'private key headers': (n) => '-----BEGIN PRIVATE KEY-----\n'.repeat(n / 28),
};

test.each(Object.keys(adversarial))('%s: 16× the input costs at most 64× the time (quadratic: 256×)', (name) => {
  const make = adversarial[name];
  const [small, large] = fastestInTurns(redact, [make(64 * 1024), make(1024 * 1024)]);
  // floor of 1 ms for the small run keeps timer noise from deciding
  expect(large / Math.max(small, 1e6)).toBeLessThan(64);
});

test('random text never throws and keeps its length class (fuzz)', () => {
  fc.assert(
    fc.property(fc.string({ unit: 'binary', maxLength: 2000 }), (text) => {
      const out = redact(text);
      expect(typeof out).toBe('string');
      expect(out.length).toBeLessThanOrEqual(text.length + 64 * (text.length / 8 + 1));
    }),
    { numRuns: 300, seed: 3 },
  );
});
