/** Small pure helpers of the `ai -i` screen. */
import fs = require('fs');
import type { Step } from '../context/protocol';
import type { Theme } from './theme';
import { toolRunner } from '../lazy-modules';

/** The profile names and the default in llm-base's config, for the status line and a
 * check of `/profile <name>` (llm-base itself validates the file on every call). */
export function readLlmProfiles(
  file: string,
): { defaultName?: string; names: string[]; models: Record<string, { low?: string; high?: string }> } | undefined {
  let value: unknown;
  try {
    value = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return undefined; // no config yet, or llm-base reports it broken on the first call
  }
  if (!value || typeof value !== 'object') return undefined;
  const { default_profile: name, profiles } = value as { default_profile?: unknown; profiles?: unknown };
  const models: Record<string, { low?: string; high?: string }> = {};
  if (profiles && typeof profiles === 'object') {
    for (const [id, p] of Object.entries(profiles as Record<string, unknown>)) {
      const { low_model: low, high_model: high } = (p && typeof p === 'object' ? p : {}) as { low_model?: unknown; high_model?: unknown };
      models[id] = { ...(typeof low === 'string' ? { low } : {}), ...(typeof high === 'string' ? { high } : {}) };
    }
  }
  return {
    defaultName: typeof name === 'string' && name ? name : undefined,
    names: Object.keys(models),
    models,
  };
}

export function countNewlines(text: string): number {
  let n = 0;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

function wordsDef(step: Step) {
  return toolRunner()
    .builtinRegistry()
    .get((step as { tool?: string }).tool ?? 'exec')?.words;
}

/** The words of a step the user may edit (a program and its arguments), as its tool defines them; none for other tools. */
export function wordsOf(step: Step): string[] {
  return wordsDef(step)?.get(step as never) ?? [];
}

/** The step with edited words put back by its tool. */
export function withWords(step: Step, words: string[]): Step {
  const def = wordsDef(step);
  return def ? def.set(step as never, words) : step;
}

export function colorDiff(preview: string, theme: Theme): string[] {
  return preview.split('\n').map((line) => {
    if (line.startsWith('+')) return '  ' + theme.green(line);
    if (line.startsWith('-')) return '  ' + theme.red(line);
    return '  ' + theme.dim(line);
  });
}
