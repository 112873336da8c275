import * as fs from 'fs';
import { slothtoolHome as sharedSlothtoolHome, userHome } from '@holic512/shared/lib/home';
import { createDefaultExecDeps, DEFAULT_MAX_OUTPUT_BYTES, exec, execInherit } from './exec';
import { redact, redactValue } from './redact';
import { normalizePolicy } from './policy/classify';
import { pathDirsOf } from './policy/runs-later';
import { createToolRegistry, type ToolRegistry } from './registry';
import type { AnyToolDefinition } from './registry/types';
import { invalidVerdict, judgementMemo, judgeValid, permissionRules, type JudgeSetup, type Judgement } from './runner-judge';
import { isRuleProblem, parseRule } from './permission-rules';
import { normaliseAnswer, runStep, stopped, type RunSetup } from './runner-run';
import type { Registry, RunnerDeps, ToolResult } from './tools/types';
import { FileJournal, ReadTracker, type FileChange, type UndoResult } from './file-journal';
import { createDefaultResolver } from './net-guard';
import { createDefaultFsDeps } from './tools/fs-common';
import { createDefaultProcDeps, ProcessTable, type ProcInfo, type ProcLimits } from './tools/proc';
import type { HttpSettings, ToolSession } from './tools/session';
import type { WebSearchSettings } from './tools/web-search';
import type { FileAccess } from './tools/file-access';
import { realDir, resolvePath } from './workspace';
import type { RuleProblem } from './permission-rules';
import { createSandbox, type Sandbox, type SandboxLimits, type SandboxMode, type SandboxStatus } from './sandbox';
import { sandboxFindings } from './sandbox/notes';
import { jsonPatch } from './lazy-modules';
import type { Decision, Lang, Policy, RunMode, Step } from './types';
import type { Verdict } from './policy/decide';
import { renderVerdict } from './render-verdict';
import { message } from './i18n';

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
  /** End every background process still running except detached ones (call it when the session ends). */
  dispose(): void;
}

/**
 * The OS sandbox of one step: read-only by its rules → the read-only, offline sandbox; let
 * through by a setting, an allowance, a rule, a mode or the user → the workspace is writable (and
 * the network, when the step needs it). None when there is no sandbox (refused when it is required).
 */
function stepSandbox(sandbox: Sandbox, judged: Judgement, asked: 'L0' | 'L1'): ReturnType<RunSetup['sandbox']> {
  const status = sandbox.status();
  if (status.kind === 'none') return status.mode === 'required' ? { refused: status.reason ?? 'none' } : undefined;
  const lowered = judged.verdict.adjustments.some((a) => a.to === 'L0');
  const level: 'L0' | 'L1' = asked === 'L1' || lowered ? 'L1' : 'L0';
  // A process that serves (proc.start: a dev server) keeps the host's network once let through:
  // in a network namespace of its own it could not be reached, not even on 127.0.0.1.
  const network = level === 'L1' && (judged.touches.network.length > 0 || judged.def.serves === true);
  const limits = level === 'L0' ? status.limits : undefined;
  return {
    kind: status.kind,
    level,
    network,
    ...(limits ? { limits } : {}),
    wrap: (program, args, cwd, options) => sandbox.wrap(level, network, cwd, program, args, options),
  };
}

/** `slothtoolHome`: where the spawn helper may make its pipes (createDefaultExecDeps). */
export function createDefaultRunnerDeps(now?: () => number, slothtoolHome?: string): RunnerDeps {
  const execDeps = { ...createDefaultExecDeps({ slothtoolHome }), ...(now ? { now } : {}) };
  return {
    exec: (o) => exec(o, execDeps),
    execInherit: (o) => execInherit(o, execDeps),
    readFileSync: (file) => fs.readFileSync(file, 'utf8'),
    patchFile: (file, ops, options) => jsonPatch().patchFile(file, ops, options),
    now: now ?? (() => Date.now()),
    execPath: process.execPath,
    fs: createDefaultFsDeps(),
    resolveHost: createDefaultResolver(),
    proc: createDefaultProcDeps(execDeps),
  };
}

/** The state fs.*, http.get and proc.* share during a runner's session. */
function toolSession(
  options: ToolRunnerOptions,
  deps: RunnerDeps,
  policy: Policy,
  at: { workspace: string; home: string; slothtoolHome: string },
): ToolSession {
  const { workspace, home, slothtoolHome } = at;
  return {
    workspace,
    home,
    slothtoolHome: realDir(slothtoolHome),
    resolve: (p) => resolvePath(p, options.cwd, { home, slothtoolHome }),
    reads: new ReadTracker(),
    journal: new FileJournal(),
    procs: new ProcessTable(deps.proc, options.proc),
    fs: deps.fs,
    allowPrivateNetwork: policy.allowPrivateNetwork ?? false,
    http: { timeoutMs: 20000, maxBytes: 2 * 1024 * 1024, maxRedirects: 5, ...options.http, resolve: deps.resolveHost },
    ...(options.webSearch ? { webSearch: options.webSearch } : {}),
    ...(options.fileAccess ? { fileAccess: options.fileAccess } : {}),
  };
}

/** What a runner is made of: its settings read once, its session state, its sandbox and its judgement. */
interface RunnerParts {
  env: NodeJS.ProcessEnv;
  deps: RunnerDeps;
  lang: Lang;
  registry: Registry;
  tools: ToolRegistry;
  session: ToolSession;
  sandbox: Sandbox;
  judge: JudgeSetup;
  /** The session's allowances ('allow-session' answers). */
  allowances: Set<string>;
  /** Where config.json_patch may write. */
  roots: () => string[];
  ruleProblems: RuleProblem[];
}

function runnerParts(options: ToolRunnerOptions): RunnerParts {
  const env = options.env ?? process.env;
  const deps: RunnerDeps = { ...createDefaultRunnerDeps(options.now, sharedSlothtoolHome(env)), ...options.deps };
  const lang: Lang = options.lang ?? 'zh';
  const policy = normalizePolicy(options.policy);
  const registry: Registry = options.registry && typeof options.registry === 'object' ? options.registry : { plugins: {} };
  const tools = options.toolRegistry ?? createToolRegistry(options.tools ?? []);
  const home = userHome(env);
  const slothtoolHome = sharedSlothtoolHome(env);
  // config.json_patch: the workspace by default (a project's JSON configs); the SlothTool home is
  // never patched by a model-requested step, whatever the roots say.
  const roots = (): string[] => options.allowedRoots ?? [workspace];
  const allowances = new Set<string>();
  const workspace = realDir(options.workspace ?? options.cwd);
  // fs.*, http.get and proc.* share this session state; it lives on the runner, nowhere else.
  const session = toolSession(options, deps, policy, { workspace, home, slothtoolHome });
  const sandbox: Sandbox =
    typeof options.sandbox === 'object'
      ? options.sandbox
      : createSandbox({
          mode: options.sandbox ?? 'auto',
          workspace,
          home,
          slothtoolHome: realDir(slothtoolHome),
          env,
          ...options.sandboxOptions,
        });
  const parsedRules = permissionRules(policy, tools);
  const judge: JudgeSetup = {
    registry: tools,
    policy,
    lang,
    base: { cwd: options.cwd, home, slothtoolHome, pathDirs: pathDirsOf(env) },
    env: { registry, deps, session, allowedRoots: roots },
    allowances,
    rules: parsedRules.rules,
    mode: 'default',
    sandboxFindings: () => sandboxFindings(sandbox.status()),
  };
  return { env, deps, lang, registry, tools, session, sandbox, judge, allowances, roots, ruleProblems: parsedRules.problems };
}

/** How runStep runs this runner's steps: the question, the allowances and rules an answer adds, the sandbox, a tool's context. */
function runSetup(options: ToolRunnerOptions, parts: RunnerParts, recent: RunSetup['recent']): RunSetup {
  const { env, deps, lang, registry, tools, session, sandbox, judge, allowances, roots } = parts;
  return {
    judge,
    ask: (request, signal) => normaliseAnswer(options.confirm, request, signal),
    allow: (key) => void allowances.add(key),
    addRule: (text) => {
      const parsed = parseRule(text, 'allow', 'answer', (tool) => tools.get(tool)?.permission.arg ?? 'words');
      if (!isRuleProblem(parsed)) judge.rules.push(parsed);
    },
    sandbox: (judged, asked) => stepSandbox(sandbox, judged, asked),
    unattended: options.unattended === true,
    recent,
    context: (id, runOptions, judged) => ({
      id,
      cwd: options.cwd,
      env,
      lang,
      deps,
      registry,
      timeoutMs: options.timeoutMs ?? 120000,
      maxOutputBytes: options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES,
      signal: runOptions.signal,
      onOutput: runOptions.onOutput,
      allowedRoots: judged.def.name === 'config.json_patch' ? roots() : [],
      session,
      ...(options.terminal === false ? { noTerminal: true } : {}),
      ...(judged.fsTarget ? { judged: judged.fsTarget } : {}),
    }),
  };
}

/**
 * A runner: judges steps with the tools' rules, the policy and the session's allowances, asks
 * the user through `confirm`, executes through the tool's definition and returns the DESIGN §4
 * `tool_result`. Session allowances live on the runner object, nowhere else.
 */
export function createToolRunner(options: ToolRunnerOptions): ToolRunner {
  const parts = runnerParts(options);
  const { lang, tools, session, sandbox, judge, allowances } = parts;
  const memo = judgementMemo();
  const setup = runSetup(options, parts, memo.take);
  let counter = 0;

  const verdict = (step: Step): Verdict => {
    const checked = tools.validate(step);
    if (!checked.ok) return invalidVerdict(step, judge);
    const judged = judgeValid(checked.step, judge);
    memo.keep(step, checked.step, judged);
    return judged.verdict;
  };

  return {
    tools,
    verdict,
    // The edge of a caller that shows the runner's own wording: rendered here, after the judgement.
    judge: (step) => renderVerdict(verdict(step), lang),
    describe(step) {
      const checked = tools.validate(step);
      return checked.ok
        ? tools.get(checked.step.tool ?? 'exec')!.digest(checked.step)
        : String((step as { tool?: unknown })?.tool ?? 'exec');
    },
    get sessionAllowances() {
      return [...allowances];
    },
    sandboxStatus: () => sandbox.status(),
    get mode() {
      return judge.mode;
    },
    setMode(mode) {
      // yolo runs every L1 step without a question: only where the OS sandbox bounds what it does.
      if (mode === 'yolo' && sandbox.status().kind === 'none')
        return { ok: false, reason: message('mode.yolo_no_sandbox', lang, { why: sandbox.status().reason ?? 'off' }).reason };
      judge.mode = mode;
      memo.drop();
      return { ok: true };
    },
    ruleProblems: parts.ruleProblems,
    mark: () => session.journal.mark(),
    changes: (mark = 0) => session.journal.since(mark).map(({ seq, stepId, tool, path: file }) => ({ seq, stepId, tool, path: file })),
    undo: (mark) => session.journal.undo(mark),
    processes: () => session.procs.list(),
    dispose: () => session.procs.dispose(),
    async run(step, runOptions = {}) {
      const id = runOptions.id ?? `cmd_${String(++counter).padStart(3, '0')}`;
      try {
        // The gate once more over the whole result: whatever a tool forgot does not leave.
        return redactValue(await runStep(id, step, runOptions, setup));
      } catch (err) {
        // A bug or a throwing dependency must not reject: report it as a result.
        const tool = String((step as { tool?: unknown } | null)?.tool ?? 'exec');
        const rule = { id: 'runner.error', level: 'L2' as const, reason: redact(err instanceof Error ? err.message : String(err)) };
        return stopped(id, tool, 'blocked', { level: 'L2', by: 'policy', rules: [rule] }, rule.reason);
      }
    },
  };
}
