import fc from 'fast-check';
import { FRAMED_CORPUS, SECRET_CORPUS, TOOL_FRAMES, findLeak } from '@holic512/testkit';
import { addKnownSecrets, redact, redactCounted } from '../src';
import { forgetGivenTexts } from '../src/redact/gate';

// The gate never throws, is idempotent (redacting its own output changes nothing), and its work
// grows linearly with the input. `npm test` runs the property with a fixed seed; `npm run fuzz`
// runs it with a random seed (printed, and taken back with `npm run fuzz -- --seed N`) and
// many more runs. Linearity is checked by counting work (characters each pass scans, places it
// stops at, characters read there), never with a clock: timing is the bench's job
// (bench/rows/redact.js).

const SEED = process.env.REDACT_FUZZ_SEED ? Number(process.env.REDACT_FUZZ_SEED) : 20261127;
const RUNS = process.env.REDACT_FUZZ_RUNS ? Number(process.env.REDACT_FUZZ_RUNS) : 400;

/** Pieces that make the patterns start and almost match: names, separators, quotes, frames, runs. */
const PIECES = [
  'password',
  'token',
  'api_key',
  'Authorization',
  'Bearer ',
  'sk-',
  'ghp_',
  'AKIA',
  'eyJ',
  'xoxb-',
  '--token ',
  'mysql -p',
  '://',
  'u:p@',
  '=',
  ':',
  '"',
  "'",
  '\\"',
  '\\n',
  ' ',
  '\n',
  '-----BEGIN PRIVATE KEY-----',
  '-----END PRIVATE KEY-----',
  '-----BEGIN RSA PRIVATE KEY-----\n',
  'f:12:',
  'f-13-',
  '+',
  'a1b2c3d4e5f6',
  'QUJDRA==',
  'MIIEpAIBAAKCAQEA75abcdefghij',
  '${',
  '.',
  '-',
  '_',
  'machine h login u password ',
  '<password>',
  '</password>',
  "define('DB_PASSWORD', '",
  '-u a:',
  'Cookie: sid=',
  'password: |\n  ',
  'h:5432:db:u:',
  'Xk29dLq0PzR7mNv4Bt8Wc1Ys',
  '12345678:AA',
  'Q~',
  '[redacted',
  ']',
  'fuzz-known-value-123',
  // The syntax around a value (option words, quoted words, config lines), short names, credential documents.
  '--password=',
  '--token ',
  '"--api-key=',
  "'",
  ',',
  ';',
  '&',
  '(',
  ')',
  '{',
  '}',
  'pw=',
  'db_pw = ',
  'pass: ',
  'PGPASSWORD=',
  ';Password=',
  'Server=db;',
  "mysql -p'",
  'docker login -p ',
  'rootpw ',
  'bindpw ',
  'account ',
  '"type": "service_account"',
  '"private_key_id": "',
  '"appId": "',
  '"password": "',
  '"tenant": "',
  '"auths": {',
  '"SecretAccessKey": "',
  '- name: DB_PASSWORD\n  value: ',
  '{"name": "API_TOKEN", "value": "',
  '://u:p@ss@',
  ' # ',
  '\t',
  '   3\t',
];

const textArb = fc
  .array(fc.oneof(fc.constantFrom(...PIECES), fc.string({ maxLength: 12 })), { maxLength: 60 })
  .map((parts) => parts.join(''));

test(`never throws, returns a string, and is idempotent (seed ${SEED}, ${RUNS} runs)`, () => {
  addKnownSecrets(['fuzz-known-value-123']);
  fc.assert(
    fc.property(textArb, (text) => {
      const once = redact(text);
      expect(typeof once).toBe('string');
      // Scanned again for real: a long text the gate gave out is otherwise served as it is.
      forgetGivenTexts();
      expect(redact(once)).toBe(once);
    }),
    { numRuns: RUNS, seed: SEED },
  );
});

const FRAMES = TOOL_FRAMES;
const SAMPLES = [...SECRET_CORPUS, ...FRAMED_CORPUS];

test(`every format in every framing, mixed, leaks nothing and is idempotent (seed ${SEED})`, () => {
  const arb = fc.array(fc.tuple(fc.constantFrom(...SAMPLES), fc.constantFrom(...Object.keys(FRAMES))), { minLength: 1, maxLength: 4 });
  fc.assert(
    fc.property(arb, (picks) => {
      const text = picks.map(([s, f]) => FRAMES[f](s.text)).join('\n');
      const once = redact(text);
      for (const [s] of picks)
        for (const piece of s.parts ?? [s.secret])
          expect(findLeak(once, piece) ?? (once.includes(piece) ? piece : undefined)).toBeUndefined();
      forgetGivenTexts();
      expect(redact(once)).toBe(once);
    }),
    { numRuns: Math.min(RUNS, 300), seed: SEED },
  );
});

describe('counterexamples the fuzzing found, kept as fixed cases', () => {
  test.each<[string, string[], string]>([
    // A known value masked right before a program name made `mysql -p…` a command on the second pass.
    ['a known value glued to a program name', ['a1b2c3d4e5f6'], 'a1b2c3d4e5f6mysql -ppassword'],
    ['a known value glued to a token prefix', ['a1b2c3d4e5f6'], 'xxa1b2c3d4e5f6sk-abcdefghijklmnopqrstuvwxyz'],
    ['a known value glued to a name and separator', ['a1b2c3d4e5f6'], 'a1b2c3d4e5f6password=hunter22'],
    // A value the last line (entropy) masked, copied elsewhere in the same text.
    ['a high-entropy value seen twice', [], 'upstream = Xk29dLq0PzR7mNv4Bt8Wc1YsHj6F and later Xk29dLq0PzR7mNv4Bt8Wc1YsHj6F'],
    ['a key block whose body is a known value', ['-----END'], '-----BEGIN PRIVATE KEY----------END PRIVATE KEY-----'],
  ])('%s', (_name, known, text) => {
    addKnownSecrets(known);
    const once = redact(text);
    expect(redact(once)).toBe(once);
  });

  test('the first counterexample is masked where it is a command line', () => {
    expect(redact('run: mysql -ppassword1 db')).toBe('run: mysql -p[redacted password, 9 chars] db');
  });
});

/** Texts made of one unit repeated to the length asked for: near-matches and separators. */
const REPEATED: Array<[string, string]> = [
  ['a hex run', 'a1b2c3d4'],
  ['a base64 run', 'QUJDREVGR0g+/'],
  ['nested quotes', '"a":"\\"b\\":\''],
  ['one long line of = and :', 'k=:v:=x'],
  ['names without values', 'password token api_key '],
  ['token prefixes', 'sk-a-ghp_AKIAeyJ.'],
  ['key block headers without bodies', '-----BEGIN PRIVATE KEY-----\n'],
  ['random-looking pairs', 'a=Xk29dLq0PzR7mNv4Bt8W '],
  ['netrc words', 'machine a login b '],
  ['lead literals', '12345678:AA'],
  ['-u options', '-u a:'],
  ['yaml block heads', 'password: |\n'],
  ['dash runs', '--'],
  ['option words with punctuation', '--password=a,b;c(d)[e] '],
  ['options opening quoted words', '"--token=a b '],
  ['config lines of short names', 'pw = a b c ; x\n'],
  ['connection string pairs', 'Server=db;Password=a,b;'],
  ['credential document markers', '{"type": "service_account", "private_key_id": "'],
  ['unclosed braces and markers', '{"auths": {"appId": "x", '],
  ['env list items', '- name: DB_PASSWORD\n  value: '],
  ['spaced config lines', 'rootpw a1!\n'],
  ['quoted program options', "mysql -p'a b "],
];

/** Adversarial texts for each pass: long runs of near-matches, many separators, unterminated blocks. */
const ADVERSARIAL: Array<[string, (n: number) => string]> = [
  ...REPEATED.map(([name, unit]): [string, (n: number) => string] => [name, (n) => unit.repeat(n / unit.length)]),
  ['an unclosed key block', (n) => `-----BEGIN RSA PRIVATE KEY-----\n${'M'.repeat(n)}`],
  ['framed key lines', (n) => 'f:1:-----BEGIN RSA PRIVATE KEY-----\nf-2-MIIEpAIBAAKCAQEA75abcdefghij\n'.repeat(n / 64)],
  ['an unclosed quoted secret', (n) => `password="${'x'.repeat(n)}`],
  // Read back from END markers: one long line of them, and lines of key characters between many.
  ['END markers on one long line', (n) => `${'M'.repeat(n / 2)}${'x -----END RSA PRIVATE KEY-----'.repeat(n / 60)}`],
  ['key lines between END markers', (n) => 'MIIEpAIBAAKCAQEA75abcdefghij\n-----END PRIVATE KEY-----\n'.repeat(n / 54)],
  ['escaped lines between END markers', (n) => '\\\\nMIIEpAIBAAKCAQEA75abcdefghij\\\\n-----END PRIVATE KEY-----'.repeat(n / 60)],
  [
    'random pieces',
    (n) => {
      const unit = fc.sample(textArb, { numRuns: 20, seed: 42 }).join('');
      return unit.repeat(Math.ceil(n / unit.length)).slice(0, n);
    },
  ],
];

const total = (w: { scanned: number; stops: number; inspected: number }): number => w.scanned + w.stops + w.inspected;

test.each(ADVERSARIAL)('work stays linear: %s', (_name, make) => {
  const small = make(32 * 1024);
  const large = make(16 * 32 * 1024);
  const a = total(redactCounted(small).work);
  const b = total(redactCounted(large).work);
  // Linear: 16× the input is about 16× the work (a quadratic pass would be 256×).
  expect(b / a).toBeLessThan(16 * 1.25);
  // And a bounded amount of work per character.
  expect(b / large.length).toBeLessThan(64);
});
