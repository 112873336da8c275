import type { AiConfig } from '../config/config';
import type { RunMode } from './runner-types';
import type { HookCommandConfig } from '../extensions/hooks';
import type { ContextSnapshot, ConversationContext } from '../context/context';
import type { AgentEvent, AgentListener, UsageTotals } from './events';
import type { Lang } from '../i18n';
import type { LlmClient } from '../config/llm-base';
import type { ConfirmAnswer, ConfirmFn, ConfirmRequest, StepRunner, ToolResult } from './runner-types';
import type { SessionStore } from '../sessions/sessions';
import type { Step } from '../context/protocol';

/** A confirm answer may say who gave it, for the audit log (a flag, not a person). */
export type AgentConfirmAnswer = ConfirmAnswer & { approvedBy?: import('./step').ApprovedBy };
/** Asks the user about a step; `signal` aborts when the question is withdrawn (its time-out ran out). */
export type AgentConfirmFn = (request: ConfirmRequest, options?: { signal?: AbortSignal }) => Promise<AgentConfirmAnswer>;

/** Side effects come in here, so tests pass fakes (STYLE: deps object). */
export interface AgentDeps {
  /** The model (llm-base wrapped by createLlmClient, or a fake). */
  llm: LlmClient;
  /** Builds the step runner; called once, lazily, with the agent's confirm bridge. */
  createRunner: (confirm: ConfirmFn) => StepRunner;
  /**
   * The tools replies are parsed against, when known before the runner (the runner built by
   * createRunner must then use this same registry). Without it, the runner's are used, which
   * builds the runner at the first reply.
   */
  tools?: StepRunner['tools'];
  /** Asked for L1 steps. Without one every L1 step is declined. */
  confirm?: AgentConfirmFn;
  /** Where sessions are appended; none = nothing is written. */
  store?: SessionStore;
  /** Audit log file; none = no audit. */
  auditFile?: string;
  /** Clock, for session ids and record times. */
  now?: () => Date;
  random?: () => number;
  /** Hooks (ai.json `hooks`, a trusted project's too): PreToolUse can block a step, PostToolUse sees its result. */
  hooks?: readonly HookCommandConfig[];
  /** Tools that join during the session (MCP servers connecting in the background). */
  dynamicTools?: DynamicTools;
  /** Called by dispose(): what the session started ends with it (MCP servers). */
  onDispose?: () => void;
  /** The project folder hooks get as `CLAUDE_PROJECT_DIR` (default the cwd). */
  projectDir?: string;
  /** The environment hooks run with (settings' `env` applied); default process.env. */
  hookEnv?: NodeJS.ProcessEnv;
  /** Checks after edits (ai.json `checks`, a trusted project's): run once per reply for the files it changed (agent/checks-run.ts). */
  checks?: import('./checks-run').SessionChecks;
  /** Called once, as soon as a streaming reply shows it asks for steps: the runner's spawn helper
   * starts then, while the rest of the reply arrives (tool-runner prepareSpawnHelper). */
  prepareSteps?: () => void;
}

/** Tools that join during a session: the agent registers them with its runner before each model call. */
export interface DynamicTools {
  /** Wait until no source is still starting, at most `maxMs` (or until `signal` aborts). */
  settle(maxMs: number, signal?: AbortSignal): Promise<void>;
  /** The tool definitions now, the system-prompt section listing them, and a key that changes with them. */
  current(): { key: string; tools: readonly unknown[]; prompt: string };
  /** Sources that failed to start and were not reported yet: `{name, error}` each, once. */
  failures?(): Array<{ name: string; error: string }>;
}

export interface AgentOptions {
  config: AiConfig;
  systemPrompt: string;
  /** The system prompt when the model gets native tool calls (transport `tools`). */
  toolsSystemPrompt?: string;
  cwd: string;
  lang: Lang;
  mode?: 'low' | 'high';
  profile?: string | null;
  /** Overrides config.maxAutoStepsPerTurn. */
  maxAutoSteps?: number;
}

export interface SendOptions {
  signal?: AbortSignal;
  /** Images sent with this message (checked by images.ts loadImage). */
  images?: import('../context/images').ImageAttachment[];
  /**
   * A custom command's work before its prompt is sent (`!`cmd`` and `@file`): given a function
   * that judges and runs one step like any other (L0 runs, L1 asks, L2 is refused), it returns
   * the message to send.
   */
  prepare?: (run: (step: Step) => Promise<ToolResult>) => Promise<string>;
  /**
   * For this turn only: steps these permission rules name (ours, e.g. `exec(git add *)`) need no
   * question — a custom command's `allowed-tools`. Never an L2 step, never one a rule asks about.
   */
  allow?: readonly string[];
  /** For this turn only: an llm-base profile and a model tier (a custom command's front matter). */
  profile?: string;
  mode?: 'low' | 'high';
}

/** A point `/rewind` can go back to: before one user message. */
export interface Checkpoint {
  /** 1-based number of the user message. */
  turn: number;
  at: string;
  /** The first line of the user message, shortened. */
  title: string;
  context: ContextSnapshot;
  /** File-journal position before the message (0 before the runner existed). */
  journalMark: number;
  /** Steps that ran after this checkpoint and may have changed things the journal cannot restore. */
  effects: string[];
}

/** Input waiting to be sent with the next model call. */
export type Pending =
  | { kind: 'user'; text: string; images?: import('../context/images').ImageAttachment[] }
  | { kind: 'event'; text: string; /** The event says which tools joined: their key. */ toolsKey?: string }
  | { kind: 'tool'; result: ToolResult };

/**
 * The running turn: what its model calls and its steps share, made by runTurn and dropped when it
 * ends. A step's own state (its id, verdict, question, answer and result) is the step object
 * (step.ts); the turn only keeps the ones still in the runner, so a question reaches its step.
 */
export interface Turn {
  readonly controller: AbortController;
  /** Usage of this turn's calls. */
  readonly usage: UsageTotals;
  /** Notes the user sent while it runs (agent.steer): the model reads them with its next call. */
  readonly steering: string[];
  /** Its steps handed to the runner and not ended yet, by id (agent-steps handToRunner). */
  readonly live: Map<string, import('./step').LiveStep>;
  /** What PostToolUse hooks added for the model (`additionalContext`), sent with the step results. */
  readonly hookContext: Pending[];
  /** A hook answered `continue: false` (with this stopReason): the turn ends after the step. */
  hookStop?: string;
  /** This turn's own allowances (a custom command's `allowed-tools`), as parsed rules. */
  readonly allow?: readonly import('@holic512/tool-runner').PermissionRule[];
  /** File-journal position at its first step (kept for `/undo` when the turn changed files). */
  mark?: number;
}

/** The state of one Agent's session that its modules (turn loop, approvals, model calls, session
 * file) share. Internal: the Agent class is the only owner and the public face. */
export interface AgentCore {
  readonly options: AgentOptions;
  readonly deps: AgentDeps;
  readonly context: ConversationContext;
  readonly now: () => Date;
  readonly listeners: Set<AgentListener>;
  /** Positions of earlier turns that changed files, newest last (`/undo` pops one). */
  readonly undoMarks: number[];
  /** One per user message of the conversation, oldest first (`/rewind`). */
  readonly checkpoints: Checkpoint[];
  /** Files that could not be written (a full disk): said once each, then left alone. */
  readonly unwritable: Set<string>;
  /** Session and audit lines not written yet (agent-session queueWrite). */
  readonly pendingWrites: import('./agent-session').PendingWrite[];
  /** A model request is on its way out: queued lines wait until it is sent (agent-session holdWrites). */
  writesHeld?: boolean;
  id: string;
  /** True once the session file has its meta record. */
  started: boolean;
  mode: 'low' | 'high';
  /** How much runs without a question (the runner's mode); applied when the runner is built. */
  runMode: RunMode;
  profile: string | null;
  maxAutoSteps: number;
  total: UsageTotals;
  /** Steps of the session so far (their ids count on). */
  stepCounter: number;
  /** The running turn, if one runs. */
  turn?: Turn;
  /** Messages for the model from outside a turn's flow (instructions that changed): sent with the next call. */
  readonly notes: Pending[];
  runner?: StepRunner;
  /** The key of the dynamic tools last registered (agent-extensions syncTools). */
  toolsKey?: string;
  /** Their names: the ones offered now (an MCP server turned off keeps its registered tools). */
  dynamicNames?: ReadonlySet<string>;
  /** The session whose SessionStart hooks ran. */
  hookSession?: string;
  /** A missing OS sandbox was said (agent-approvals noteSandbox). */
  sandboxNoted?: boolean;
  /** llm-base said once that the high model could not be loaded and the low one answered. */
  fellBack?: boolean;
  /** The check after edits running now (its question may be answered already: agent/checks-run.ts). */
  runningCheck?: string;
  /** The model's latest plan (a result that carried one: plan.update), for the screen and a resumed session. */
  plan?: import('@holic512/tool-runner').PlanItem[];
}

export const zeroUsage = (): UsageTotals => ({ input_tokens: 0, output_tokens: 0, calls: 0 });

/** Why a write failed, in one line: `ENOSPC: no space left on device` (the error's own message). */
export function writeFailure(err: unknown): string {
  const e = err as NodeJS.ErrnoException;
  return (e instanceof Error ? e.message : String(err)).split('\n')[0].replace(/, (write|open|appendFile|fsync)( '[^']*')?$/, '');
}

export function emit(core: AgentCore, event: AgentEvent): void {
  for (const listener of core.listeners) listener(event);
}

/** The record time of now. */
export function at(core: AgentCore): string {
  return core.now().toISOString();
}
