import { llmBaseConfig, llmProfile } from '../src/index';

test('llmProfile: the test defaults on the given server, the fields given win, an undefined field is left out of the file', () => {
  expect(llmProfile('http://127.0.0.1:1/v1')).toEqual({
    base_url: 'http://127.0.0.1:1/v1',
    api_key: '',
    low_model: 'test-low',
    high_model: 'test-high',
    timeout: 5000,
    max_retries: 0,
  });
  const p = llmProfile('http://127.0.0.1:1/v1', { api_key: 'sk-x', timeout: 30000, provider: 'ollama', max_retries: undefined });
  expect(p).toMatchObject({ api_key: 'sk-x', timeout: 30000, provider: 'ollama' });
  expect(JSON.parse(JSON.stringify(p))).not.toHaveProperty('max_retries');
});

test('llmBaseConfig: the first profile is the default unless one is named', () => {
  const a = llmProfile('http://127.0.0.1:1/v1');
  const b = llmProfile('http://127.0.0.1:2/v1');
  expect(llmBaseConfig({ a, b })).toEqual({ default_profile: 'a', profiles: { a, b } });
  expect(llmBaseConfig({ a, b }, 'b').default_profile).toBe('b');
  expect(llmBaseConfig({})).toEqual({ default_profile: '', profiles: {} });
});
