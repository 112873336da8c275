import type { PresetInfo } from './llm-base-module';

/** A hosted provider as the setup shows it. */
export interface HostedPreset {
  name: string;
  label: string;
  base_url: string;
  low_model: string;
  high_model: string;
  /** The environment variable its key usually lives in. */
  keyEnv: string;
  /** Profile fields the preset gives beyond the URL and models (json_mode, provider, pricing): kept in the profile the setup saves. */
  extras: PresetExtras;
}

/** A preset's profile fields beyond the URL and models, kept as they are in the saved profile. */
export interface PresetExtras {
  json_mode?: string;
  provider?: string;
  pricing?: unknown;
}

/** The extra profile fields of an llm-base preset (the ones it has). */
export function presetExtras(p: PresetExtras): PresetExtras {
  return {
    ...(p.json_mode ? { json_mode: p.json_mode } : {}),
    ...(p.provider ? { provider: p.provider } : {}),
    ...(p.pricing ? { pricing: p.pricing } : {}),
  };
}

/** Display names and key variables of llm-base's hosted presets, in the order shown. */
const HOSTED: ReadonlyArray<Omit<HostedPreset, 'extras'> & PresetExtras> = [
  {
    name: 'deepseek',
    label: 'DeepSeek',
    keyEnv: 'DEEPSEEK_API_KEY',
    base_url: 'https://api.deepseek.com/v1',
    low_model: 'deepseek-chat',
    high_model: 'deepseek-reasoner',
    json_mode: 'response_format',
  },
  {
    name: 'qwen',
    label: 'Qwen (DashScope)',
    keyEnv: 'DASHSCOPE_API_KEY',
    base_url: 'https://dashscope.aliyuncs.com/compatible-mode/v1',
    low_model: 'qwen-plus',
    high_model: 'qwen-max',
    json_mode: 'response_format',
  },
  {
    name: 'glm',
    label: 'GLM (Zhipu)',
    keyEnv: 'ZHIPUAI_API_KEY',
    base_url: 'https://open.bigmodel.cn/api/paas/v4',
    low_model: 'glm-4-flash',
    high_model: 'glm-4-plus',
    json_mode: 'response_format',
  },
  {
    name: 'kimi',
    label: 'Kimi (Moonshot)',
    keyEnv: 'MOONSHOT_API_KEY',
    base_url: 'https://api.moonshot.cn/v1',
    low_model: 'moonshot-v1-8k',
    high_model: 'moonshot-v1-32k',
    json_mode: 'response_format',
  },
  {
    name: 'openai',
    label: 'OpenAI',
    keyEnv: 'OPENAI_API_KEY',
    base_url: 'https://api.openai.com/v1',
    low_model: 'gpt-4o-mini',
    high_model: 'gpt-4o',
    json_mode: 'response_format',
  },
];

/** What a local server's preset gives a profile: default models (when the server lists none) and json_mode. */
export interface LocalPreset {
  low_model: string;
  high_model: string;
  extras: PresetExtras;
}

/** The local servers' presets when llm-base has no `list_presets` (1.0.x); the same values as llm-base's. */
const LOCAL_DEFAULTS: Record<string, LocalPreset> = {
  ollama: { low_model: 'qwen2.5:7b', high_model: 'qwen2.5:14b', extras: { json_mode: 'response_format', provider: 'ollama' } },
  lmstudio: { low_model: 'qwen2.5-7b-instruct', high_model: 'qwen2.5-14b-instruct', extras: {} },
  vllm: { low_model: 'Qwen/Qwen2.5-7B-Instruct', high_model: 'Qwen/Qwen2.5-7B-Instruct', extras: { json_mode: 'response_format' } },
  llamacpp: { low_model: 'default', high_model: 'default', extras: { json_mode: 'response_format' } },
};

/** The preset of the local server `name` (ollama, lmstudio, ...): llm-base's when it lists presets, else the built-in one. */
export function localPreset(name: string, fromLlmBase: PresetInfo[] | undefined): LocalPreset {
  const p = fromLlmBase?.find((x) => x.name === name && !x.needs_key);
  if (p) return { low_model: p.low_model, high_model: p.high_model, extras: presetExtras(p) };
  return LOCAL_DEFAULTS[name] ?? { low_model: '', high_model: '', extras: {} };
}

/**
 * The hosted presets to offer: llm-base's `list_presets()` (the ones that need a key) when it
 * has it, else the built-in table; with `baseUrlOverride` every hosted base_url is replaced
 * (SLOTHTOOL_AI_HOSTED_BASE_URL: tests point "hosted" at a local server, never the internet).
 */
export function hostedPresets(fromLlmBase: PresetInfo[] | undefined, baseUrlOverride?: string): HostedPreset[] {
  const known = new Map(HOSTED.map((h) => [h.name, h]));
  const out: HostedPreset[] = [];
  const source: ReadonlyArray<PresetInfo | (typeof HOSTED)[number]> = fromLlmBase?.filter((p) => p.needs_key) ?? HOSTED;
  for (const p of source) {
    const meta = known.get(p.name);
    out.push({
      name: p.name,
      label: meta?.label ?? p.name,
      keyEnv: meta?.keyEnv ?? `${p.name.toUpperCase().replace(/[^A-Z0-9]/g, '_')}_API_KEY`,
      base_url: baseUrlOverride || p.base_url,
      low_model: p.low_model,
      high_model: p.high_model,
      extras: presetExtras(p),
    });
  }
  const order = (name: string) => {
    const i = HOSTED.findIndex((h) => h.name === name);
    return i < 0 ? HOSTED.length : i;
  };
  return out.sort((a, b) => order(a.name) - order(b.name));
}
