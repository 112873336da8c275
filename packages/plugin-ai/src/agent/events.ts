import type { ConfirmAnswer, ConfirmRequest, ToolResult, Verdict } from './runner-types';
import type { Reply, Step } from '../context/protocol';
import type { LlmWait, Usage } from '../config/llm-base';
import type { ContextSizes } from '../context/context';
import type { PlanItem } from '@holic512/tool-runner';
import type { CheckDigest } from '../extensions/checks';

/** How a turn ended. */
export type TurnOutcome = 'answered' | 'model_error' | 'step_limit' | 'error' | 'aborted';

/** Token usage summed over calls. */
export interface UsageTotals extends Usage {
  calls: number;
}

/** What `send()` resolves to, also emitted as the `final` event. */
export interface TurnResult {
  outcome: TurnOutcome;
  /** The last validated reply (a chat for `answered`). */
  reply?: Reply;
  /** True when the reply is the model's raw text shown as chat after a failed repair. */
  raw?: boolean;
  /** The text to show the user: the chat message, the model's error, or why the turn stopped. */
  message: string;
  /** Replies the model offers the user to pick from next (a chat answer's `suggestions`, at most 9). */
  suggestions?: string[];
  /** Step rounds (cmd replies) executed in this turn. */
  steps: number;
  usage: UsageTotals;
  error?: { code: string; message: string };
  sessionId: string;
}

/** Everything the agent reports while it works. One union, discriminated on `type`. */
export type AgentEvent =
  | { type: 'turn_start'; input: string; sessionId: string }
  | { type: 'request'; messages: number; tokens: number; minimal: boolean; purpose: 'reply' | 'repair' | 'summary' }
  | ({ type: 'wait' } & LlmWait)
  | { type: 'text'; delta: string }
  | { type: 'message_delta'; message: string }
  | { type: 'repair'; error: string }
  | { type: 'reply'; reply: Reply; raw: boolean; repaired: boolean }
  /**
   * `label`: the step in one line from the registry it was judged with (MCP tools are only there).
   * `verdict`: the runner's, without language; each edge that shows it words it (renderVerdict).
   */
  | { type: 'step'; id: string; step: Step; verdict: Verdict; label?: string }
  | { type: 'confirm'; request: ConfirmRequest }
  | { type: 'confirm_answer'; id: string; answer: ConfirmAnswer }
  | {
      type: 'output';
      id: string;
      chunk: string;
      stream: 'stdout' | 'stderr';
      /** Output before this chunk that was not shown (a fast stream past 8 MiB is sampled). */
      skipped?: number;
      /** Only in `ai -p --json`: the last event of a stream cut to its head and tail. */
      truncated?: true;
      /** With `truncated`: bytes the stream printed in all, and those not carried. */
      bytes?: number;
      omittedBytes?: number;
    }
  | { type: 'tool_result'; result: ToolResult }
  /** The model's plan changed (a step result carried one: plan.update): the whole plan, in order. */
  | { type: 'plan'; items: PlanItem[] }
  /** Checks after edits ran after a reply's steps: their digests joined the result of step `id` (an edit) the model reads. */
  | { type: 'checks'; id: string; checks: CheckDigest[] }
  /** A fold: `shortened` (older results shortened), or `model` / `rules` (older turns folded into a summary, by the model or by rules); `folded` messages went into it. */
  | { type: 'compaction'; method: 'shortened' | 'model' | 'rules'; folded: number; before: number; after: number; sizes: ContextSizes }
  /** `model`: the model that answered, when llm-base says. */
  | { type: 'usage'; call: Usage; turn: UsageTotals; total: UsageTotals; model?: string }
  | { type: 'step_limit'; steps: number }
  | { type: 'log'; code: string; message: string }
  | { type: 'error'; code: string; message: string }
  | ({ type: 'final' } & TurnResult);

export type AgentListener = (event: AgentEvent) => void;
