import { configSchemas } from '../src/config-schema';
import { plainConfig } from '../src/config-plain';

// llm-base.json of the usual shape is read without zod (a turn that only talks never loads it);
// what it reads must be what the schema gives, key order included, and it must never take what
// the schema refuses.
const throughSchema = (json: unknown) => {
  const parsed = configSchemas().ConfigSchema.safeParse(json);
  return parsed.success ? parsed.data : undefined;
};

function configs(seed: number, n: number): unknown[] {
  let s = seed;
  const rnd = () => (s = (s * 1103515245 + 12345) >>> 0) / 2 ** 32;
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)];
  const odd = [undefined, null, '', 'x', -1, 0, 0.5, 1, 600, 1e20, true, [], {}, NaN];
  // Each field: values the schema takes, then values it refuses.
  const fields: Array<[string, unknown[], unknown[]]> = [
    ['base_url', ['http://127.0.0.1:8080/v1', 'https://api.x.com/v1'], ['ftp://x', 'nope', '']],
    ['api_key', ['sk-1', '', 'env:KEY'], [5]],
    ['low_model', ['m'], ['']],
    ['high_model', ['m2'], ['']],
    ['timeout', [1, 60000], [0, -5, 2.5, 1e20]],
    ['json_mode', ['prompt', 'response_format'], ['other']],
    ['max_retries', [0, 2, 10], [11, -1, 1.5]],
    ['connect_timeout', [5000], [0, 0.5]],
    ['first_token_timeout', [1, 120000], [-1]],
    ['idle_timeout', [30000], [0]],
    ['provider', ['ollama'], ['']],
    ['num_ctx', [512, 4096, 1_048_576], [511, 2_000_000]],
    ['keep_alive', ['30m', -1, 300], ['', 1.5]],
    ['transport', ['auto', 'tools', 'json_schema', 'json'], ['xml']],
    ['capabilities', [{ tools: true, json_schema: false, json_object: true, probed_at: 't' }, { tools: true, json_schema: false, json_object: true, vision: false, probed_at: 't', extra: 1 }], [{ tools: 1 }, null]],
    ['pricing', [{ currency: 'USD', low: { input: 1, output: 2 } }, { currency: 'CNY', low: { input: 0, cached_input: 0.1, output: 2, x: 1 }, high: { input: 3, output: 4 }, as_of: '2026', y: 2 }], [{ currency: 'TOO-LONG-X', low: { input: 1, output: 1 } }, { currency: 'USD', low: { input: -1, output: 1 } }, { currency: 'USD' }]],
    ['extra', ['kept', { a: 1 }, [1]], []],
  ];
  const out: unknown[] = [];
  for (let i = 0; i < n; i++) {
    const profiles: Record<string, unknown> = {};
    for (let j = Math.floor(rnd() * 3) + (rnd() < 0.9 ? 1 : 0); j > 0; j--) {
      const p: Record<string, unknown> = {};
      // Mostly valid values, so most profiles are of the usual shape; sometimes an odd one.
      for (const [key, good, bad] of fields) {
        const required = key === 'base_url' || key === 'low_model' || key === 'high_model';
        if (rnd() < (required ? 0.98 : 0.3)) p[key] = rnd() < 0.93 || !bad.length ? pick(good) : rnd() < 0.7 ? pick(bad) : pick(odd);
      }
      profiles[pick(['a', 'b', 'default', '1'])] = p;
    }
    const root: Record<string, unknown> = {};
    if (rnd() < 0.8) root.default_profile = rnd() < 0.95 ? 'a' : pick(odd);
    root.profiles = rnd() < 0.97 ? profiles : pick(odd);
    if (rnd() < 0.2) root.note = 'kept';
    out.push(root);
  }
  return out;
}

test('a config read without zod is what the schema gives, key order included (4,000 configs, fixed seed)', () => {
  let read = 0;
  for (const json of configs(21, 4000)) {
    const plain = plainConfig(json);
    const theirs = throughSchema(json);
    if (plain === undefined) continue;
    read++;
    expect(plain).toStrictEqual(theirs);
    expect(JSON.stringify(plain)).toBe(JSON.stringify(theirs));
  }
  expect(read).toBeGreaterThan(800);
});

test('the usual configs are read without the schema', () => {
  const usual = [
    { default_profile: 'p', profiles: { p: { base_url: 'http://127.0.0.1:8080/v1', api_key: 'sk-x', low_model: 'm', high_model: 'm', timeout: 10000, max_retries: 0 } } },
    { profiles: { p: { base_url: 'https://api.deepseek.com/v1', low_model: 'a', high_model: 'b', json_mode: 'response_format', capabilities: { tools: true, json_schema: true, json_object: true, vision: false, probed_at: '2026-11-01' } } } },
    { default_profile: '', profiles: {} },
  ];
  for (const json of usual) expect(plainConfig(json)).toStrictEqual(throughSchema(json));
  for (const json of usual) expect(plainConfig(json)).toBeDefined();
});

test('odd shapes go to the schema: undefined fields, __proto__ keys, other prototypes', () => {
  const ok = { base_url: 'http://x/v1', low_model: 'm', high_model: 'm' };
  const odd = [
    { profiles: { p: { ...ok, timeout: undefined } } },
    JSON.parse(`{"profiles":{"__proto__":${JSON.stringify(ok)}}}`),
    JSON.parse(`{"profiles":{"p":{"base_url":"http://x/v1","low_model":"m","high_model":"m","__proto__":{}}}}`),
    { profiles: { p: Object.assign(Object.create(null), ok) } },
    { profiles: { p: { ...ok, timeout: Number.MAX_SAFE_INTEGER + 2 } } },
  ];
  for (const json of odd) expect(plainConfig(json)).toBeUndefined();
});
