import { applyPatch, JsonPatchError } from '../src/index';

interface SuiteCase {
  comment?: string;
  doc: unknown;
  patch: unknown;
  expected?: unknown;
  error?: string;
  disabled?: boolean;
}

const files = ['tests.json', 'spec_tests.json'] as const;
const suites = files.map((file) => ({
  file,
  cases: (require(`json-patch-test-suite/${file}`) as SuiteCase[]).filter((c) => !c.disabled),
}));
const total = suites.reduce((n, s) => n + s.cases.length, 0);

test('the suite is there and not empty', () => {
  // tests.json has 78 cases (3 disabled), spec_tests.json 17 (1 disabled): 91 enabled.
  expect(total).toBe(91);
});

describe.each(suites)('RFC 6902 suite: $file', ({ cases }) => {
  test.each(cases.map((c, i) => [`${i}: ${c.comment ?? JSON.stringify(c.patch)}`, c] as const))('%s', (_name, c) => {
    const docBefore = JSON.stringify(c.doc);
    if (c.error !== undefined) {
      let thrown: unknown;
      try {
        applyPatch(c.doc, c.patch);
      } catch (err) {
        thrown = err;
      }
      expect(JsonPatchError.isInstance(thrown)).toBe(true);
      expect((thrown as JsonPatchError).index).toEqual(expect.any(Number));
    } else if ('expected' in c) {
      expect(applyPatch(c.doc, c.patch)).toStrictEqual(c.expected);
    } else {
      // Cases with neither: the patch must apply (they are all passing `test`s).
      expect(() => applyPatch(c.doc, c.patch)).not.toThrow();
    }
    expect(JSON.stringify(c.doc)).toBe(docBefore);
  });
});
