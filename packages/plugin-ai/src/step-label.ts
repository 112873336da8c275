import type { Step } from '@holic512/tool-runner';

/** The part of a tool registry a label needs. */
export interface LabelRegistry {
  get(name: string): { digest(step: never): string } | undefined;
}

function quote(word: string): string {
  return word === '' || /[\s'"\\]/.test(word) ? `'${word.replace(/'/g, `'\\''`)}'` : word;
}

/**
 * A step in one line for people, from its tool's digest (`git status`, `read src/a.ts`). A tool
 * the registry does not know shows as its name and target. tool-runner is loaded only here,
 * when a step is shown, never before the prompt is drawn.
 */
export function describeStep(step: Step, registry?: LabelRegistry): string {
  const reg = registry ?? (require('@holic512/tool-runner') as { builtinRegistry(): LabelRegistry }).builtinRegistry();
  const name = (step as { tool?: string }).tool ?? 'exec';
  const def = reg.get(name);
  if (def) {
    try {
      return def.digest({ args: [], ...step, tool: name } as never);
    } catch {
      // a malformed step: fall through to its name and target
    }
  }
  const fields = step as unknown as Record<string, unknown>;
  const target = ['path', 'file', 'url', 'proc_id', 'program', 'plugin'].map((k) => fields[k]).find((v) => typeof v === 'string');
  return [name, ...(typeof target === 'string' ? [quote(target)] : [])].join(' ');
}
