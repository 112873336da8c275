import type { z } from 'zod';
import type { ArgKind, PermissionSubject } from '../permission-rules';
import type { ClassifyOptions } from '../policy/classify';
import type { Finding } from '../policy/finding';
import type { PathLinks } from '../policy/links';
import type { WorkspaceProgramFacts } from '../policy/workspace-programs';
import type { Registry, RunnerDeps, ToolContext, ToolResult } from '../tools/types';
import type { ToolSession } from '../tools/session';
import type { Lang, Policy } from '../types';

/** What a step touches: the paths it reads or writes, the hosts it reaches, the programs it runs. */
export interface Touches {
  read: string[];
  write: string[];
  network: string[];
  exec: string[];
}

/** Everything `assess` may look at. Pure data: no file system, no clock. */
export interface AssessContext extends ClassifyOptions {
  /** The caller's policy, normalised. */
  policy: Policy;
  /** exec / proc.start: where the step's folder and path words really lead (gathered by the runner). */
  links?: PathLinks;
  /** Workspace files that name programs the step's program would run (gathered by the runner). */
  workspacePrograms?: WorkspaceProgramFacts;
}

/** A tool's verdict before rendering: the fired rules and what the step touches. */
export interface Assessment {
  findings: Finding[];
  touches: Touches;
}

/** What the runner offers a definition that needs live facts before judging (plugins, file targets). */
export interface JudgeEnv {
  registry: Registry;
  deps: RunnerDeps;
  session: ToolSession;
  /** config.json_patch: the files that may be patched. */
  allowedRoots(): string[];
}

/** One fact of a step's summary: an argument by its own name (`path`, `content`), or what it amounts to. */
export interface SummaryField {
  name: string;
  /** Shown as given (strings quoted, others as JSON), redacted and cut with a count of what was cut. */
  value: unknown;
  /** A long text (file contents, old/new text, patch operations): its size, then its first lines. */
  text?: boolean;
}

/**
 * What a step will do, for the question that asks about it: a title line and the step's facts.
 * Built from the step alone (pure); the question redacts and cuts the values when it shows them.
 */
export interface StepSummary {
  /** One line naming what runs: the command line, `fs.edit src/a.ts`, `mcp.files.write_file`. */
  title: string;
  fields: SummaryField[];
  /** An MCP tool: its server and its own name there. */
  origin?: { server: string; tool: string };
  /** What the tool's server says of it (MCP annotations), unchecked; an absent hint is unknown. */
  hints?: { readOnly?: boolean; destructive?: boolean; idempotent?: boolean; openWorld?: boolean };
}

/** What a tool does, as editors group steps (the Agent Client Protocol's tool kinds). */
export type ToolKind = 'read' | 'edit' | 'delete' | 'move' | 'search' | 'execute' | 'think' | 'fetch' | 'other';

/** What a tool's Claude Code form needs to know of where the step runs: relative paths are made absolute from here. */
export interface ClaudeInputContext {
  /** The folder the step's relative paths are resolved in (the session's working folder). */
  cwd: string;
  /** What `~` stands for. */
  home?: string;
  /** What `~/.slothtool` stands for (SLOTHTOOL_HOME). */
  slothtoolHome?: string;
}

/**
 * How Claude Code names a tool and its input, so that what a Claude Code user wrote for it works
 * here: hook stdin (`tool_name`, `tool_input`, `tool_response`), hook matchers (`Edit|Write`),
 * permission rules (`Bash(git diff:*)`, `Read(./.env)`) and a command's `allowed-tools`. A tool
 * without one is known to those only by its own name.
 */
export interface ClaudeCodeForm<I extends object = Record<string, unknown>> {
  /**
   * Claude Code's names of this tool. The first is the `tool_name` a hook reads; every one of them
   * matches in hook matchers, permission rules and `allowed-tools` (`['Edit', 'MultiEdit']`).
   * Two tools may share a name (exec and proc.start are both `Bash`): a rule naming it covers both.
   */
  names: readonly string[];
  /** The `tool_name` a hook reads for this input, when it is not the first name (fs.edit with `edits` is `MultiEdit`). */
  nameFor?(input: I): string;
  /** The step's input in Claude Code's field names (`command`, an absolute `file_path`, …): a hook's `tool_input`. */
  input(input: I, ctx: ClaudeInputContext): Record<string, unknown>;
  /**
   * Claude Code's input for this tool (a hook's `updatedInput`, a command's `` !`cmd` ``) as this
   * tool's input, or why it cannot be one. The result is validated and judged as a new step.
   */
  fromInput?(input: Record<string, unknown>): Record<string, unknown> | { error: string };
  /** A successful result in Claude Code's `tool_response` shape, as far as ours has the facts; without it, our result as it is. */
  response?(input: I, result: Record<string, unknown>, ctx: ClaudeInputContext): unknown;
}

/**
 * One tool: its name, what it is for (zh and en), the zod schema of its input (the only schema
 * of it anywhere; the JSON Schema for native tool calls and MCP is generated from it), a pure
 * `assess`, the approval key, the one-line digest and `execute`.
 */
export interface ToolDefinition<I extends object = Record<string, unknown>> {
  /** Dotted name the model uses: `exec`, `fs.read`, `mcp.github.create_issue`. */
  name: string;
  description: Record<Lang, string>;
  /** The input fields (without `tool`), `requires` included. */
  input: z.ZodObject<z.ZodRawShape>;
  /** A compact example of the input for the prompt. */
  example: Record<string, unknown>;
  /**
   * What the tool does, for a client that shows steps by kind (an editor over ACP: its icon and
   * grouping); never part of a judgement. Absent: `other`.
   */
  kind?: ToolKind;
  /** The step runs in the cmd reply's `cwd` when it names none. */
  takesCwd?: boolean;
  /** The words a person may edit in the question dialog (a program and its arguments), and how to put them back. */
  words?: { get(input: I): string[]; set(input: I, words: string[]): I };
  /** It runs a program the model named: it runs inside the OS sandbox of its level. */
  sandboxed?: boolean;
  /** It starts a process that may serve others (a dev server): once the user let it run (L1),
   * its sandbox keeps the host network, since a server in a namespace of its own cannot be reached. */
  serves?: boolean;
  /** The definition asks the user itself through `ctx.ask` (to show a preview first). */
  confirmsInside?: boolean;
  /**
   * Its latest result is state the model must keep (a plan): an agent folding its context states
   * that result again after the summary, so it survives every fold and a resumed session.
   */
  pinned?: boolean;
  /** How permission rules read this tool's argument, and the subject of one step. */
  permission: { arg: ArgKind; subject(input: I, ctx: AssessContext): PermissionSubject };
  /** Live facts the runner gathers before judging (merged into the AssessContext). */
  judgeContext?(input: I, env: JudgeEnv): Partial<AssessContext>;
  /** Pure: the rules that fire for this input and what it touches. */
  assess(input: I, ctx: AssessContext): Assessment;
  /**
   * What 'allow for this session' allows: never wider than what the user was shown. It starts
   * with the tool's own name (`fs.edit src/a.ts`, `exec git commit`), or the name and a
   * qualifier in parentheses (`proc.start(detached) …`), so one tool's allowance never covers another's.
   */
  approvalKey(input: I): string;
  /** One line for people: `git status`, `read src/a.ts (lines 10+5)`. */
  digest(input: I): string;
  /** What the question about this step shows; without it, the digest alone. */
  summary?(input: I): StepSummary;
  /** Ask every time, even when the session allows this key. */
  alwaysConfirm?(input: I, env: Pick<JudgeEnv, 'registry' | 'deps'>): boolean;
  execute(input: I, ctx: ToolContext): Promise<ToolResult>;
  /** Claude Code's name and fields for this tool (registry/claude-code.ts has the shared parts). */
  claude?: ClaudeCodeForm<I>;
}

/** A definition whose input type is not known statically (custom and MCP tools). */
export type AnyToolDefinition = ToolDefinition<any>; // eslint-disable-line @typescript-eslint/no-explicit-any
