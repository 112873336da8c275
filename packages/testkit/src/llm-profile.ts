// llm-base profiles and its config file, as the tests of llm-base write them.

/** A profile of llm-base (`plugin-configs/llm-base.json` → `profiles.<name>`). */
export interface LlmProfile {
  base_url: string;
  api_key: string;
  low_model: string;
  high_model: string;
  timeout: number;
  max_retries?: number;
  [field: string]: unknown;
}

/**
 * An llm-base profile on a test server: `baseURL` (a scripted server's `baseURL`, an Ollama's
 * `${baseURL}/v1`), no key, models `test-low` and `test-high`, a 5 s timeout and no retries;
 * `fields` win (an `undefined` field is left out of the file).
 *
 * @example llmProfile(server.baseURL, { api_key: 'sk-test', timeout: 30000 })
 */
export function llmProfile(baseURL: string, fields: Record<string, unknown> = {}): LlmProfile {
  return { base_url: baseURL, api_key: '', low_model: 'test-low', high_model: 'test-high', timeout: 5000, max_retries: 0, ...fields };
}

/**
 * The content of `plugin-configs/llm-base.json` holding `profiles`; the default is the first
 * unless `defaultProfile` names another.
 *
 * @example await home.writeJson('plugin-configs/llm-base.json', llmBaseConfig({ local: llmProfile(server.baseURL) }));
 */
export function llmBaseConfig(
  profiles: Record<string, LlmProfile>,
  defaultProfile = Object.keys(profiles)[0] ?? '',
): { default_profile: string; profiles: Record<string, LlmProfile> } {
  return { default_profile: defaultProfile, profiles };
}
