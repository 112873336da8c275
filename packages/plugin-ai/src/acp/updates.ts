/**
 * The Agent's events as ACP `session/update`s (pure; one instance per session): the reply's
 * message as `agent_message_chunk`s while it streams, each step as a `tool_call` (its kind and
 * title from the tool's definition in the registry it was judged with, what it touches, a `diff`
 * for a file change) and `tool_call_update`s as it is let through, runs and ends (status, output,
 * the reason it did not run). Everything is redacted by the caller on its way out.
 */
import path = require('path');
import type { PlanEntry, SessionUpdate, ToolCallContent, ToolCallLocation, ToolCallStatus, ToolKind } from '@agentclientprotocol/sdk';
import type { PlanItem } from '@holic512/tool-runner';
import type { AgentEvent } from '../agent/events';
import type { ToolResult } from '../agent/runner-types';
import type { Step } from '../context/protocol';
import { stepSummary, type LabelRegistry } from '../agent/step-label';
import { stepOutcome } from '../agent/step-outcome';

/** What the mapper reads of a registry: the label and summary of a step, the tool's kind. */
export interface KindRegistry extends LabelRegistry {
  get(name: string): ({ kind?: string } & NonNullable<ReturnType<LabelRegistry['get']>>) | undefined;
}

const KINDS: readonly ToolKind[] = ['read', 'edit', 'delete', 'move', 'search', 'execute', 'think', 'fetch', 'switch_mode', 'other'];

/** Characters of a step's output carried in its final update (the tail: errors come last). */
export const OUTPUT_CHARS = 32 * 1024;

/** A text content block. */
export function textContent(text: string): ToolCallContent {
  return { type: 'content', content: { type: 'text', text } };
}

/** The kind the tool's definition declares (ACP's list), else `other`. */
export function kindOf(step: Step, tools?: KindRegistry): ToolKind {
  const kind = tools?.get(step.tool ?? 'exec')?.kind;
  return KINDS.includes(kind as ToolKind) ? (kind as ToolKind) : 'other';
}

const PLAN_STATUS: Record<PlanItem['status'], PlanEntry['status']> = { pending: 'pending', in_progress: 'in_progress', done: 'completed' };

/** The model's plan (plan.update) as ACP's `plan` update: the whole list each time, as the protocol asks. */
export function planUpdate(items: readonly PlanItem[]): SessionUpdate {
  return { sessionUpdate: 'plan', entries: items.map((i) => ({ content: i.step, priority: 'medium', status: PLAN_STATUS[i.status] })) };
}

/** Fields of a step read by name (the mapper knows fields, not tools). */
function field(step: Step, name: string): unknown {
  return (step as unknown as Record<string, unknown>)[name];
}

/** The file a step names (`path`, `file`), as an absolute path, with the line it starts at. */
export function locationsOf(step: Step, cwd: string): ToolCallLocation[] {
  const named = [field(step, 'path'), field(step, 'file')].find((v): v is string => typeof v === 'string' && v !== '');
  if (!named) return [];
  const home = process.env.HOME ?? '';
  const abs = path.resolve(cwd, named.startsWith('~/') && home ? path.join(home, named.slice(2)) : named);
  const line = field(step, 'offset');
  return [{ path: abs, ...(typeof line === 'number' && line > 0 ? { line } : {}) }];
}

/** A file change as an editor shows it: the replaced text and its replacement, or a whole new content. */
export function diffOf(step: Step, cwd: string): ToolCallContent | undefined {
  const [where] = locationsOf(step, cwd);
  if (!where) return undefined;
  const oldS = field(step, 'old_string');
  const newS = field(step, 'new_string');
  if (typeof oldS === 'string' && typeof newS === 'string') return { type: 'diff', path: where.path, oldText: oldS, newText: newS };
  const content = field(step, 'content');
  if (typeof content === 'string') return { type: 'diff', path: where.path, oldText: null, newText: content };
  return undefined;
}

const fence = (text: string, lang = ''): string => '```' + lang + '\n' + text.replace(/\n+$/, '') + '\n```';

/** The tail of a long text, cut at a line start. */
function tail(text: string): string {
  if (text.length <= OUTPUT_CHARS) return text;
  const cut = text.slice(-OUTPUT_CHARS);
  const nl = cut.indexOf('\n');
  return `…\n${nl >= 0 && nl < 200 ? cut.slice(nl + 1) : cut}`;
}

/** What a finished step shows: why it did not run, its error, its output or its summary. */
export function resultText(result: ToolResult): string | undefined {
  if (result.status === 'blocked' || result.status === 'declined') {
    const reasons = result.decision.rules.map((r) => r.reason).filter(Boolean);
    return [typeof result.reason === 'string' ? result.reason : '', ...reasons].filter(Boolean).join('\n') || result.status;
  }
  const error = result.error as { message?: unknown } | undefined;
  if (result.status === 'error' && typeof error?.message === 'string') return error.message;
  const out = [result.stdoutTail, result.stderrTail].filter((s): s is string => typeof s === 'string' && s !== '').join('\n');
  if (out) return fence(tail(out));
  if (typeof result.content === 'string' && result.content) return fence(tail(result.content));
  if (typeof result.summary === 'string' && result.summary) return result.summary;
  if (typeof result.exitCode === 'number') return `exit ${result.exitCode}`;
  return undefined;
}

/** completed, or failed when it did not run, its tool failed or its command did not exit 0. */
export function statusOf(result: ToolResult): ToolCallStatus {
  const outcome = stepOutcome(result);
  if (outcome !== 'ran' && outcome !== 'sandbox_stopped') return 'failed';
  return typeof result.exitCode === 'number' && result.exitCode !== 0 ? 'failed' : 'completed';
}

/** One session's mapping from Agent events to ACP updates. */
export class UpdateMapper {
  /** The reply text sent in the running model call. */
  private sent = '';
  /** A message was sent earlier in the turn: the next one starts a new paragraph. */
  private spoke = false;
  private readonly diffs = new Map<string, ToolCallContent>();

  constructor(
    private readonly cwd: string,
    private readonly tools: () => KindRegistry | undefined,
  ) {}

  /** The tool call of a step as the permission question shows it (ACP `ToolCallUpdate`). */
  toolCall(
    id: string,
    step: Step,
    extra: ToolCallContent[] = [],
  ): {
    toolCallId: string;
    title: string;
    kind: ToolKind;
    status: ToolCallStatus;
    locations: ToolCallLocation[];
    content: ToolCallContent[];
    rawInput: Step;
  } {
    const diff = this.diffs.get(id) ?? diffOf(step, this.cwd);
    return {
      toolCallId: id,
      title: stepSummary(step, this.tools()).title,
      kind: kindOf(step, this.tools()),
      status: 'pending',
      locations: locationsOf(step, this.cwd),
      content: [...(diff ? [diff] : []), ...extra],
      rawInput: step,
    };
  }

  map(event: AgentEvent): SessionUpdate[] {
    switch (event.type) {
      case 'turn_start':
        this.sent = '';
        this.spoke = false;
        return [];
      case 'request':
        this.sent = '';
        return [];
      case 'message_delta':
        return this.say(event.message);
      case 'reply': {
        const out = this.say(event.reply.message ?? '');
        if (this.sent) this.spoke = true;
        this.sent = '';
        return out;
      }
      case 'step': {
        const call = this.toolCall(event.id, event.step);
        if (call.content[0]?.type === 'diff') this.diffs.set(event.id, call.content[0]);
        return [{ sessionUpdate: 'tool_call', ...call, status: event.verdict.level === 'L0' ? 'in_progress' : 'pending' }];
      }
      case 'confirm_answer':
        return event.answer.action === 'decline'
          ? []
          : [{ sessionUpdate: 'tool_call_update', toolCallId: event.id, status: 'in_progress' }];
      case 'tool_result':
        return [this.finished(event.result)];
      case 'plan':
        return [planUpdate(event.items)];
      default:
        return [];
    }
  }

  /** The part of the reply's message not sent yet (the whole of a message that changed, after a break). */
  private say(message: string): SessionUpdate[] {
    let delta: string;
    if (message.startsWith(this.sent)) delta = message.slice(this.sent.length);
    else delta = message; // a repaired reply says something else: it follows what was shown
    if (!delta) return [];
    const first = this.sent === '' || !message.startsWith(this.sent);
    this.sent = message;
    const text = first && this.spoke ? `\n\n${delta}` : delta;
    return [{ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } }];
  }

  private finished(result: ToolResult): SessionUpdate {
    const diff = this.diffs.get(result.id);
    this.diffs.delete(result.id);
    const text = resultText(result);
    const applied = result.status === 'applied' || result.status === 'unchanged';
    return {
      sessionUpdate: 'tool_call_update',
      toolCallId: result.id,
      status: statusOf(result),
      content: [...(diff && applied ? [diff] : []), ...(text ? [textContent(text)] : [])],
      rawOutput: result,
    };
  }
}
