import { createHash } from 'crypto';
import { addEnvSecrets, addKnownSecrets, knownSecretsDropped, MAX_GIVEN_CHARS, redact, secretForms } from '../src';

// The gate's given values past its budget (the process-wide gate, in a test file of its own): the
// caller learns how many were dropped, per call and in all; a dropped value is still masked by
// its name.

/** 500 random-looking characters, the same every run. */
const value = (i: number) =>
  [0, 1, 2, 3]
    .map((k) => createHash('sha512').update(`${i}/${k}`).digest('hex'))
    .join('')
    .slice(0, 500);

test('values past the budget are dropped and counted; nothing before it is', () => {
  expect(knownSecretsDropped()).toBe(0);
  const cost = secretForms(value(0)).reduce((n, f) => n + f.text.length, 0);
  const fit = Math.floor(MAX_GIVEN_CHARS / cost);
  const first = addKnownSecrets(Array.from({ length: fit - 10 }, (_, i) => value(i)));
  expect(first).toEqual({ added: fit - 10, dropped: 0 });
  expect(knownSecretsDropped()).toBe(0);
  const env = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`K${i}_TOKEN`, value(fit + i)]));
  const more = addEnvSecrets(env);
  expect(more.added + more.dropped).toBe(30);
  expect(more.dropped).toBeGreaterThanOrEqual(20);
  expect(knownSecretsDropped()).toBe(more.dropped);
  // The last one was dropped: not found by value, still masked under its name.
  const dropped = value(fit + 29);
  expect(redact(`x ${dropped} y`)).not.toContain('[redacted known secret');
  expect(redact(`K29_TOKEN=${dropped}`)).not.toContain(dropped);
  // One kept before the budget ran out is found by value, in another form.
  expect(redact(`x ${Buffer.from(value(7)).toString('base64')} y`)).toContain('[redacted known secret');
});
