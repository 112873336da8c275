import fc from 'fast-check';
import { redactCounted } from '@holic512/shared';
import { forgetGivenTexts } from '@holic512/shared/lib/redact/gate';
import { redact } from '../src/redact';

// Redaction must stay linear in the length of its input: hostile output (long hex or base64
// runs, dotted runs, repeated keywords, nested quotes, very long lines) once took minutes for a
// megabyte. The check counts the gate's work (characters each pass scans, places it stops at,
// characters read there), so it holds on a loaded machine: 16× the input may cost at most 20×
// the work (linear is 16×, quadratic 256×). Time is measured by the bench (bench/rows/redact.js).
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

const work = (text: string): number => {
  // A scan for real: a long text the gate gave out (the same text measured twice) is otherwise served as it is.
  forgetGivenTexts();
  const { work: w } = redactCounted(text);
  return w.scanned + w.stops + w.inspected;
};

test.each(Object.keys(adversarial))('%s: 16× the input costs at most 20× the work (quadratic: 256×)', (name) => {
  const make = adversarial[name];
  const small = work(make(64 * 1024));
  const large = work(make(1024 * 1024));
  expect(large / small).toBeLessThan(20);
});

test('the count sees a pass that does more work: twice the passes over the same text count twice', () => {
  const text = 'password=x '.repeat(1000);
  expect(work(text + text)).toBeGreaterThan(1.8 * work(text));
  expect(work(text)).toBeGreaterThan(text.length);
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
