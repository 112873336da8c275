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
}

/** Display names and key variables of llm-base's hosted presets, in the order shown. */
const HOSTED: ReadonlyArray<Omit<HostedPreset, 'base_url' | 'low_model' | 'high_model'> & Partial<HostedPreset>> = [
  { name: 'deepseek', label: 'DeepSeek', keyEnv: 'DEEPSEEK_API_KEY', base_url: 'https://api.deepseek.com/v1', low_model: 'deepseek-chat', high_model: 'deepseek-reasoner' },
  { name: 'qwen', label: 'Qwen (DashScope)', keyEnv: 'DASHSCOPE_API_KEY', base_url: 'https://dashscope.aliyuncs.com/compatible-mode/v1', low_model: 'qwen-plus', high_model: 'qwen-max' },
  { name: 'glm', label: 'GLM (Zhipu)', keyEnv: 'ZHIPUAI_API_KEY', base_url: 'https://open.bigmodel.cn/api/paas/v4', low_model: 'glm-4-flash', high_model: 'glm-4-plus' },
  { name: 'kimi', label: 'Kimi (Moonshot)', keyEnv: 'MOONSHOT_API_KEY', base_url: 'https://api.moonshot.cn/v1', low_model: 'moonshot-v1-8k', high_model: 'moonshot-v1-32k' },
  { name: 'openai', label: 'OpenAI', keyEnv: 'OPENAI_API_KEY', base_url: 'https://api.openai.com/v1', low_model: 'gpt-4o-mini', high_model: 'gpt-4o' },
];

/** Default models of the local servers, when the server lists none (from llm-base's presets). */
export const LOCAL_DEFAULTS: Record<string, { low_model: string; high_model: string }> = {
  ollama: { low_model: 'qwen2.5:7b', high_model: 'qwen2.5:14b' },
  lmstudio: { low_model: 'qwen2.5-7b-instruct', high_model: 'qwen2.5-14b-instruct' },
  vllm: { low_model: 'Qwen/Qwen2.5-7B-Instruct', high_model: 'Qwen/Qwen2.5-7B-Instruct' },
  llamacpp: { low_model: 'default', high_model: 'default' },
};

/**
 * The hosted presets to offer: llm-base's `list_presets()` (the ones that need a key) when it
 * has it, else the built-in table; with `baseUrlOverride` every hosted base_url is replaced
 * (SLOTHTOOL_AI_HOSTED_BASE_URL: tests point "hosted" at a local server, never the internet).
 */
export function hostedPresets(fromLlmBase: PresetInfo[] | undefined, baseUrlOverride?: string): HostedPreset[] {
  const known = new Map(HOSTED.map((h) => [h.name, h]));
  const out: HostedPreset[] = [];
  const source = fromLlmBase?.filter((p) => p.needs_key) ?? HOSTED.map((h) => h as HostedPreset);
  for (const p of source) {
    const meta = known.get(p.name);
    out.push({
      name: p.name,
      label: meta?.label ?? p.name,
      keyEnv: meta?.keyEnv ?? `${p.name.toUpperCase().replace(/[^A-Z0-9]/g, '_')}_API_KEY`,
      base_url: baseUrlOverride || p.base_url,
      low_model: p.low_model,
      high_model: p.high_model,
    });
  }
  const order = (name: string) => {
    const i = HOSTED.findIndex((h) => h.name === name);
    return i < 0 ? HOSTED.length : i;
  };
  return out.sort((a, b) => order(a.name) - order(b.name));
}
