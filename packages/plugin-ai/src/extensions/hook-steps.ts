/**
 * A step as hooks see it, and a hook's `updatedInput` as a new step. The tool's definition says
 * how Claude Code names it and its fields (ToolDefinition.claude): a hook from a Claude Code
 * settings file reads exactly that (`tool_name: "Bash"`, `tool_input.command`), ours read our
 * names with Claude Code's fields beside; both carry ours in `slothtool`. A changed input is never
 * run as it is: it becomes a new step, validated and judged like any other.
 */
import type { ClaudeCodeForm, ClaudeInputContext } from '@holic512/tool-runner';
import type { HookDialect, HookDecision } from './hooks';

/** What hooks need of a tool's definition. */
export interface HookTool {
  name: string;
  claude?: ClaudeCodeForm<never>;
  input?: { shape?: Record<string, unknown> };
}

/** What hooks need of a registry: a tool by name and a step's validation. */
export interface HookRegistry {
  get(name: string): HookTool | undefined;
  validate(step: unknown): { ok: true; step: unknown } | { ok: false; error: string };
}

type Fields = Record<string, unknown>;

function split(step: Fields): { tool: string; input: Fields } {
  const { tool, ...input } = step;
  return { tool: String(tool ?? ''), input };
}

/** The names a hook matcher is tried on: the tool's own, then its Claude Code names. */
export function hookNames(def: HookTool | undefined, tool: string): string[] {
  return [tool, ...(def?.claude?.names ?? [])];
}

/** `tool_name` and `tool_input` of a PreToolUse / PostToolUse stdin, per dialect. */
export function hookToolFields(def: HookTool | undefined, step: Fields, ctx: ClaudeInputContext): (dialect: HookDialect) => Fields {
  const { tool, input } = split(step);
  return (dialect) => {
    const claudeInput = def?.claude ? def.claude.input(input as never, ctx) : undefined;
    // Claude Code's name of this input (a multi-edit is its MultiEdit), else its first name.
    if (dialect === 'claude')
      return { tool_name: def?.claude?.nameFor?.(input as never) ?? def?.claude?.names[0] ?? tool, tool_input: claudeInput ?? input };
    // Ours: our names, Claude Code's fields beside (ours win where both have a name).
    return { tool_name: tool, tool_input: { ...claudeInput, ...step } };
  };
}

/** The step in our own names (`slothtool` on every tool event's stdin, last): `{tool, input}`. */
export function ourStep(step: Fields): { tool: string; input: Fields } {
  return split(step);
}

/** `tool_response` of a PostToolUse stdin, per dialect: Claude Code's shape of a successful result where the tool has one. */
export function hookToolResponse(
  def: HookTool | undefined,
  step: Fields,
  result: Fields,
  ctx: ClaudeInputContext,
): (dialect: HookDialect) => unknown {
  const { input } = split(step);
  return (dialect) => {
    if (dialect === 'claude' && def?.claude?.response && result.status !== 'error') return def.claude.response(input as never, result, ctx);
    // Ours, with Claude Code's Bash names (`stdout` / `stderr`) beside our tails.
    return typeof result.stdoutTail === 'string' ? { ...result, stdout: result.stdoutTail, stderr: result.stderrTail ?? '' } : result;
  };
}

const stable = (v: unknown): string =>
  JSON.stringify(v, (_k, x: unknown) =>
    x && typeof x === 'object' && !Array.isArray(x)
      ? Object.fromEntries(Object.entries(x as Fields).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : x,
  );

/** Our input from a hook's `updatedInput` in its dialect's field names, laid over the step's own (fields it has no name for stay). */
function changedInput(
  def: HookTool | undefined,
  tool: string,
  input: Fields,
  updated: NonNullable<HookDecision['updated']>,
  ctx: ClaudeInputContext,
): { input: Fields } | { error: string } {
  if (updated.dialect === 'claude' && def?.claude) {
    if (!def.claude.fromInput) return { error: `${def.claude.names[0]}'s input cannot be changed here` };
    const from = def.claude.fromInput({ ...def.claude.input(input as never, ctx), ...updated.input });
    return 'error' in from ? { error: String(from.error) } : { input: { ...input, ...from } };
  }
  // Our dialect: our field names only (a Claude Code field here would otherwise be dropped unseen).
  const known = def?.input?.shape ? Object.keys(def.input.shape) : undefined;
  const unknown = known ? Object.keys(updated.input).filter((k) => k !== 'tool' && !known.includes(k)) : [];
  if (unknown.length) return { error: `${tool} has no field ${unknown.join(', ')} (use its own field names: ${known!.join(', ')})` };
  const { tool: _drop, ...rest } = updated.input;
  return { input: { ...input, ...rest } };
}

/**
 * A PreToolUse hook's `updatedInput` as a step: `{ same: true }` when it changes nothing, the new
 * step (validated) to be judged as a new step, or why it is not one.
 */
export function updatedStep(
  registry: HookRegistry,
  step: Fields,
  updated: NonNullable<HookDecision['updated']>,
  ctx: ClaudeInputContext,
): { same: true } | { step: Fields } | { error: string } {
  const { tool, input } = split(step);
  const def = registry.get(tool);
  const changed = changedInput(def, tool, input, updated, ctx);
  if ('error' in changed) return changed;
  const valid = registry.validate({ ...changed.input, tool });
  if (!valid.ok) return { error: valid.error };
  return stable(valid.step) === stable(step) ? { same: true } : { step: valid.step as Fields };
}
