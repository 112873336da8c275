import type { Step, StepSummary } from '@holic512/tool-runner';
import { toolRunner } from '../lazy-modules';

/** The part of a tool registry a label needs. */
export interface LabelRegistry {
  get(name: string): { digest(step: never): string; summary?(step: never): StepSummary } | undefined;
}

function builtin(): LabelRegistry {
  return toolRunner().builtinRegistry();
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
  const reg = registry ?? builtin();
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

/**
 * What a question shows of a step: its tool's own summary (title and fields; for MCP the server,
 * the tool, the arguments and the server's hints), else its one-line label. `registry` is the
 * one the step was judged with (MCP tools are only there); the built-ins without it.
 */
export function stepSummary(step: Step, registry?: LabelRegistry): StepSummary {
  const name = (step as { tool?: string }).tool ?? 'exec';
  const def = (registry ?? builtin()).get(name);
  if (def?.summary) {
    try {
      return def.summary({ args: [], ...step, tool: name } as never);
    } catch {
      // a malformed step: its label below
    }
  }
  return { title: describeStep(step, registry), fields: [] };
}
