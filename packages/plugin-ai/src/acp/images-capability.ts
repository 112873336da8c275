/**
 * Whether ACP's `initialize` offers image prompts: the installed llm-base carries images
 * (FEATURES.images) and the profile's model has not been found blind to them (`slothtool
 * llm-base probe` records `capabilities.vision`; llm-base refuses images only when it is false,
 * and so does this).
 */
import path = require('path');
import { aiPaths, slothtoolHome } from '../home';
import { loadLlmBase } from '../config/llm-base';
import { readRegistry } from '../config/registry';
import { loadConfig } from '../config/config';
import { readJsonObject } from '../extensions/claude-settings';

const obj = (v: unknown): Record<string, unknown> | undefined =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;

export function profileSeesImages(env: NodeJS.ProcessEnv, profile: string | undefined): boolean {
  const home = slothtoolHome(env);
  const paths = aiPaths(home);
  let chosen = profile ?? null;
  try {
    if (!loadLlmBase(readRegistry(paths.registry)).client.features.images) return false;
    chosen ??= loadConfig(paths.config).defaultProfile;
  } catch {
    // No llm-base (or a broken config): a session will say why; no images are offered meanwhile.
    return false;
  }
  const { value } = readJsonObject(path.join(home, 'plugin-configs', 'llm-base.json'));
  const name = chosen ?? (typeof value?.default_profile === 'string' ? value.default_profile : undefined);
  const caps = name ? obj(obj(obj(value?.profiles)?.[name])?.capabilities) : undefined;
  return caps?.vision !== false;
}
