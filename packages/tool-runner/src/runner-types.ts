/** The runner's contract: its options, the question it asks through `confirm` and the answers, and what a runner offers. */
import type { FileChange, UndoResult } from './file-journal';
import type { RuleProblem } from './permission-rules';
import type { Verdict } from './policy/decide';
import type { ToolRegistry } from './registry';
import type { AnyToolDefinition } from './registry/types';
import type { Sandbox, SandboxLimits, SandboxMode, SandboxStatus } from './sandbox';
import type { ProcInfo, ProcLimits } from './tools/proc';
import type { HttpSettings } from './tools/session';
import type { FileAccess } from './tools/file-access';
import type { Registry, RunnerDeps, ToolResult } from './tools/types';
import type { WebSearchSettings } from './tools/web-search';
import type { Decision, Lang, Policy, RunMode, Step } from './types';

/** The user's answer to a confirmation request. */
export type ConfirmAnswer =
  | { action: 'run' }
  | { action: 'allow-session' }
  /** Run it, and from now on everything the request's `rule` names (the caller keeps the rule, e.g. in ai.json). */
  | { action: 'allow-rule' }
  | { action: 'decline'; reason?: string }
  | { action: 'edit'; step: Step };

/** What the caller's `confirm` callback is shown. */
export interface ConfirmRequest {
  id: string;
  step: Step;
  /**
   * The verdict, without language (level, findings with their ids, levels and redacted params,
   * what adjusted it): a caller showing the question in its own language renders it with
   * `renderVerdict(verdict, lang)`.
   */
  verdict: Verdict;
  /** The verdict worded in the runner's language (`lang`), redacted. */
  decision: Decision;
  /** What the user should see first (the masked diff of a config patch). */
  preview?: string;
  /** What 'allow-session' would allow, e.g. `git commit`. */
  sessionKey: string;
  /** The exact permission rule for this step (`exec(npm run test)`), when one can say it: what 'allow-rule' allows. */
  rule?: string;
  /** What the question shows of the step: its tool's summary from the registry it was judged with. */
  summary?: import('./registry/types').StepSummary;
  /** Set on a child agent's question (plugin-ai agent.run): which child asks. */
  agent?: string;
}

/** Options of {@link createToolRunner}. */
export interface ToolRunnerOptions {
  /** Policy settings from the caller's config. */
  policy?: Policy;
  /** Asks the user about an L1 step. L0 steps never call it; L2 steps never run. */
  confirm: (request: ConfirmRequest) => ConfirmAnswer | Promise<ConfirmAnswer>;
  /** The parsed registry.json (`{plugins: {...}}`), for plugin.run. */
  registry?: Registry;
  /** Workspace folder: steps run here unless they name a cwd. */
  cwd: string;
  /** Language of rule reasons and hints; default 'zh'. */
  lang?: Lang;
  /** Environment of spawned programs; default process.env. */
  env?: NodeJS.ProcessEnv;
  /** Clock (ms), for durations. */
  now?: () => number;
  /** Default time limit of a step; default 120000 ms. */
  timeoutMs?: number;
  /** Bytes kept of each output stream (head + tail); default 65536. */
  maxOutputBytes?: number;
  /** config.json_patch: folders, files or patterns that may be patched; default the workspace. */
  allowedRoots?: string[];
  /**
   * The workspace of fs.* steps: inside it reads are L0 and writes are recorded for undo.
   * Default `cwd`; plugin-ai passes the git root (`findWorkspace(cwd)`).
   */
  workspace?: string;
  /** http.get limits: `timeoutMs` (20000), `maxBytes` (2 MiB), `maxRedirects` (5). */
  http?: Partial<Pick<HttpSettings, 'timeoutMs' | 'maxBytes' | 'maxRedirects'>>;
  /** web.search: the search provider (ai.json `webSearch`); without it the tool says how to set one. */
  webSearch?: WebSearchSettings;
  /** proc.* limits: running processes (8), output per status, kill grace, longest wait. */
  proc?: Partial<ProcLimits>;
  /**
   * The OS sandbox of command steps (exec, proc.start): `auto` (default) uses bubblewrap on Linux
   * or Seatbelt on macOS when it works and runs without it otherwise (sandboxStatus() says why);
   * `required` refuses command steps without one; `off`. Or a Sandbox object (tests).
   */
  sandbox?: SandboxMode | Sandbox;
  /**
   * What the OS sandbox shows and bounds (ai.json `sandbox`): `allowRead`, more of the home shown
   * to read-only (L0) steps (`~` expanded); `limits`, the L0 resource limits (`false`: none).
   */
  sandboxOptions?: { allowRead?: readonly string[]; limits?: Partial<SandboxLimits> | false };
  /**
   * No person answers `confirm` (it answers by a rule, e.g. `--approve-l1`): a step the sandbox
   * stopped is never offered to run again with more rights.
   */
  unattended?: boolean;
  /** Tools beyond the built-ins (a sibling plugin's own, MCP tools): judged and run the same way. */
  tools?: readonly AnyToolDefinition[];
  /**
   * The registry to judge and run with, made by the caller with createToolRegistry (replies can
   * then be parsed against it before the runner exists); `tools` is then ignored.
   */
  toolRegistry?: ToolRegistry;
  /**
   * Where fs.read / fs.edit / fs.write get and put a file's text when the caller has a better
   * source than the disk (an editor's buffers, plugin-ai's ACP agent). Judging, asking, the
   * disk's checks and the undo journal stay the same.
   */
  fileAccess?: FileAccess;
  /**
   * `false`: the caller's stdin and stdout are not a terminal a program may take over (they carry
   * a protocol: plugin-ai's ACP agent). An interactive plugin then runs with its output captured
   * like any other, instead of inheriting them. Default true.
   */
  terminal?: boolean;
  /** Side effects, for tests. */
  deps?: Partial<RunnerDeps>;
}

/** Options of one run. */
export interface RunOptions {
  /** Result id; default `cmd_001`, `cmd_002`, ... */
  id?: string;
  signal?: AbortSignal;
  /** Live output (not redacted: it is for the user's own screen). */
  onOutput?: (chunk: string, stream: 'stdout' | 'stderr', skippedBytes?: number) => void;
}

export interface ToolRunner {
  /** The tools this runner judges and runs (built-ins plus `options.tools`). */
  readonly tools: ToolRegistry;
  /**
   * The step judged with the policy, the rules, the mode and this runner's session allowances,
   * without language: level, findings (ids, levels, redacted params) and what adjusted it.
   * What the runner acts on; word it with `renderVerdict(verdict, lang)` where it is shown.
   */
  verdict(step: Step): Verdict;
  /** {@link verdict}, worded in the runner's language (`lang`) and redacted. */
  judge(step: Step): Decision;
  /** The step in one line for people (`git status`, `read src/a.ts`), from its tool's digest. */
  describe(step: Step): string;
  /** Judge, ask where needed, execute, summarise. Never rejects. */
  run(step: Step, options?: RunOptions): Promise<ToolResult>;
  /** Session keys the user allowed so far. */
  readonly sessionAllowances: readonly string[];
  /** Which OS sandbox command steps run in, or why none. */
  sandboxStatus(): SandboxStatus;
  /** The mode (`default` at start): how much runs without a question. */
  readonly mode: RunMode;
  /** Switch the mode; `yolo` is refused (with why) when command steps would run without the OS sandbox. */
  setMode(mode: RunMode): { ok: true } | { ok: false; reason: string };
  /** Permission rules of the policy that could not be read (they are not applied), with why. */
  readonly ruleProblems: readonly RuleProblem[];
  /** A position in the file journal (e.g. at the start of a turn), for {@link undo}. */
  mark(): number;
  /** Files fs.edit / fs.write changed inside the workspace since `mark` (default: all), oldest first, without contents. */
  changes(mark?: number): Array<Pick<FileChange, 'seq' | 'stepId' | 'tool' | 'path'>>;
  /** Put back the files changed since `mark`; files changed again since are left alone. */
  undo(mark: number): UndoResult;
  /** The background processes of this session, oldest first (`/ps`); detached ones name their log file. */
  processes(): ProcInfo[];
  /** End every background process still running except detached ones, and the sandbox prepared for a next step (call it when the session ends). */
  dispose(): void;
}
