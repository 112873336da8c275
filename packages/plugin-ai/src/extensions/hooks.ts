import { z } from 'zod';
import { parseJsonObject } from '@holic512/shared/lib/json-object';
import { lazy } from '@holic512/shared/lib/lazy';
import { hookShell, runHookCommand, type HookRan } from './hook-process';

/**
 * Hooks in Claude Code's format: the user's own commands, run at points of a session with the
 * event as JSON on stdin. Exit 0 goes on (JSON on stdout may decide), exit 2 blocks (stderr is
 * the reason), anything else is a non-blocking error shown to the user. A hook can make a step
 * stricter (deny, ask), never let a step run that the runner would refuse.
 *
 * Hook commands are the user's configuration (or a trusted project's), run with bash where it
 * exists (Claude Code's shell for hooks), else sh; model output reaches them only as JSON on
 * stdin, never in the command line. A hook from a Claude Code settings file reads Claude Code's
 * stdin exactly (its tool names and fields, ToolDefinition.claude); ours read our names with
 * Claude Code's fields beside them. Both carry ours in `slothtool`.
 */

export const HOOK_EVENTS = ['SessionStart', 'UserPromptSubmit', 'PreToolUse', 'PostToolUse', 'Stop', 'Notification'] as const;
export type HookEvent = (typeof HOOK_EVENTS)[number];

/** The schemas of one hook and one group, built when an ai.json or settings file has hooks. */
const hookSchemas = lazy(() => ({
  command: z.object({
    type: z.literal('command'),
    command: z.string().min(1),
    /** Seconds; default 60. */
    timeout: z.number().positive().max(3600).optional(),
  }),
  group: z.object({
    /** Tool names it applies to (a regular expression over the whole name; "" or "*" for all). */
    matcher: z.string().max(500).optional(),
    hooks: z.array(z.unknown()),
  }),
}));

/** Claude Code's events we do not run (their entries are skipped, each named once). */
const CLAUDE_ONLY_EVENTS = new Set([
  'PermissionRequest',
  'PermissionDenied',
  'SubagentStart',
  'SubagentStop',
  'PreCompact',
  'PostCompact',
  'SessionEnd',
  'PostToolUseFailure',
]);

/** Whose stdin a hook reads: Claude Code's (a hook from its settings files) or ours (ai.json, .slothtool/settings.json). */
export type HookDialect = 'claude' | 'slothtool';

export interface HookCommandConfig {
  event: HookEvent;
  /** Over the tool's names (its own and its Claude Code names), or SessionStart's `source`. */
  matcher?: RegExp;
  command: string;
  timeoutMs: number;
  source: string;
  dialect: HookDialect;
}

export interface HookProblem {
  source: string;
  error: string;
}

/**
 * A matcher as Claude Code reads it: empty or `*` is every tool; otherwise a regular expression
 * over the whole name (`Bash`, `Edit|Write`, `mcp__.*`, `mcp.files.*`).
 */
export function compileMatcher(raw: string | undefined): RegExp | undefined | { error: string } {
  const m = raw?.trim();
  if (!m || m === '*') return undefined;
  try {
    return new RegExp(`^(?:${m})$`);
  } catch (err) {
    return { error: err instanceof Error ? err.message : String(err) };
  }
}

/** Where readHooks gathers what it read: the hooks it can run and what it skipped. */
interface HookReading {
  source: string;
  dialect: HookDialect;
  hooks: HookCommandConfig[];
  problems: HookProblem[];
  /** Hook types other than "command" already named once (each is named only once). */
  skippedTypes: Set<string>;
}

/** zod's first two issues as one line, paths from `fallback` when they have none. */
function issuesText(issues: readonly z.ZodIssue[], fallback: string): string {
  return issues
    .slice(0, 2)
    .map((i) => `${i.path.join('.') || fallback}: ${i.message}`)
    .join('; ');
}

/** One `{"matcher", "hooks"}` group of an event: its command hooks kept, anything else named in problems. */
function readGroup(event: HookEvent, g: unknown, gi: number, into: HookReading): void {
  const { source, dialect, hooks, problems, skippedTypes } = into;
  const group = hookSchemas().group.safeParse(g);
  if (!group.success) {
    problems.push({ source, error: `hooks.${event}.${gi}: ${issuesText(group.error.issues, '(group)')}` });
    return;
  }
  const matcher = compileMatcher(group.data.matcher);
  if (matcher && !(matcher instanceof RegExp)) {
    problems.push({
      source,
      error: `hooks.${event}.${gi}: matcher ${JSON.stringify(group.data.matcher)} is not a valid pattern (${matcher.error})`,
    });
    return;
  }
  group.data.hooks.forEach((h, hi) => {
    const cmd = hookSchemas().command.safeParse(h);
    if (cmd.success) {
      hooks.push({
        event,
        ...(matcher ? { matcher } : {}),
        command: cmd.data.command,
        timeoutMs: Math.round((cmd.data.timeout ?? 60) * 1000),
        source,
        dialect,
      });
      return;
    }
    const type = h && typeof h === 'object' ? (h as { type?: unknown }).type : undefined;
    if (typeof type === 'string' && type !== 'command') {
      if (!skippedTypes.has(type))
        problems.push({
          source,
          error: `hooks of "type": ${JSON.stringify(type)} are not run here (only "command"); those entries are skipped`,
        });
      skippedTypes.add(type);
      return;
    }
    problems.push({ source, error: `hooks.${event}.${gi}.hooks.${hi}: ${issuesText(cmd.error.issues, '(hook)')}` });
  });
}

/**
 * Read a `hooks` block entry by entry: what we cannot run (an unknown event, a `"type": "prompt"`
 * or `"http"` hook, a bad matcher) is skipped and named once; the rest is used. Never throws.
 */
export function readHooks(
  raw: unknown,
  source: string,
  dialect: HookDialect = 'slothtool',
): { hooks: HookCommandConfig[]; problems: HookProblem[] } {
  const hooks: HookCommandConfig[] = [];
  const problems: HookProblem[] = [];
  if (raw === undefined || raw === null) return { hooks, problems };
  if (typeof raw !== 'object' || Array.isArray(raw)) {
    problems.push({
      source,
      error: 'hooks must be an object of {"<event>": [{"matcher": …, "hooks": [{"type": "command", "command": …}]}]}',
    });
    return { hooks, problems };
  }
  const into: HookReading = { source, dialect, hooks, problems, skippedTypes: new Set() };
  for (const [key, groups] of Object.entries(raw as Record<string, unknown>)) {
    if (!(HOOK_EVENTS as readonly string[]).includes(key)) {
      const what = CLAUDE_ONLY_EVENTS.has(key) ? 'is not run here' : 'is not a known event';
      problems.push({ source, error: `hooks.${key}: ${what}; its entries are skipped (run: ${HOOK_EVENTS.join(', ')})` });
      continue;
    }
    const event = key as HookEvent;
    if (!Array.isArray(groups)) {
      problems.push({ source, error: `hooks.${event}: expected a list of {"matcher", "hooks"} groups` });
      continue;
    }
    groups.forEach((g, gi) => readGroup(event, g, gi, into));
  }
  return { hooks, problems };
}

/** What the hooks of one event decided. */
export interface HookDecision {
  /** Exit 2, `decision: "block"`, `permissionDecision: "deny"` or `continue: false`. */
  block: boolean;
  /** PreToolUse `permissionDecision: "ask"`: ask the user even if the step would run by itself. */
  ask: boolean;
  /**
   * PreToolUse `permissionDecision: "allow"` (or the older `decision: "approve"`) from every hook
   * that answered, and none objected: the runner's question may be skipped for an L1 step that no
   * permission rule asks about. Never lets an L2 step run.
   */
  allow: boolean;
  /** `continue: false`: the turn ends after this; `reason` holds `stopReason`. */
  stop: boolean;
  /** Why (stderr of exit 2, or the JSON reason); for the model or the user depending on the event. */
  reason?: string;
  /** Text to add to the model's context (stdout of SessionStart / UserPromptSubmit, additionalContext). */
  context?: string;
  /**
   * PreToolUse `updatedInput`: the step's input as a hook would have it, in the hook's own field
   * names (`dialect`). Never run as it is: it becomes a new step, validated and judged again.
   */
  updated?: { input: Record<string, unknown>; dialect: HookDialect; hook: string };
  /** Lines for the user: failures, time-outs, systemMessage. */
  notices: string[];
}

export interface HookRunOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** Applied to everything a hook printed before it is used (the redaction gate). */
  redact: (text: string) => string;
  /** The names of the tool the event is about (PreToolUse / PostToolUse), for matchers: its own and its Claude Code names. */
  names?: readonly string[];
  /** What a matcher of an event without a tool is matched against (SessionStart: its `source`; Notification: its `notification_type`). */
  subject?: string;
  signal?: AbortSignal;
}

function firstLine(text: string): string {
  return text.trim().split('\n')[0]?.slice(0, 300) ?? '';
}

/** Read a hook's JSON answer (Claude Code's fields); undefined when stdout is not a JSON object. */
function jsonAnswer(stdout: string): Record<string, unknown> | undefined {
  const t = stdout.trim();
  return t.startsWith('{') ? parseJsonObject(t) : undefined;
}

/** What a hook is given on stdin, for the hooks of one dialect (a function: built for the dialects that run). */
export type HookPayload = Record<string, unknown> | ((dialect: HookDialect) => Record<string, unknown>);

/** stdin of one dialect: Claude Code's common fields first, in its order, then the event's. */
function stdinOf(event: HookEvent, payload: HookPayload, dialect: HookDialect, cwd: string): string {
  const body = typeof payload === 'function' ? payload(dialect) : payload;
  return JSON.stringify({
    session_id: body.session_id,
    transcript_path: body.transcript_path,
    cwd,
    permission_mode: body.permission_mode,
    hook_event_name: event,
    ...body,
  });
}

/** What the hooks said so far, folded into the outcome at the end. */
interface Tally {
  reasons: string[];
  context: string[];
  allows: number;
  updates: Array<NonNullable<HookDecision['updated']>>;
}

/** Fold one hook's JSON answer (exit 0) into the outcome. */
function takeAnswer(answer: Record<string, unknown>, h: HookCommandConfig, outcome: HookDecision, tally: Tally): void {
  const label = firstLine(h.command);
  const specific = (answer.hookSpecificOutput && typeof answer.hookSpecificOutput === 'object' ? answer.hookSpecificOutput : {}) as Record<
    string,
    unknown
  >;
  const reason = [answer.reason, specific.permissionDecisionReason, answer.stopReason].find(
    (x): x is string => typeof x === 'string' && x.trim() !== '',
  );
  const quiet = answer.suppressOutput === true;
  if (!quiet && typeof answer.systemMessage === 'string' && answer.systemMessage.trim()) outcome.notices.push(answer.systemMessage.trim());
  if (typeof specific.additionalContext === 'string' && specific.additionalContext.trim())
    tally.context.push(specific.additionalContext.trim());
  if (answer.continue === false) outcome.stop = true;
  const updated = specific.updatedInput ?? answer.updatedInput;
  if (updated && typeof updated === 'object' && !Array.isArray(updated))
    tally.updates.push({ input: updated as Record<string, unknown>, dialect: h.dialect, hook: label });
  const blocks =
    answer.decision === 'block' || answer.decision === 'deny' || specific.permissionDecision === 'deny' || answer.continue === false;
  if (blocks) {
    outcome.block = true;
    tally.reasons.push(reason ?? `blocked by hook "${label}"`);
  } else if (specific.permissionDecision === 'ask' || answer.decision === 'ask') {
    outcome.ask = true;
    if (reason) tally.reasons.push(reason);
  } else if (specific.permissionDecision === 'allow' || answer.decision === 'approve' || answer.decision === 'allow') {
    tally.allows++;
    // An allow's reason is for the user (Claude Code shows it, never the model).
    if (reason && !quiet) outcome.notices.push(reason);
  }
}

/** Fold one hook's run into the outcome, as Claude Code reads exit codes: 2 blocks with stderr, others only tell the user. */
function takeRun(event: HookEvent, h: HookCommandConfig, r: HookRan, options: HookRunOptions, outcome: HookDecision, tally: Tally): void {
  const stdout = options.redact(r.stdout);
  const stderr = options.redact(r.stderr);
  const label = firstLine(h.command);
  if (r.error) return void outcome.notices.push(`hook "${label}" could not start: ${r.error}`);
  if (r.timedOut) return void outcome.notices.push(`hook "${label}" timed out after ${Math.round(h.timeoutMs / 1000)} s and was stopped`);
  if (r.code === 2) {
    outcome.block = true;
    tally.reasons.push(stderr.trim() || `blocked by hook "${label}"`);
    return;
  }
  if (r.code !== 0)
    return void outcome.notices.push(`hook "${label}" failed (exit ${String(r.code)})${stderr.trim() ? `: ${firstLine(stderr)}` : ''}`);
  const answer = jsonAnswer(stdout);
  if (answer) return takeAnswer(answer, h, outcome, tally);
  if ((event === 'SessionStart' || event === 'UserPromptSubmit') && stdout.trim()) tally.context.push(stdout.trim());
}

/**
 * Run every hook of `event` that matches, in parallel, with `payload` as JSON on stdin (in each
 * hook's dialect), and combine what they decided (any block blocks; reasons are joined).
 */
export async function runHooks(
  event: HookEvent,
  payload: HookPayload,
  hooks: readonly HookCommandConfig[],
  options: HookRunOptions,
): Promise<HookDecision> {
  const outcome: HookDecision = { block: false, ask: false, allow: false, stop: false, notices: [] };
  // Events without a tool or a source (UserPromptSubmit, Stop) ignore matchers, as Claude Code does.
  const names = options.names ?? (options.subject !== undefined ? [options.subject] : undefined);
  const matching = hooks.filter((h) => h.event === event && (!h.matcher || !names || names.some((n) => h.matcher!.test(n))));
  if (!matching.length) return outcome;
  const inputs = new Map<HookDialect, string>();
  const input = (d: HookDialect) => inputs.get(d) ?? inputs.set(d, stdinOf(event, payload, d, options.cwd)).get(d)!;
  const shell = hookShell(options.env).file;
  const ran = await Promise.all(
    matching.map((h) => runHookCommand(h.command, input(h.dialect), h.timeoutMs, options, shell).then((r) => ({ h, r }))),
  );
  const tally: Tally = { reasons: [], context: [], allows: 0, updates: [] };
  for (const { h, r } of ran) takeRun(event, h, r, options, outcome, tally);
  const distinct = new Set(tally.updates.map((u) => `${u.dialect}:${JSON.stringify(u.input)}`));
  if (distinct.size > 1) {
    outcome.block = true;
    tally.reasons.push(`hooks changed this step's input in different ways (${tally.updates.map((u) => `"${u.hook}"`).join(', ')})`);
  } else if (tally.updates.length) {
    outcome.updated = tally.updates[0];
  }
  // "allow" counts only when no hook objected or asked (any objection wins, as in Claude Code).
  outcome.allow = tally.allows > 0 && !outcome.block && !outcome.ask;
  if (tally.reasons.length) outcome.reason = tally.reasons.join('\n');
  if (tally.context.length) outcome.context = tally.context.join('\n');
  return outcome;
}
