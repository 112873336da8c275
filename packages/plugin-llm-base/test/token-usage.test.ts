import { normalizeUsage } from '../src/token-usage';
import { promptCacheKey } from '../src/prompt-cache';

// Cached input as each API reports it, in one shape; the cache key only where it is documented.
test.each<[string, unknown, object]>([
  [
    'OpenAI',
    { prompt_tokens: 1000, completion_tokens: 20, prompt_tokens_details: { cached_tokens: 768 } },
    { input_tokens: 1000, output_tokens: 20, cached_tokens: 768 },
  ],
  [
    'DeepSeek',
    { prompt_tokens: 900, completion_tokens: 5, prompt_cache_hit_tokens: 640, prompt_cache_miss_tokens: 260 },
    { input_tokens: 900, output_tokens: 5, cached_tokens: 640 },
  ],
  // Anthropic's input_tokens leave out what came from (or went into) the cache: the whole prompt is their sum.
  [
    'Anthropic-compatible',
    { input_tokens: 40, output_tokens: 12, cache_read_input_tokens: 2000, cache_creation_input_tokens: 60 },
    { input_tokens: 2100, output_tokens: 12, cached_tokens: 2000 },
  ],
  [
    'Anthropic-compatible, nothing cached yet',
    { input_tokens: 40, output_tokens: 12, cache_read_input_tokens: 0, cache_creation_input_tokens: 1500 },
    { input_tokens: 1540, output_tokens: 12 },
  ],
  [
    'an OpenAI shape that also carries the Anthropic field',
    { prompt_tokens: 500, completion_tokens: 1, cache_read_input_tokens: 300 },
    { input_tokens: 500, output_tokens: 1, cached_tokens: 300 },
  ],
  ['Ollama (prompt and answer counts only)', { prompt_tokens: 321, completion_tokens: 9 }, { input_tokens: 321, output_tokens: 9 }],
  [
    'nonsense',
    { prompt_tokens: -4, completion_tokens: 'x', prompt_tokens_details: { cached_tokens: Number.NaN } },
    { input_tokens: 0, output_tokens: 0 },
  ],
  [
    'more cached than sent is capped',
    { prompt_tokens: 10, completion_tokens: 1, prompt_tokens_details: { cached_tokens: 50 } },
    { input_tokens: 10, output_tokens: 1, cached_tokens: 10 },
  ],
])('%s', (_name, raw, expected) => {
  expect(normalizeUsage(raw)).toEqual(expected);
});

test.each<[string, string | undefined, object]>([
  ['https://api.openai.com/v1', 's1', { prompt_cache_key: 's1' }],
  ['https://API.OpenAI.com/v1/', 's1', { prompt_cache_key: 's1' }],
  ['https://api.openai.com/v1', undefined, {}],
  // Any other server: a strict one may refuse a field it does not know.
  ['https://api.deepseek.com/v1', 's1', {}],
  ['http://127.0.0.1:11434/v1', 's1', {}],
  ['https://api.openai.com.evil.example/v1', 's1', {}],
  ['http://api.openai.com/v1', 's1', {}],
  ['not a url', 's1', {}],
])('%s with key %s → %j', (url, key, expected) => {
  expect(promptCacheKey(url, key)).toEqual(expected);
});

test('a long key is cut to what OpenAI takes', () => {
  expect(promptCacheKey('https://api.openai.com/v1', 'k'.repeat(100)).prompt_cache_key).toHaveLength(64);
});
