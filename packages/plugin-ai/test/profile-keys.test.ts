import { z } from 'zod';
import { profileKeys } from '../src/config/known-secrets';

// The API keys of llm-base.json are read without zod when the file has the usual shape; the
// schema they were read with before must give the same keys, for any parsed JSON.
const schema = z.object({ profiles: z.record(z.string(), z.object({ api_key: z.unknown().optional() }).passthrough()) }).passthrough();
const throughSchema = (raw: unknown) => {
  const parsed = schema.safeParse(raw);
  return parsed.success ? Object.values(parsed.data.profiles).map((p) => p.api_key) : undefined;
};

function configs(seed: number, n: number): unknown[] {
  let s = seed;
  const rnd = () => (s = (s * 1103515245 + 12345) >>> 0) / 2 ** 32;
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)];
  const odd = [undefined, null, 0, 'sk-x', 'env:KEY', [], ['a'], {}, true];
  const out: unknown[] = [];
  for (let i = 0; i < n; i++) {
    const profiles: Record<string, unknown> = {};
    for (let j = Math.floor(rnd() * 4); j > 0; j--) {
      const p: Record<string, unknown> = rnd() < 0.9 ? { base_url: 'http://x' } : {};
      if (rnd() < 0.8) p.api_key = pick(odd);
      profiles[pick(['a', 'b', '1', 'default'])] = rnd() < 0.9 ? p : pick(odd);
    }
    const root: Record<string, unknown> = { default_profile: 'a' };
    if (rnd() < 0.95) root.profiles = rnd() < 0.95 ? profiles : pick(odd);
    out.push(rnd() < 0.95 ? root : pick(odd));
  }
  return [...out, JSON.parse('{"profiles":{"__proto__":{"api_key":"sk-p"},"a":{"api_key":"sk-a"}}}')];
}

test('the keys read without zod are the keys the schema gives (2,000 configs, fixed seed)', () => {
  for (const raw of configs(5, 2000)) expect(profileKeys(raw)).toStrictEqual(throughSchema(raw));
});
