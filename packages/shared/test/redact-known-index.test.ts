import fc from 'fast-check';
import { FormIndex, type Form, type Span } from '../src/redact/form-index';
import { KnownSecrets, MAX_GIVEN_CHARS, secretForms } from '../src/redact/known';

// The index of the known values' forms (form-index.ts) finds what a plain search of every form
// finds, through line breaks, however many forms it holds; the given values are all kept up to a
// budget of characters, and past it the caller learns how many were dropped.

/** What the index must find: every occurrence of every form in the text without line breaks, mapped back, merged. */
function reference(forms: readonly Form[], text: string): Span[] {
  const where: number[] = [];
  for (let i = 0; i < text.length; i++) if (text[i] !== '\n' && text[i] !== '\r') where.push(i);
  const flat = where.map((i) => text[i]).join('');
  const found: Array<{ start: number; end: number; form: string }> = [];
  for (const f of forms) {
    if (f.text.length < 8) continue;
    for (let at = flat.indexOf(f.text); at !== -1; at = flat.indexOf(f.text, at + 1))
      found.push({ start: at, end: at + f.text.length, form: f.form });
  }
  found.sort((a, b) => a.start - b.start || b.end - a.end);
  const merged: Span[] = [];
  for (const sp of found) {
    const start = where[sp.start];
    const end = where[sp.end - 1] + 1;
    const last = merged[merged.length - 1];
    if (last && start <= last.end) last.end = Math.max(last.end, end);
    else merged.push({ start, end, form: sp.form });
  }
  return merged;
}

describe('FormIndex', () => {
  // A small alphabet, so that forms overlap, share prefixes and suffixes, and sit inside each other.
  const letters = fc.constantFrom('a', 'b', 'c', '\n');
  const word = (min: number, max: number) =>
    fc.array(fc.constantFrom('a', 'b', 'c'), { minLength: min, maxLength: max }).map((a) => a.join(''));

  test('finds exactly what a plain search of every form finds, through line breaks, merged where spans overlap or touch', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(word(8, 14), { minLength: 1, maxLength: 12 }),
        fc.array(letters, { maxLength: 120 }),
        fc.array(fc.tuple(fc.nat(), fc.nat(), fc.nat()), { maxLength: 4 }),
        (texts, noise, plants) => {
          const forms = texts.map((text, i) => ({ text, form: `form ${i}` }));
          let text = noise.join('');
          // Plant some forms whole, with a line break somewhere inside one of them.
          for (const [which, at, cut] of plants) {
            const f = texts[which % texts.length];
            const c = cut % f.length;
            const p = at % (text.length + 1);
            text = text.slice(0, p) + f.slice(0, c) + (c ? '\n' : '') + f.slice(c) + text.slice(p);
          }
          const index = new FormIndex();
          index.add(forms);
          expect(index.find(text)).toEqual(reference(forms, text));
        },
      ),
      { numRuns: 400 },
    );
  });

  test('a removed form is not found, the others still are, and its id is used again', () => {
    const index = new FormIndex();
    const [a, b] = index.add([
      { text: 'first-value-1', form: 'one' },
      { text: 'second-value-2', form: 'two' },
    ]);
    const text = 'x first-value-1 y second-value-2 z';
    expect(index.find(text).map((s) => s.form)).toEqual(['one', 'two']);
    index.remove([a]);
    expect(index.find(text).map((s) => s.form)).toEqual(['two']);
    expect(index.size).toBe(1);
    expect(index.add([{ text: 'third-value-3', form: 'three' }])).toEqual([a]);
    expect(index.find('third-value-3 second-value-2').map((s) => s.form)).toEqual(['three', 'two']);
    index.remove([b, b]);
    expect(index.characters).toBe('third-value-3'.length);
  });

  test('forms that share a prefix or a suffix (sk-proj-…, their reversed forms) are all found; a text of the prefix alone finds nothing', () => {
    const index = new FormIndex();
    const values = Array.from({ length: 300 }, (_, i) => `sk-proj-${String(i).padStart(4, '0')}abcdefgh`);
    index.add(values.flatMap((v) => [v, [...v].reverse().join('')].map((text) => ({ text, form: 'known' }))));
    const text = values.map((v, i) => (i % 2 ? v : [...v].reverse().join(''))).join(' | ');
    expect(index.find(text)).toHaveLength(values.length);
    // A text made of the shared prefix alone finds nothing.
    expect(index.find('sk-proj-'.repeat(1000))).toEqual([]);
  });

  test('an empty index, and texts shorter than the shortest form, find nothing; a form across line breaks is found whole', () => {
    const index = new FormIndex();
    expect(index.find('abcdefghijkl')).toEqual([]);
    index.add([{ text: 'abcdefgh', form: 'f' }]);
    expect(index.find('abcdefg')).toEqual([]);
    expect(index.find('ab\ncd\r\nefgh')).toEqual([{ start: 0, end: 11, form: 'f' }]);
    expect(index.add([{ text: 'short', form: 'f' }])).toEqual([]);
  });
});

describe('KnownSecrets', () => {
  const value = (i: number) => `given-secret-${String(i).padStart(6, '0')}-x9`;

  test('thousands of given values are all kept and each is found, in any form (the count cap of 1,024 is gone)', () => {
    const known = new KnownSecrets();
    const values = Array.from({ length: 5000 }, (_, i) => value(i));
    expect(known.add(values)).toEqual({ added: 5000, dropped: 0 });
    for (const i of [0, 1023, 1024, 4999]) {
      const hex = Buffer.from(values[i]).toString('hex');
      expect(known.find(`a ${values[i]} b ${hex} c`)).toHaveLength(2);
    }
    expect(known.dropped).toBe(0);
  });

  test('past the budget of characters, given values are dropped and counted, per call and in all; none is dropped silently', () => {
    const cost = secretForms(value(0)).reduce((n, f) => n + f.text.length, 0);
    const known = new KnownSecrets(cost * 3);
    expect(known.add([value(0), value(1)])).toEqual({ added: 2, dropped: 0 });
    expect(known.add([value(2), value(3), value(4), value(2)])).toEqual({ added: 1, dropped: 2 });
    expect(known.dropped).toBe(2);
    expect(known.find(value(2))).toHaveLength(1);
    expect(known.find(value(3))).toEqual([]);
    // Learned values have a budget of their own: they never take a given value's place.
    expect(known.add([value(5)], true)).toEqual({ added: 1, dropped: 0 });
    expect(known.find(value(5))).toHaveLength(1);
    expect(known.dropped).toBe(2);
  });

  test('learned values make room for newer ones; a learned value given later is kept for good', () => {
    const known = new KnownSecrets();
    const learned = Array.from({ length: 400 }, (_, i) => value(i));
    known.add([learned[0]], true);
    known.add([learned[0]]); // given now
    for (const v of learned.slice(1)) known.add([v], true);
    expect(known.find(learned[1])).toEqual([]); // made room
    expect(known.find(learned[399])).toHaveLength(1);
    expect(known.find(learned[0])).toHaveLength(1); // kept: it was given
    expect(known.has(learned[0])).toBe(true);
  });

  test('the budget holds six .env files (read up to 256 KiB each) of nothing but 40-character keys', () => {
    const line = (i: number) => `SERVICE_${i}_TOKEN=${Buffer.from(`key-${i}-`.padEnd(30, 'x')).toString('base64url').slice(0, 40)}`;
    let bytes = 0;
    let chars = 0;
    for (let i = 0; bytes < 6 * 256 * 1024; i++) {
      bytes += line(i).length + 1;
      chars += secretForms(line(i).split('=')[1]).reduce((n, f) => n + f.text.length, 0);
    }
    expect(chars).toBeLessThanOrEqual(MAX_GIVEN_CHARS);
  });
});
