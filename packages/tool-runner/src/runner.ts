import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { createDefaultExecDeps, DEFAULT_MAX_OUTPUT_BYTES, exec, execInherit } from './exec';
import { message } from './i18n';
import { redact, redactValue } from './redact';
import { classifyFindings, normalizePolicy, render, sessionKey, validateStep, type ClassifyOptions } from './policy/classify';
import { finding, maxLevel, type Finding } from './policy/finding';
import { execTool } from './tools/exec-tool';
import { jsonPatchTool } from './tools/json-patch-tool';
import { pluginRunTool, readPluginInfo } from './tools/plugin-run-tool';
import type { Registry, ResultDecision, RunnerDeps, StoppedToolResult, ToolContext, ToolHandler, ToolResult } from './tools/types';
import { FileJournal, ReadTracker, type FileChange, type UndoResult } from './file-journal';
import { createDefaultResolver } from './net-guard';
import { createDefaultFsDeps } from './tools/fs-common';
import { createDefaultProcDeps, ProcessTable, type ProcLimits } from './tools/proc';
import type { HttpSettings, ToolSession } from './tools/session';
import { SESSION_TOOL_HANDLERS } from './tools/tool-handlers';
import { realDir, resolvePath, type ResolvedPath } from './workspace';
import type { Decision, Lang, Policy, Step } from './types';

/** The user's answer to a confirmation request. */
export type ConfirmAnswer =
  | { action: 'run' }
  | { action: 'allow-session' }
  | { action: 'decline'; reason?: string }
  | { action: 'edit'; step: Step };

/** What the caller's `confirm` callback is shown. */
export interface ConfirmRequest {
  id: string;
  step: Step;
  decision: Decision;
  /** What the user should see first (the masked diff of a config patch). */
  preview?: string;
  /** What 'allow-session' would allow, e.g. `git commit`. */
  sessionKey: string;
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
  /** config.json_patch: files that may be patched; default json-patch's defaultAllowedRoots(env). */
  allowedRoots?: string[];
  /**
   * The workspace of fs.* steps: inside it reads are L0 and writes are recorded for undo.
   * Default `cwd`; plugin-ai passes the git root (`findWorkspace(cwd)`).
   */
  workspace?: string;
  /** http.get limits: `timeoutMs` (20000), `maxBytes` (2 MiB), `maxRedirects` (5). */
  http?: Partial<Pick<HttpSettings, 'timeoutMs' | 'maxBytes' | 'maxRedirects'>>;
  /** proc.* limits: running processes (8), output per status, kill grace, longest wait. */
  proc?: Partial<ProcLimits>;
  /** Side effects, for tests. */
  deps?: Partial<RunnerDeps>;
}

/** Options of one run. */
export interface RunOptions {
  /** Result id; default `cmd_001`, `cmd_002`, ... */
  id?: string;
  signal?: AbortSignal;
  /** Live output (not redacted: it is for the user's own screen). */
  onOutput?: (chunk: string, stream: 'stdout' | 'stderr') => void;
}

export interface ToolRunner {
  /** Policy plus this runner's session allowances. */
  judge(step: Step): Decision;
  /** Judge, ask where needed, execute, summarise. Never rejects. */
  run(step: Step, options?: RunOptions): Promise<ToolResult>;
  /** Session keys the user allowed so far. */
  readonly sessionAllowances: readonly string[];
  /** A position in the file journal (e.g. at the start of a turn), for {@link undo}. */
  mark(): number;
  /** Files fs.edit / fs.write changed inside the workspace since `mark` (default: all), oldest first, without contents. */
  changes(mark?: number): Array<Pick<FileChange, 'seq' | 'stepId' | 'tool' | 'path'>>;
  /** Put back the files changed since `mark`; files changed again since are left alone. */
  undo(mark: number): UndoResult;
  /** End every background process still running (call it when the session ends). */
  dispose(): void;
}

const HANDLERS: Record<string, ToolHandler> = {
  exec: execTool as ToolHandler,
  'plugin.run': pluginRunTool as ToolHandler,
  'config.json_patch': jsonPatchTool as ToolHandler,
  ...SESSION_TOOL_HANDLERS,
};

const MAX_EDITS = 5;

/** L1 rules a session allowance never silences: they are about this exact step, not its kind. */
const NEVER_BY_SESSION = new Set([
  'secret.read', 'git.other_repo', 'wrapper.env_print', 'plugin.interactive',
  'fs.outside_write', 'fs.symlink_escape', 'fs.unread_overwrite', 'fs.stale_overwrite',
]);

export function createDefaultRunnerDeps(now?: () => number): RunnerDeps {
  const execDeps = { ...createDefaultExecDeps(), ...(now ? { now } : {}) };
  return {
    exec: (o) => exec(o, execDeps),
    execInherit: (o) => execInherit(o, execDeps),
    readFileSync: (file) => fs.readFileSync(file, 'utf8'),
    patchFile: (file, ops, options) => require('@holic512/json-patch').patchFile(file, ops, options),
    defaultAllowedRoots: (env) => require('@holic512/json-patch').defaultAllowedRoots(env),
    now: now ?? (() => Date.now()),
    execPath: process.execPath,
    fs: createDefaultFsDeps(),
    resolveHost: createDefaultResolver(),
    proc: createDefaultProcDeps(execDeps),
  };
}

/** A step with its defaults filled in (tool 'exec', args []). Only call on a valid step. */
function normalize(step: Step): Step {
  const s = step as Step & { tool?: string; args?: string[] };
  if (s.tool !== undefined && s.tool !== 'exec' && s.tool !== 'plugin.run' && s.tool !== 'proc.start') return s;
  return { ...s, tool: s.tool ?? 'exec', args: s.args ?? [] } as Step;
}

/**
 * A runner: judges steps with the policy and the session's allowances, asks the user through
 * `confirm`, executes through the tool's handler and returns the DESIGN §4 `tool_result`.
 * Session allowances live on the runner object, nowhere else.
 */
export function createToolRunner(options: ToolRunnerOptions): ToolRunner {
  const deps: RunnerDeps = { ...createDefaultRunnerDeps(options.now), ...options.deps };
  const env = options.env ?? process.env;
  const lang: Lang = options.lang ?? 'zh';
  const policy = normalizePolicy(options.policy);
  const registry: Registry = options.registry && typeof options.registry === 'object' ? options.registry : { plugins: {} };
  const home = env.HOME ?? env.USERPROFILE ?? os.homedir();
  const slothtoolHome = env.SLOTHTOOL_HOME ?? path.join(home, '.slothtool');
  let allowedRoots: string[] | undefined = options.allowedRoots;
  const roots = (): string[] => (allowedRoots ??= deps.defaultAllowedRoots(env));
  const allowances = new Set<string>();
  let counter = 0;
  const workspace = realDir(options.workspace ?? options.cwd);
  const realSlothtoolHome = realDir(slothtoolHome);
  // fs.*, http.get and proc.* share this session state; it lives on the runner, nowhere else.
  const session: ToolSession = {
    workspace,
    home,
    slothtoolHome: realSlothtoolHome,
    resolve: (p) => resolvePath(p, options.cwd, { home, slothtoolHome }),
    reads: new ReadTracker(),
    journal: new FileJournal(),
    procs: new ProcessTable(deps.proc, options.proc),
    fs: deps.fs,
    allowPrivateNetwork: policy.allowPrivateNetwork ?? false,
    http: { timeoutMs: 20000, maxBytes: 2 * 1024 * 1024, maxRedirects: 5, ...options.http, resolve: deps.resolveHost },
  };
  const isFsStep = (step: Step): step is Extract<Step, { tool: 'fs.read' | 'fs.edit' | 'fs.write' }> =>
    step.tool === 'fs.read' || step.tool === 'fs.edit' || step.tool === 'fs.write';
  /** Where an fs step's path really points, and (fs.write) whether the session has read it as it is. */
  const fsJudgement = (step: Step): { fsTarget: ResolvedPath; readState?: 'read' | 'stale' | 'unread' } | undefined => {
    if (!isFsStep(step)) return undefined;
    const fsTarget = session.resolve(step.path);
    if (step.tool !== 'fs.write' || !fsTarget.exists) return { fsTarget };
    return { fsTarget, readState: session.reads.state(fsTarget.real, session.fs.stat(fsTarget.real)) };
  };

  const classifyCtx = (step: Step): ClassifyOptions => {
    const ctx: ClassifyOptions = { cwd: options.cwd, home, lang, slothtoolHome };
    if (step.tool === 'plugin.run') {
      const plugins: NonNullable<ClassifyOptions['plugins']> = Object.create(null);
      for (const alias of Object.keys(registry.plugins ?? {})) {
        const entry = registry.plugins[alias];
        plugins[alias] = { name: entry?.name } as { interactive?: boolean };
      }
      const info = readPluginInfo(registry, step.plugin, deps.readFileSync);
      if (info) plugins[step.plugin] = { name: info.name, interactive: info.interactive } as { interactive?: boolean };
      ctx.plugins = plugins;
    }
    if (step.tool === 'config.json_patch') ctx.allowedRoots = roots();
    const fsj = fsJudgement(step);
    if (fsj || step.tool === 'http.get' || step.tool === 'proc.start') Object.assign(ctx, { workspace, slothtoolHome: realSlothtoolHome }, fsj);
    return ctx;
  };

  const judgeInternal = (step: Step): { decision: Decision; bySession: boolean; alwaysConfirm: boolean; fsTarget?: ResolvedPath } => {
    if (validateStep(step) !== undefined) return { decision: render(classifyFindings(step, policy, { lang }), lang), bySession: false, alwaysConfirm: false };
    const cctx = classifyCtx(step);
    const fsTarget = cctx.fsTarget;
    const found: Finding[] = classifyFindings(step, policy, cctx);
    const handler = HANDLERS[(step as { tool?: string }).tool ?? 'exec'];
    const alwaysConfirm = handler?.alwaysConfirm?.(step, { registry, deps }) ?? false;
    const level = maxLevel(found.map((f) => f.level));
    const key = sessionKey(step);
    const sessionable = !found.some((f) => f.level === 'L1' && NEVER_BY_SESSION.has(f.id));
    if (level === 'L1' && !alwaysConfirm && sessionable && allowances.has(key)) {
      const lowered = found.map((f) => (f.level === 'L1' ? { ...f, level: 'L0' as const } : f));
      return { decision: redactValue(render([...lowered, finding('session.allowed', 'L0', { k: key })], lang)), bySession: true, alwaysConfirm, fsTarget };
    }
    // Reasons quote arguments; they reach the model, so they are redacted like output.
    return { decision: redactValue(render(found, lang)), bySession: false, alwaysConfirm, fsTarget };
  };

  const stopped = (id: string, tool: string, status: 'blocked' | 'declined', decision: ResultDecision, reason?: string): StoppedToolResult => ({
    _event: 'tool_result',
    id,
    tool,
    status,
    ...(reason ? { reason } : {}),
    decision,
  });

  const ask = async (request: ConfirmRequest, signal?: AbortSignal): Promise<ConfirmAnswer> => {
    let answer: unknown;
    try {
      answer = await options.confirm(request);
    } catch (err) {
      return { action: 'decline', reason: `confirm failed: ${err instanceof Error ? err.message : String(err)}` };
    }
    if (signal?.aborted) return { action: 'decline', reason: 'aborted' };
    const a = answer as { action?: unknown; step?: unknown; reason?: unknown } | null;
    if (!a || typeof a !== 'object') return { action: 'decline', reason: 'no answer' };
    if (a.action === 'run' || a.action === 'allow-session') return { action: a.action };
    if (a.action === 'edit' && a.step && typeof a.step === 'object') return { action: 'edit', step: a.step as Step };
    return { action: 'decline', ...(typeof a.reason === 'string' ? { reason: a.reason } : {}) };
  };

  const runner: ToolRunner = {
    judge: (step) => judgeInternal(step).decision,
    get sessionAllowances() {
      return [...allowances];
    },
    mark: () => session.journal.mark(),
    changes: (mark = 0) => session.journal.since(mark).map(({ seq, stepId, tool, path: file }) => ({ seq, stepId, tool, path: file })),
    undo: (mark) => session.journal.undo(mark),
    dispose: () => session.procs.dispose(),
    async run(step, runOptions = {}) {
      const id = runOptions.id ?? `cmd_${String(++counter).padStart(3, '0')}`;
      try {
        // The gate once more over the whole result: whatever a tool forgot does not leave.
        return redactValue(await runSteps(id, step, runOptions));
      } catch (err) {
        // A bug or a throwing dependency must not reject: report it as a result.
        const tool = String((step as { tool?: unknown } | null)?.tool ?? 'exec');
        const rule = { id: 'runner.error', level: 'L2' as const, reason: redact(err instanceof Error ? err.message : String(err)) };
        return stopped(id, tool, 'blocked', { level: 'L2', by: 'policy', rules: [rule] }, rule.reason);
      }
    },
  };

  const runSteps = async (id: string, step: Step, runOptions: RunOptions): Promise<ToolResult> => {
    {
      let current: Step = step;
      for (let edits = 0; ; edits++) {
        const tool = String((current as { tool?: unknown })?.tool ?? 'exec');
        if (validateStep(current) !== undefined) {
          const decision = render(classifyFindings(current, policy, { lang }), lang);
          return stopped(id, tool, 'blocked', { ...decision, by: 'policy' }, decision.rules[0]?.reason);
        }
        const s = normalize(current);
        const handler = HANDLERS[s.tool];
        const { decision, bySession, alwaysConfirm, fsTarget } = judgeInternal(s);
        if (decision.level === 'L2' || !handler) {
          const reason = decision.rules.filter((r) => r.level === 'L2').map((r) => r.reason).join('; ');
          return stopped(id, s.tool, 'blocked', { ...decision, by: 'policy' }, reason || undefined);
        }
        if (runOptions.signal?.aborted) return stopped(id, s.tool, 'declined', { ...decision, by: 'policy' }, 'aborted');
        const mustAsk = decision.level === 'L1' || alwaysConfirm;
        const key = sessionKey(s);
        let answer: ConfirmAnswer | undefined;
        const askUser = async (preview?: string): Promise<boolean> => {
          answer = await ask({ id, step: s, decision, ...(preview !== undefined ? { preview } : {}), sessionKey: key }, runOptions.signal);
          if (answer.action === 'allow-session' && decision.level === 'L1') allowances.add(key);
          return answer.action === 'run' || answer.action === 'allow-session';
        };
        const userDecision: ResultDecision = { ...decision, by: 'user' };
        if (mustAsk && !handler.confirmsInside) {
          const go = await askUser();
          const a = answer as ConfirmAnswer | undefined;
          if (!go && a?.action === 'edit') {
            if (edits + 1 >= MAX_EDITS) return stopped(id, s.tool, 'declined', userDecision, 'too many edits');
            current = a.step;
            continue;
          }
          if (!go) return stopped(id, s.tool, 'declined', userDecision, (a?.action === 'decline' && a.reason) || message('declined.user', lang).reason);
        }
        const ctx: ToolContext = {
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
          decision: mustAsk || bySession ? userDecision : { ...decision, by: 'policy' },
          allowedRoots: s.tool === 'config.json_patch' ? roots() : [],
          ...(mustAsk && handler.confirmsInside ? { ask: askUser } : {}),
          session,
          ...(fsTarget ? { judged: fsTarget } : {}),
        };
        if (mustAsk && handler.confirmsInside) ctx.decision = { ...decision, by: 'policy' };
        const result = await handler.run(s, ctx);
        if (handler.confirmsInside && answer) {
          const a = answer as ConfirmAnswer;
          if (a.action === 'edit') {
            if (edits + 1 >= MAX_EDITS) return stopped(id, s.tool, 'declined', userDecision, 'too many edits');
            current = a.step;
            continue;
          }
          if (a.action === 'decline') return stopped(id, s.tool, 'declined', userDecision, a.reason || message('declined.user', lang).reason);
          return { ...result, decision: userDecision };
        }
        return result;
      }
    }
  };
  return runner;
}
