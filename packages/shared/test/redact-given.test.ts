import { fakeToken } from '@holic512/testkit';
import { addKnownSecrets, redact, redactCounted, redactValue } from '../src';
import { forgetGivenTexts } from '../src/redact/gate';

// A long text the gate gave out is not scanned again while no secret value was added: redacting
// its own output changes nothing (idempotent, redact-fuzz.test.ts), and a step's output passes
// the gate whole, again inside the tool result and again in the audit log. Once a value is
// added, the text is scanned again and the new value is masked in it.

const log = (seed: string): string =>
  Array.from({ length: 300 }, (_, i) => `${seed} line ${i}: compiled module ${i} in ${i % 7} ms\n`).join('');

beforeEach(() => forgetGivenTexts());

test('the gate does not scan its own long output again, and gives the same text', () => {
  const token = `ghp_${fakeToken('given-1', 36)}`;
  const out = redact(`${log('a')}export GITHUB_TOKEN=${token}\n`);
  expect(out.length).toBeGreaterThan(4096);
  expect(out).not.toContain(token);
  const again = redactCounted(out);
  expect(again.text).toBe(out);
  expect(again.work.scanned).toBe(0);
  // Inside a value (a tool result's tail) too.
  expect(redactValue({ stdoutTail: out })).toEqual({ stdoutTail: out });
});

test('a value added since is masked in a text given out before it', () => {
  const late = fakeToken('given-late', 40);
  const out = redact(`${log('b')}cache key ${late} stored\n`);
  expect(out).toContain(late); // a bare value with no name around it: not a secret yet
  addKnownSecrets([late]);
  const again = redactCounted(out);
  expect(again.work.scanned).toBeGreaterThan(out.length);
  expect(again.text).not.toContain(late);
});

test('short texts, very long ones and texts the gate never gave out are scanned', () => {
  const huge = redact('x'.repeat(300_000));
  expect(redactCounted(huge).work.scanned).toBeGreaterThan(0);
  const short = 'password=hunter2hunter2 and more';
  redact(short);
  expect(redactCounted(redact(short)).work.scanned).toBeGreaterThan(0);
  const fresh = log('c');
  expect(redactCounted(fresh).work.scanned).toBeGreaterThan(fresh.length - 1);
});

test('only the last texts are kept: an early one is scanned again after sixteen others', () => {
  const first = redact(log('first'));
  for (let i = 0; i < 16; i++) redact(log(`other-${i}`));
  expect(redactCounted(first).work.scanned).toBeGreaterThan(0);
  expect(redactCounted(first).work.scanned).toBe(0);
});
