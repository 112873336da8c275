/**
 * What extensions add to a turn: tools that join during the session (MCP servers connecting in
 * the background) and the hooks of every event (Claude Code's format, extensions/hooks.ts).
 * Hooks only ever tighten: none can let a step run that the runner refuses.
 */
import { redact } from '@holic512/shared';
import { toolsOf } from './agent-approvals';
import type { AgentCore, Pending } from './agent-core';
import { flushWrites, log } from './agent-session';
import { t } from '../i18n';
import { runHooks, type HookEvent, type HookDecision, type HookPayload } from '../extensions/hooks';
import { claudePermissionMode } from '../extensions/claude-names';
import { hookNames, hookToolFields, hookToolResponse, ourStep, updatedStep, type HookRegistry } from '../extensions/hook-steps';
import { slothtoolHome } from '@holic512/shared/lib/home';
import { toolRunner } from '../lazy-modules';
import type { Step } from '../context/protocol';
import type { ToolResult, Verdict } from './runner-types';
import { renderVerdict } from './render-verdict';
import type { HookSays } from './step';

/** How often one turn may be sent back to the model by Stop hooks. */
export const MAX_STOP_CONTINUES = 3;

interface Registering {
  get(name: string): unknown;
  register?(def: unknown): void;
}

/**
 * Bring the tools that joined since the last call into the runner. Their index goes into the
 * system prompt while the session has sent nothing; after that the prompt stays as it was sent
 * (a model's cache holds it) and the index comes as an event at this point of the conversation,
 * returned to go with the next call. `settle`: first wait (bounded) for servers still starting.
 */
export async function syncTools(core: AgentCore, signal: AbortSignal, settle: boolean): Promise<Pending[]> {
  const dynamic = core.deps.dynamicTools;
  if (!dynamic) return [];
  if (settle) await dynamic.settle(core.options.config.mcpStartWaitSec * 1000, signal);
  // A server that did not start is said once (ai -p shows it on stderr, ai -i on screen).
  for (const f of dynamic.failures?.() ?? [])
    log(core, 'mcp_failed', t(core.options.lang, 'mcpTestFailed', { name: f.name, detail: f.error }));
  const now = dynamic.current();
  if (now.key === (core.toolsKey ?? '')) return [];
  const registry = toolsOf(core) as unknown as Registering | undefined;
  if (!registry?.register) return []; // a runner without a registry cannot run them: leave them out
  for (const def of now.tools) {
    const name = (def as { name: string }).name;
    if (!registry.get(name)) registry.register(def);
  }
  core.toolsKey = now.key;
  core.dynamicNames = new Set(now.tools.map((def) => (def as { name: string }).name));
  if (core.context.setJoinedTools(now.prompt || undefined)) return [];
  const text = JSON.stringify({
    _event: 'tools',
    note: 'The tools that joined this session changed; this list replaces any earlier one.',
    tools: now.prompt || 'none: no MCP server is connected now',
  });
  return [{ kind: 'event', text, toolsKey: now.key }];
}

/** Where a hook's `match` is looked for: the names of a step's tool, or SessionStart's source. */
type MatchOn = { names: readonly string[] } | { subject: string };

/**
 * Run the hooks of one event (none configured: nothing, and nothing loaded). Every hook gets
 * Claude Code's common fields (`session_id`, `transcript_path` — the session file, flushed first —
 * `cwd`, `permission_mode`) and `CLAUDE_PROJECT_DIR` in its environment.
 */
async function fire(
  core: AgentCore,
  event: HookEvent,
  payload: HookPayload,
  signal: AbortSignal,
  match?: MatchOn | (() => MatchOn),
): Promise<HookDecision | undefined> {
  const hooks = core.deps.hooks?.filter((h) => h.event === event);
  if (!hooks?.length) return undefined;
  flushWrites(core);
  const transcript = core.deps.store?.fileOf(core.id);
  const common = {
    session_id: core.id,
    ...(transcript ? { transcript_path: transcript } : {}),
    permission_mode: claudePermissionMode(core.runMode),
  };
  const projectDir = core.deps.projectDir ?? core.options.cwd;
  const body: HookPayload = typeof payload === 'function' ? (d) => ({ ...common, ...payload(d) }) : { ...common, ...payload };
  const out = await runHooks(event, body, hooks, {
    cwd: core.options.cwd,
    env: { ...(core.deps.hookEnv ?? process.env), CLAUDE_PROJECT_DIR: projectDir },
    redact,
    ...(typeof match === 'function' ? match() : (match ?? {})),
    signal,
  });
  for (const n of out.notices) log(core, 'hook', n);
  return out;
}

const contextEvent = (event: HookEvent, context: string): Pending => ({
  kind: 'event',
  text: JSON.stringify({ _event: 'hook_context', hook: event, context }),
});

/**
 * Before a turn's message goes to the model: SessionStart (once per session) and
 * UserPromptSubmit. What they print is added for the model; a UserPromptSubmit block keeps the
 * message from the model and the user is told why (`blocked`).
 */
export async function beforeTurn(core: AgentCore, input: string, signal: AbortSignal): Promise<{ blocked?: string; extra: Pending[] }> {
  const extra: Pending[] = [];
  if (core.hookSession !== core.id) {
    // A session that follows another of this process without a record yet came from /clear.
    const source = core.started ? 'resume' : core.hookSession !== undefined ? 'clear' : 'startup';
    core.hookSession = core.id;
    const started = await fire(core, 'SessionStart', { source }, signal, { subject: source });
    if (started?.block && started.reason) log(core, 'hook', started.reason);
    if (started?.context) extra.push(contextEvent('SessionStart', started.context));
  }
  const submitted = await fire(core, 'UserPromptSubmit', { prompt: input }, signal);
  if (submitted?.block) return { blocked: submitted.reason ?? '', extra };
  if (submitted?.context) extra.push(contextEvent('UserPromptSubmit', submitted.context));
  return { extra };
}

/**
 * After the model answered: Stop hooks may send the turn back with a reason the model reads
 * (exit 2 or `decision: "block"`), at most MAX_STOP_CONTINUES times per turn. Undefined: stop.
 */
export async function stopHooks(core: AgentCore, continues: number, signal: AbortSignal): Promise<Pending | undefined> {
  const out = await fire(core, 'Stop', { stop_hook_active: continues > 0 }, signal);
  if (!out?.block || continues >= MAX_STOP_CONTINUES) return undefined;
  const reason = out.reason ?? '';
  log(core, 'hook', reason);
  return {
    kind: 'event',
    text: JSON.stringify({ _event: 'stop_hook', reason, note: 'A Stop hook sent your answer back: address this, then answer again.' }),
  };
}

/** The fields that name a step's target (never its contents). */
const TARGET_FIELDS = ['program', 'args', 'plugin', 'file', 'path', 'url', 'proc_id'] as const;

/** What the PreToolUse hooks said of a step: stopped (`blocked`, the result the model reads), or
 * going on with `says` (`allow`: its question is answered yes; `ask`: asked even where it would run
 * by itself); `stop`: `continue: false`, the turn ends after the step. */
export interface PreToolUseSaid {
  blocked?: ToolResult;
  says?: HookSays;
  stop?: string;
  /** What the hook added for the model (`additionalContext`), sent with the step results. */
  context?: Pending;
}

/**
 * PreToolUse hooks, after the runner's judgement and before the question or the run: exit 2 (or a
 * JSON block / deny) stops the step and the model sees why; `ask` (permissionDecision) makes the
 * runner ask the user even for a step that would run by itself; `allow` answers the runner's
 * question for an L1 step yes (never one a permission rule asks about: agent-approvals). An L2
 * step is refused by the runner either way. Undefined when the step goes on as judged.
 */
export async function preToolUse(
  core: AgentCore,
  id: string,
  step: Step,
  verdict: Verdict,
  signal: AbortSignal,
): Promise<PreToolUseSaid | undefined> {
  if (verdict.level === 'L2') return undefined;
  const tool = step.tool ?? 'exec';
  // What hooks see is made only when there are hooks for the event (every step passes here).
  const out = await fire(core, 'PreToolUse', toolPayload(core, id, step), signal, () => ({
    names: hookNames(defOf(core, tool), tool),
  }));
  if (!out) return undefined;
  // additionalContext reaches the model with the step's result; an ask's reason is said to the user before the question.
  const said: PreToolUseSaid = {
    ...(out.stop ? { stop: out.reason ?? '' } : {}),
    ...(out.context ? { context: contextEvent('PreToolUse', out.context) } : {}),
  };
  const changed = out.updated && !out.block ? changedStep(core, step, out) : undefined;
  if (changed) {
    // updatedInput never runs as is: the step is stopped, and a valid change goes to the model to send as a new step.
    const hook = `hook "${out.updated!.hook}"`;
    const why =
      'step' in changed
        ? `${out.reason ? `${out.reason}\n` : ''}${hook} changed this step`
        : `${hook} changed this step into one that is not valid: ${changed.error}`;
    return { ...said, blocked: blocked(core, id, step, verdict, why, 'step' in changed ? changed.step : undefined) };
  }
  if (out.ask && !out.block) {
    if (out.reason) log(core, 'hook', out.reason);
    return { ...said, says: 'ask' };
  }
  if (out.allow) return { ...said, says: 'allow' };
  if (!out.block) return said;
  return { ...said, blocked: blocked(core, id, step, verdict, out.reason ?? '') };
}

const asFields = (step: Step) => step as unknown as Record<string, unknown>;

/**
 * A tool event's stdin in each hook's dialect (extensions/hook-steps.ts): the tool's name and
 * input (Claude Code's for a Claude Code file's hook), PostToolUse's `tool_response`, the id, and
 * our own step last.
 */
function toolPayload(core: AgentCore, id: string, step: Step, result?: ToolResult): (d: 'claude' | 'slothtool') => Record<string, unknown> {
  return (d) => {
    const def = defOf(core, step.tool ?? 'exec');
    const ctx = hookCtx(core);
    const response = result ? { tool_response: hookToolResponse(def, asFields(step), result as Record<string, unknown>, ctx)(d) } : {};
    return {
      ...hookToolFields(def, asFields(step), ctx)(d),
      ...response,
      tool_use_id: id,
      slothtool: ourStep(asFields(step)),
    };
  };
}

/** The definition of a tool in the agent's registry (else the built-ins'), for its Claude Code form. */
function registryOf(core: AgentCore): HookRegistry {
  const own = toolsOf(core) as unknown as HookRegistry | undefined;
  return own && typeof own.validate === 'function' ? own : (toolRunner().builtinRegistry() as unknown as HookRegistry);
}
const defOf = (core: AgentCore, tool: string) => registryOf(core).get(tool);

/** Where a hook's paths are made absolute: the session's folder, and the homes `~` and `~/.slothtool` stand for. */
function hookCtx(core: AgentCore): { cwd: string; home?: string; slothtoolHome?: string } {
  const env = core.deps.hookEnv ?? process.env;
  return { cwd: core.options.cwd, ...(env.HOME ? { home: env.HOME } : {}), slothtoolHome: slothtoolHome(env) };
}

/** A hook's updatedInput as a new step, or why not; undefined when it changes nothing. */
function changedStep(core: AgentCore, step: Step, out: HookDecision): { step: Record<string, unknown> } | { error: string } | undefined {
  const r = updatedStep(registryOf(core), asFields(step), out.updated!, hookCtx(core));
  return 'same' in r ? undefined : r;
}

/**
 * The result of a step a hook stopped, naming the step (program and args, path, url…) so its record
 * says which one. `proposed`: the step a hook changed it into, which runs only when the model sends
 * it as a new step (judged, asked and hooked like any other): a hook never makes a step run unjudged.
 */
function blocked(
  core: AgentCore,
  id: string,
  step: Step,
  verdict: Verdict,
  reason: string,
  proposed?: Record<string, unknown>,
): ToolResult {
  const tool = step.tool ?? 'exec';
  const named = Object.fromEntries(TARGET_FIELDS.filter((k) => k in step).map((k) => [k, asFields(step)[k]]));
  const note = proposed ? `; to run the changed step, send it as a new step: ${JSON.stringify(proposed)}` : '';
  return {
    _event: 'tool_result',
    id,
    tool,
    ...named,
    status: 'blocked',
    blockedBy: 'hook',
    hookReason: reason,
    reason: `blocked by a PreToolUse hook: ${reason}`.trim() + note,
    ...(proposed ? { proposedStep: proposed } : {}),
    decision: { ...renderVerdict(verdict, core.options.lang), by: 'policy' },
  } as ToolResult;
}

/**
 * PostToolUse hooks see the step and its (redacted) result; what they print is said to the user,
 * the reason of a block and `additionalContext` go to the model with the result (`context`),
 * `continue: false` ends the turn (`stop`).
 */
export async function postToolUse(
  core: AgentCore,
  id: string,
  step: Step,
  result: ToolResult,
  signal: AbortSignal,
): Promise<{ context?: Pending; stop?: string }> {
  if (result.status === 'blocked' || result.status === 'declined') return {};
  const tool = step.tool ?? 'exec';
  const out = await fire(core, 'PostToolUse', toolPayload(core, id, step, result), signal, () => ({
    names: hookNames(defOf(core, tool), tool),
  }));
  if (out?.block && out.reason) log(core, 'hook', out.reason);
  // `decision: "block"` after the fact: the model reads the reason with the result, as in Claude Code.
  const text = [out?.block ? out.reason : undefined, out?.context].filter(Boolean).join('\n');
  return { ...(text ? { context: contextEvent('PostToolUse', text) } : {}), ...(out?.stop ? { stop: out.reason ?? '' } : {}) };
}
