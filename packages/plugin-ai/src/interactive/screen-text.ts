/** Small pure helpers of the `ai -i` screen. */
import * as fs from 'fs';
import type { Step } from '../protocol';
import type { Theme } from './theme';

/** The profile names and the default in llm-base's config, for the status line and a
 * check of `/profile <name>` (llm-base itself validates the file on every call). */
export function readLlmProfiles(file: string): { defaultName?: string; names: string[] } | undefined {
  let value: unknown;
  try {
    value = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return undefined; // no config yet, or llm-base reports it broken on the first call
  }
  if (!value || typeof value !== 'object') return undefined;
  const { default_profile: name, profiles } = value as { default_profile?: unknown; profiles?: unknown };
  return {
    defaultName: typeof name === 'string' && name ? name : undefined,
    names: profiles && typeof profiles === 'object' ? Object.keys(profiles) : [],
  };
}

export function countNewlines(text: string): number {
  let n = 0;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

/** The words of a step the user may edit (a program and its arguments), or none. */
export function wordsOf(step: Step): string[] {
  if (step.tool === 'plugin.run') return [step.plugin, ...step.args];
  const fields = step as unknown as Record<string, unknown>;
  // exec, and later tools that run a program the same way (proc.start)
  if (typeof fields.program === 'string' && Array.isArray(fields.args) && fields.args.every((a) => typeof a === 'string')) {
    return [fields.program, ...(fields.args as string[])];
  }
  return [];
}

export function withWords(step: Step, words: string[]): Step {
  if (step.tool === 'plugin.run') return { ...step, plugin: words[0], args: words.slice(1) };
  return { ...step, program: words[0], args: words.slice(1) } as Step;
}

export function colorDiff(preview: string, theme: Theme): string[] {
  return preview.split('\n').map((line) => {
    if (line.startsWith('+')) return '  ' + theme.green(line);
    if (line.startsWith('-')) return '  ' + theme.red(line);
    return '  ' + theme.dim(line);
  });
}
