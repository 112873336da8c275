import { aiError } from '../errors';
import { readJsonFile } from './read-json';
import { lazy } from '@holic512/shared/lib/lazy';
import type { AiConfig, ContextBudgets, SandboxSettings, SandboxMode } from './config-schema';

export type { AiConfig, ContextBudgets };
/** ai.json's schemas, built on first use (config-schema.ts): a start without an ai.json builds none. */
const configSchemas = lazy(() => require('./config-schema') as typeof import('./config-schema'));

/** What the runner takes of `sandbox`: the mode, and the options of createToolRunner's `sandboxOptions`. */
export function sandboxSettings(setting: SandboxSettings): {
  mode: SandboxMode;
  options: { allowRead?: string[]; limits?: false | { memoryMb?: number; processes?: number; cpuSeconds?: number } };
} {
  if (typeof setting === 'string') return { mode: setting, options: {} };
  return {
    mode: setting.mode,
    options: {
      ...(setting.allowRead ? { allowRead: setting.allowRead } : {}),
      ...(setting.limits !== undefined ? { limits: setting.limits } : {}),
    },
  };
}

/** Pure validation: the config or one message per bad field, naming the field. */
export function validateConfig(json: unknown): { ok: true; config: AiConfig } | { ok: false; errors: string[] } {
  const parsed = configSchemas().AiConfigSchema.safeParse(json);
  if (parsed.success) return { ok: true, config: parsed.data };
  return {
    ok: false,
    errors: parsed.error.issues.map((issue) => {
      const where = issue.path.length ? issue.path.join('.') : '(root)';
      const keys = issue.code === 'unrecognized_keys' ? ` ${issue.keys.join(', ')}` : '';
      return `${where}${keys}: ${issue.message}`;
    }),
  };
}

/** Defaults with nothing on disk: what `AiConfigSchema.parse({})` gives, key for key and in its
 * order (test/config-defaults.test.ts holds the two equal), without building the schema. */
export function defaultConfig(): AiConfig {
  return {
    allowNetwork: false,
    allowWrite: false,
    allowSudo: false,
    allowPrivateNetwork: false,
    defaultMode: 'low',
    defaultProfile: null,
    maxAutoStepsPerTurn: 3,
    jsonOutputBytes: 65536,
    sandbox: 'auto',
    context: {
      maxRequestTokens: 16000,
      summaryMaxTokens: 800,
      foldAtPercent: 80,
      summarizeAbovePercent: 60,
      foldToPercent: 40,
      inputMaxTokens: 3000,
      projectContextMaxTokens: 4000,
    },
    mcpStartWaitSec: 5,
    images: { maxBytes: 10 * 1024 * 1024 },
    agents: { maxParallel: 3, maxSteps: 10 },
    notify: 'bell',
  };
}

/** Read and validate the config file. Missing file → defaults; bad JSON or a bad field →
 * an AiError naming the file and the field. */
export function loadConfig(file: string): AiConfig {
  const json = readJsonFile(file, (detail) => aiError('CONFIG_UNREADABLE', 'configUnreadable', { file, detail }));
  if (json === undefined) return defaultConfig();
  const result = validateConfig(json);
  if (!result.ok) throw aiError('CONFIG_INVALID', 'configInvalid', { file, detail: result.errors.join('; ') });
  return result.config;
}
