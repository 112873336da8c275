import fs = require('fs');
import { slothtoolHome as sharedSlothtoolHome, userHome } from '@holic512/shared/lib/home';
import { createDefaultExecDeps, DEFAULT_MAX_OUTPUT_BYTES, discardPreparedSandbox, exec, execInherit } from './exec';
import { redact, redactValue } from './redact';
import { normalizePolicy } from './policy/classify';
import { pathDirsOf } from './policy/runs-later';
import { createToolRegistry, type ToolRegistry } from './registry';
import { invalidVerdict, judgementMemo, judgeValid, permissionRules, type JudgeSetup, type Judgement } from './runner-judge';
import { isRuleProblem, parseRule } from './permission-rules';
import { normaliseAnswer, runStep, stopped, type RunSetup } from './runner-run';
import type { Registry, RunnerDeps } from './tools/types';
import { FileJournal, ReadTracker } from './file-journal';
import { createDefaultResolver } from './net-guard';
import { createDefaultFsDeps } from './tools/fs-common';
import { createDefaultProcDeps, ProcessTable } from './tools/proc';
import type { ToolSession } from './tools/session';
import { realDir, resolvePath } from './workspace';
import type { RuleProblem } from './permission-rules';
import { createSandbox, type Sandbox } from './sandbox';
import { sandboxFindings } from './sandbox/notes';
import { namesThisMachine } from './sandbox/net-jail';
import { jsonPatch } from './lazy-modules';
import type { Lang, Policy, Step } from './types';
import type { Verdict } from './policy/decide';
import { renderVerdict } from './render-verdict';
import { message } from './i18n';
import type { ToolRunner, ToolRunnerOptions } from './runner-types';

export type { ConfirmAnswer, ConfirmRequest, RunOptions, ToolRunner, ToolRunnerOptions } from './runner-types';

/**
 * The OS sandbox of one step: read-only by its rules → the read-only, offline sandbox; let
 * through by a setting, an allowance, a rule, a mode or the user → the workspace is writable (and
 * the network, when the step needs it). None when there is no sandbox (refused when it is required).
 */
function stepSandbox(sandbox: Sandbox, judged: Judgement, asked: 'L0' | 'L1', localProxy: boolean): ReturnType<RunSetup['sandbox']> {
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
    // A server keeps the host's network (http.get must reach it), and so does every step when the
    // environment's proxy is on this machine; others granted it are kept off the host's loopback.
    wrap: (program, args, cwd, options) =>
      sandbox.wrap(
        level,
        network,
        cwd,
        program,
        args,
        judged.def.serves === true || localProxy ? { ...options, hostNetwork: true } : options,
      ),
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
  // A proxy on this machine (`http_proxy=http://127.0.0.1:3128`): steps reach the network through it, so they keep the host's.
  const localProxy = Object.entries(env).some(
    ([k, v]) => /^(https?|all|ftp)_proxy$/i.test(k) && v !== undefined && namesThisMachine('', [v]),
  );
  return {
    judge,
    ask: (request, signal) => normaliseAnswer(options.confirm, request, signal),
    allow: (key) => void allowances.add(key),
    addRule: (text) => {
      const parsed = parseRule(text, 'allow', 'answer', (tool) => tools.get(tool)?.permission.arg ?? 'words');
      if (!isRuleProblem(parsed)) judge.rules.push(parsed);
    },
    sandbox: (judged, asked) => stepSandbox(sandbox, judged, asked, localProxy),
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
    dispose: () => {
      session.procs.dispose();
      discardPreparedSandbox();
    },
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
