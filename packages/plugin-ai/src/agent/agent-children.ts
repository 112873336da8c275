/**
 * Sub-agents: the `agent.run` tool. A child is a fresh Agent (its own system prompt, the task as
 * its first message, none of the parent's conversation) over the same model client, a runner of
 * its own built the same way as the parent's (same policy, rules, sandbox), and the parent's
 * questions (labelled with the child, one at a time). Its final answer returns to the parent as
 * the tool result; its usage is counted into the parent's. A child cannot start children: its
 * registry has no `agent.run`.
 */
import { z } from 'zod';
import { lazy } from '@holic512/shared/lib/lazy';
import type { AnyToolDefinition, ClaudeCodeForm, ToolDeclaration } from '@holic512/tool-runner';
// Its own module, not the package's index: defining the tool loads nothing else of tool-runner.
import { defineTool } from '@holic512/tool-runner/lib/registry/define-tool';
import type { Agent } from './agent';
import type { AgentConfirmFn } from './agent-core';
import type { UsageTotals } from './events';
import type { RunMode } from './runner-types';
import { describeStep } from './step-label';

/** At most this much of a child's answer goes back to the parent (a longer one is cut, and says so). */
export const MAX_ANSWER_CHARS = 8000;

/** What a child run gives back. */
export interface ChildOutcome {
  outcome: string;
  answer: string;
  steps: number;
  usage: UsageTotals;
  error?: { code: string; message: string };
}

/** What one child is asked to do. */
export interface ChildRequest {
  task: string;
  mode: 'plan' | 'default';
  /** A named agent (an agent file): its body is the child's instructions, its tools the child's. */
  agent?: string;
}

/** What the tool needs to run one child; built by the app (createAppAgent). */
export interface ChildSpawner {
  /** Run a new child labelled `label`; `onProgress` gets one short line per thing the child does. */
  run(request: ChildRequest, label: string, signal: AbortSignal | undefined, onProgress: (line: string) => void): Promise<ChildOutcome>;
  /** Children that may run at once (ai.json `agents.maxParallel`). */
  maxParallel: number;
  /** The named agents a child may be started as (the user's, a trusted project's). */
  agents?: readonly string[];
}

/** agent.run's input, built on first use (the registry reads it when a step is checked), once for every session's tool. */
const input = lazy(() =>
  z.object({
    task: z.string().min(1).max(20_000),
    mode: z.enum(['plan', 'default']).optional(),
    /** A named agent of the index (an agent file): the child follows its instructions, with its tools. */
    agent: z
      .string()
      .regex(/^[a-z0-9][a-z0-9_-]{0,63}$/, 'agent is the name of an agent of the index (lower-case letters, digits, "-" and "_")')
      .optional(),
  }),
);
type AgentRunInput = z.infer<ReturnType<typeof input>>;

/** The mode a child runs in: plan unless the parent asked for default; never freer than the parent. */
export function childMode(requested: 'plan' | 'default' | undefined, parent: RunMode): RunMode {
  if (requested !== 'default' || parent === 'plan') return 'plan';
  return parent;
}

/** Cut a child's answer to what the parent's context can take. */
export function capAnswer(text: string): { answer: string; truncated?: true; chars?: number } {
  if (text.length <= MAX_ANSWER_CHARS) return { answer: text };
  return { answer: `${text.slice(0, MAX_ANSWER_CHARS)}…`, truncated: true, chars: text.length };
}

/**
 * agent.run as permission rules and Claude Code know it, before a session builds the tool: its
 * name, how a rule writes its argument, and its Claude Code form (`Task`, also called `Agent`; a
 * read-only child is Claude Code's `Plan` agent, a child that may ask to change things its
 * `general-purpose` one).
 */
export const agentRunNames = {
  name: 'agent.run',
  permission: { arg: 'words' as const },
  claude: {
    names: ['Task', 'Agent'],
    input: (s: AgentRunInput) => ({
      description: oneLine(s.task, 60),
      prompt: s.task,
      subagent_type: s.agent ?? ((s.mode ?? 'plan') === 'plan' ? 'Plan' : 'general-purpose'),
    }),
    fromInput: (c: Record<string, unknown>) => {
      if (typeof c.prompt !== 'string') return { error: 'prompt must be a string' };
      const type = typeof c.subagent_type === 'string' ? c.subagent_type : 'Plan';
      if (type === 'Plan' || type === 'general-purpose') return { task: c.prompt, mode: type === 'Plan' ? 'plan' : 'default' };
      // Any other type is a named agent (an agent file of that name).
      return { task: c.prompt, agent: type };
    },
    response: (_s: AgentRunInput, r: Record<string, unknown>) => ({
      content: [{ type: 'text', text: String(r.answer ?? '') }],
      totalDurationMs: r.durationMs,
      totalToolUseCount: r.steps,
    }),
  } satisfies ClaudeCodeForm<AgentRunInput>,
};

/**
 * The `agent.run` tool definition. `concurrency` tells the agent loop how many consecutive
 * agent.run steps of one reply may run at once.
 */
export function agentRunTool(spawner: ChildSpawner): AnyToolDefinition {
  let counter = 0;
  return defineTool({
    name: agentRunNames.name,
    kind: 'think',
    description: {
      en: 'Start a helper agent for one self-contained task, with a fresh context (it sees only the task); "agent" names one of the index of agents (it follows that agent\'s instructions, with its tools). mode "plan" (default) is read-only; "default" may ask the user to run changes. Its final answer comes back as the result. Several agent.run steps in one reply run in parallel.',
      zh: '为一个独立的任务启动一个助手代理,它有全新的上下文(只看到任务本身);"agent" 可指定代理索引中的一个代理(按该代理的说明、用它的工具工作)。mode 为 "plan"(默认)时只读;"default" 时可以请求用户批准修改。它的最终回答作为结果返回。同一回复中的多个 agent.run 步骤并行运行。',
    },
    input,
    example: { task: 'Find where the config file is parsed and list its keys', mode: 'plan' },
    concurrency: spawner.maxParallel,
    // A rule names the agent (`agent.run(reviewer)`, Claude Code's `Task(reviewer)`), else the mode.
    permission: { arg: 'words', subject: (s: AgentRunInput) => ({ kind: 'name', name: s.agent ?? s.mode ?? 'plan' }) },
    // Delegation itself changes nothing: each of the child's steps is judged, asked and sandboxed
    // like the parent's own.
    assess: (s: AgentRunInput) => ({
      findings: [{ id: 'agent.delegate', level: 'L0' as const, params: { m: s.mode ?? 'plan' } }],
      touches: { read: [], write: [], network: [], exec: [] },
    }),
    approvalKey: (s: AgentRunInput) => `agent.run ${s.agent ? `${s.agent} ` : ''}${s.mode ?? 'plan'}`,
    digest: (s: AgentRunInput) => `agent${s.agent ? ` ${s.agent}` : ''} (${s.mode ?? 'plan'}): ${oneLine(s.task, 80)}`,
    execute: async (
      s: AgentRunInput,
      ctx: { id: string; decision: unknown; signal?: AbortSignal; onOutput?: (chunk: string, stream: 'stdout' | 'stderr') => void },
    ) => {
      // A name not in the index (an untrusted project's agent among them) starts nothing.
      if (s.agent && !spawner.agents?.includes(s.agent)) {
        const known = spawner.agents?.length ? spawner.agents.join(', ') : '(none)';
        return {
          _event: 'tool_result',
          id: ctx.id,
          tool: 'agent.run',
          status: 'error',
          error: { code: 'UNKNOWN_AGENT', message: `no agent named "${s.agent}" here; the agents of the index: ${known}` },
          decision: ctx.decision,
        };
      }
      const label = `${s.agent ?? 'agent'} ${++counter}`;
      const started = Date.now();
      const progress = (line: string) => ctx.onOutput?.(`[${label}] ${line}\n`, 'stdout');
      const child = await spawner.run(
        { task: s.task, mode: s.mode ?? 'plan', ...(s.agent ? { agent: s.agent } : {}) },
        label,
        ctx.signal,
        progress,
      );
      return {
        _event: 'tool_result',
        id: ctx.id,
        tool: 'agent.run',
        agent: label,
        ...(s.agent ? { name: s.agent } : {}),
        mode: s.mode ?? 'plan',
        outcome: child.outcome,
        ...capAnswer(child.answer),
        steps: child.steps,
        usage: { input_tokens: child.usage.input_tokens, output_tokens: child.usage.output_tokens, calls: child.usage.calls },
        durationMs: Date.now() - started,
        ...(child.error ? { error: child.error } : {}),
        ...(child.outcome === 'aborted' ? { aborted: true } : {}),
        decision: ctx.decision,
      };
    },
    claude: agentRunNames.claude,
  } as unknown as ToolDeclaration<AgentRunInput>);
}

function oneLine(text: string, max: number): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** Questions from children one at a time (two children must not show two questions at once), each labelled. */
export function labelledConfirm(confirm: AgentConfirmFn | undefined): (label: string) => AgentConfirmFn | undefined {
  if (!confirm) return () => undefined;
  let chain: Promise<unknown> = Promise.resolve();
  return (label) => (request, options) => {
    const asked = chain.then(() => confirm({ ...request, agent: label }, options));
    chain = asked.catch(() => undefined);
    return asked;
  };
}

/** The short progress line of one child event (what `ai -i` shows under the agent.run step). */
export function progressLine(event: { type: string; step?: unknown; outcome?: string; message?: string }): string | undefined {
  if (event.type === 'step' && event.step) return describeStep(event.step as Parameters<typeof describeStep>[0]);
  if (event.type === 'final') return `${event.outcome ?? 'done'}`;
  return undefined;
}

/** Run items with at most `limit` at once, results in input order. */
export async function mapLimited<T, R>(items: readonly T[], limit: number, fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i], i);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
  return out;
}

/**
 * Run a child to its answer: in its mode (never freer than the parent's), its progress reported
 * line by line, its usage counted into the parent's whatever the outcome, disposed at the end.
 */
export async function runChildAgent(
  parent: Agent,
  child: Agent,
  task: string,
  mode: 'plan' | 'default',
  signal: AbortSignal | undefined,
  onProgress: (line: string) => void,
): Promise<ChildOutcome> {
  const off = child.on((event) => {
    const line = progressLine(event as Parameters<typeof progressLine>[0]);
    if (line) onProgress(line);
  });
  try {
    // yolo needs the OS sandbox: a child that cannot have its parent's mode plans.
    if (!child.setRunMode(childMode(mode, parent.getRunMode())).ok) child.setRunMode('plan');
    const result = await child.send(task, { signal });
    return {
      outcome: result.outcome,
      answer: result.message,
      steps: result.steps,
      usage: child.usage(),
      ...(result.error ? { error: result.error } : {}),
    };
  } finally {
    off();
    parent.countUsage(child.usage());
    child.dispose();
  }
}
