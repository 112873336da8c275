import type { JsonMode, ProfilePricing } from './types';

/** A starting point for `config create --preset <name>`. */
export interface Preset {
  name: string;
  /** Display name of the provider or server. */
  label: string;
  base_url: string;
  low_model: string;
  high_model: string;
  needs_key: boolean;
  /** Suggested api_key (an env reference) for providers that need one. */
  api_key?: string;
  json_mode?: JsonMode;
  /** `ollama`: llm_chat uses Ollama's native API for num_ctx and keep_alive (ollama-native.ts). */
  provider?: 'ollama';
  /** Published prices per million tokens of the preset's models (check the provider's page: they change). */
  pricing?: ProfilePricing;
  /** How to start the server / get a model, for doctor's fixes (local servers only). */
  start_hint?: string;
  pull_hint?: string;
}

export const PRESETS: readonly Preset[] = [
  {
    name: 'openai',
    label: 'OpenAI',
    base_url: 'https://api.openai.com/v1',
    low_model: 'gpt-4o-mini',
    high_model: 'gpt-4o',
    needs_key: true,
    api_key: 'env:OPENAI_API_KEY',
    json_mode: 'response_format',
    pricing: {
      currency: 'USD',
      low: { input: 0.15, cached_input: 0.075, output: 0.6 },
      high: { input: 2.5, cached_input: 1.25, output: 10 },
      as_of: '2025-10',
    },
  },
  {
    name: 'deepseek',
    label: 'DeepSeek',
    base_url: 'https://api.deepseek.com/v1',
    low_model: 'deepseek-chat',
    high_model: 'deepseek-reasoner',
    needs_key: true,
    api_key: 'env:DEEPSEEK_API_KEY',
    json_mode: 'response_format',
    pricing: { currency: 'CNY', low: { input: 2, cached_input: 0.2, output: 3 }, as_of: '2025-10' },
  },
  {
    name: 'qwen',
    label: 'Qwen (DashScope)',
    base_url: 'https://dashscope.aliyuncs.com/compatible-mode/v1',
    low_model: 'qwen-plus',
    high_model: 'qwen-max',
    needs_key: true,
    api_key: 'env:DASHSCOPE_API_KEY',
    json_mode: 'response_format',
    pricing: { currency: 'CNY', low: { input: 0.8, output: 2 }, high: { input: 2.4, output: 9.6 }, as_of: '2025-10' },
  },
  {
    name: 'glm',
    label: 'GLM (Zhipu BigModel)',
    base_url: 'https://open.bigmodel.cn/api/paas/v4',
    low_model: 'glm-4-flash',
    high_model: 'glm-4-plus',
    needs_key: true,
    api_key: 'env:ZHIPUAI_API_KEY',
    json_mode: 'response_format',
  },
  {
    name: 'kimi',
    label: 'Kimi (Moonshot)',
    base_url: 'https://api.moonshot.cn/v1',
    low_model: 'moonshot-v1-8k',
    high_model: 'moonshot-v1-32k',
    needs_key: true,
    api_key: 'env:MOONSHOT_API_KEY',
    json_mode: 'response_format',
  },
  {
    name: 'ollama',
    label: 'Ollama',
    base_url: 'http://127.0.0.1:11434/v1',
    low_model: 'qwen2.5:7b',
    high_model: 'qwen2.5:14b',
    needs_key: false,
    json_mode: 'response_format',
    provider: 'ollama',
    start_hint: 'ollama serve',
    pull_hint: 'ollama pull {model}',
  },
  {
    name: 'lmstudio',
    label: 'LM Studio',
    base_url: 'http://127.0.0.1:1234/v1',
    low_model: 'qwen2.5-7b-instruct',
    high_model: 'qwen2.5-14b-instruct',
    needs_key: false,
    start_hint: 'lms server start',
    pull_hint: 'lms get {model} && lms load {model}',
  },
  {
    name: 'vllm',
    label: 'vLLM',
    base_url: 'http://127.0.0.1:8000/v1',
    low_model: 'Qwen/Qwen2.5-7B-Instruct',
    high_model: 'Qwen/Qwen2.5-7B-Instruct',
    needs_key: false,
    json_mode: 'response_format',
    start_hint: 'vllm serve Qwen/Qwen2.5-7B-Instruct',
    pull_hint: 'vllm serve {model}',
  },
  {
    name: 'llamacpp',
    label: 'llama.cpp server',
    base_url: 'http://127.0.0.1:8080/v1',
    low_model: 'default',
    high_model: 'default',
    needs_key: false,
    json_mode: 'response_format',
    start_hint: 'llama-server -m <model.gguf> --port 8080',
    pull_hint: 'llama-server -m <{model}.gguf>',
  },
];

/** The local-server preset whose port matches a loopback base_url, for start / pull hints. */
export function localPreset(profile: { base_url: string }): Preset | undefined {
  let url: URL;
  try {
    url = new URL(profile.base_url);
  } catch {
    return undefined;
  }
  if (!['127.0.0.1', 'localhost', '::1', '[::1]', '0.0.0.0'].includes(url.hostname)) return undefined;
  return PRESETS.find((p) => p.start_hint && new URL(p.base_url).port === url.port);
}

/** How to start the profile's server, when it is a known local one (an Ollama profile: `ollama serve`). */
export function startHintOf(profile: { base_url: string; provider?: string }): string | undefined {
  return profile.provider === 'ollama' ? findPreset('ollama')?.start_hint : localPreset(profile)?.start_hint;
}

export function findPreset(name: string): Preset | undefined {
  const key = name.toLowerCase().replace(/[\s_.-]/g, '');
  const aliases: Record<string, string> = {
    dashscope: 'qwen',
    zhipu: 'glm',
    bigmodel: 'glm',
    moonshot: 'kimi',
    lmstudio: 'lmstudio',
    llama: 'llamacpp',
    llamacppserver: 'llamacpp',
    llamaserver: 'llamacpp',
  };
  const wanted = aliases[key] ?? key;
  return PRESETS.find((p) => p.name === wanted);
}

/**
 * Where the ollama CLI looks for its server, `OLLAMA_HOST` (`host`, `host:port` or
 * `http://host:port`; without a scheme the port is 11434 when left out, with one the scheme's), as
 * an OpenAI-compatible base URL. `0.0.0.0` (a server listening everywhere) is reached at
 * 127.0.0.1. Undefined when unset or unusable.
 */
export function ollamaHostBaseUrl(env: NodeJS.ProcessEnv): string | undefined {
  const raw = env.OLLAMA_HOST?.trim();
  if (!raw) return undefined;
  try {
    // As ollama reads it: without a scheme the port defaults to 11434, with one to the scheme's.
    const schemed = /^[a-z]+:\/\//i.test(raw);
    const url = new URL(schemed ? raw : `http://${raw}`);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
    const host = url.hostname === '0.0.0.0' || url.hostname === '[::]' ? '127.0.0.1' : url.hostname;
    const port = url.port || (schemed ? '' : '11434');
    return `${url.protocol}//${host}${port ? `:${port}` : ''}/v1`;
  } catch {
    return undefined;
  }
}

/** A preset's base URL on this machine: the Ollama preset follows OLLAMA_HOST when it is set. */
export function presetBaseUrl(preset: Preset, env: NodeJS.ProcessEnv = process.env): string {
  return (preset.provider === 'ollama' ? ollamaHostBaseUrl(env) : undefined) ?? preset.base_url;
}

/** The profile fields a preset gives (`env`: where OLLAMA_HOST is read, see presetBaseUrl). */
export function presetProfile(preset: Preset, env: NodeJS.ProcessEnv = process.env): Record<string, unknown> {
  return {
    base_url: presetBaseUrl(preset, env),
    api_key: preset.api_key ?? '',
    low_model: preset.low_model,
    high_model: preset.high_model,
    timeout: 60000,
    ...(preset.json_mode ? { json_mode: preset.json_mode } : {}),
    ...(preset.provider ? { provider: preset.provider } : {}),
    ...(preset.pricing ? { pricing: preset.pricing } : {}),
  };
}
