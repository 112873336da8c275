import path = require('path');
import { z } from 'zod';
import { finding, type Finding, type JudgeCtx } from '../policy/finding';
import type { PathLinks } from '../policy/links';
import type { ExecStep } from '../types';
import { argList, commandLine, cwdField, presentFields, toolInput, touches } from './common';
import type { AssessContext, Assessment, JudgeEnv, ToolDefinition } from './types';
import { commandFromClaude, given, shellLine } from './claude-code';
import { defineTool } from './define-tool';
import {
  execToolModule,
  gitHardenModule,
  linksModule,
  pathLinksModule,
  pathsModule,
  programsModule,
  socketLinksModule,
  unwrapModule,
  workspaceModule,
  workspaceProgramFactsModule,
  workspaceProgramsModule,
} from '../lazy-modules';

/** Programs whose first operand is a subcommand: the approval key is `program subcommand`. */
const SUBCOMMAND_PROGRAMS = new Set([
  'git',
  'npm',
  'pnpm',
  'yarn',
  'bun',
  'cargo',
  'go',
  'docker',
  'podman',
  'kubectl',
  'gh',
  'make',
  'pip',
  'pip3',
  'brew',
  'deno',
  'dotnet',
  'bundle',
  'mix',
  'poetry',
  'uv',
  'terraform',
  'lerna',
  'nx',
  'turbo',
  'npx',
  'pnpx',
  'bunx',
  'systemctl',
  'gradle',
  'mvn',
  'composer',
  'gem',
  'conda',
  'apt',
  'apt-get',
  'dnf',
  'yum',
]);

const GIT_VALUED_GLOBALS = new Set(['-C', '-c', '--git-dir', '--work-tree', '--namespace', '--config-env', '--attr-source', '--list-cmds']);

/**
 * What 'allow for this session' allows for a command: `program subcommand` for programs with
 * subcommands (`git commit`, `npm test`), otherwise the exact command line. Never wider than
 * what was shown. Words are quoted as shown (`rm 'a b'` is not `rm a b`); the tool puts its
 * own name in front.
 */
export function commandKey(program: string, args: readonly string[]): string {
  if (!SUBCOMMAND_PROGRAMS.has(program)) return commandLine(program, args);
  let i = 0;
  if (program === 'git') {
    while (i < args.length && args[i].startsWith('-')) i += GIT_VALUED_GLOBALS.has(args[i]) ? 2 : 1;
  } else {
    while (i < args.length && args[i].startsWith('-')) i++;
  }
  // Options before the subcommand (`git -C other commit`, `npm --prefix x install`) are part
  // of what was allowed; for programs other than git, whose options may take values we do
  // not know, the whole line is the key then.
  if (i > 0 && program !== 'git') return commandLine(program, args);
  return commandLine(program, args.slice(0, i + 1));
}

/** Editable words of a step that runs a program: the program and its arguments. */
export function programWords<S extends { program: string; args?: string[] }>(): NonNullable<ToolDefinition<S>['words']> {
  return { get: (s) => [s.program, ...(s.args ?? [])], set: (s, words) => ({ ...s, program: words[0] ?? '', args: words.slice(1) }) };
}

/**
 * The command judged again with every word that leads through a link replaced by its real
 * target (only what that adds above L0), the links that leave the workspace, and a step folder
 * that leads out of it.
 */
function judgeLinkTargets(program: string, args: readonly string[], links: PathLinks, jctx: JudgeCtx): Finding[] {
  const { linkedArgs, linkEscapeFindings, cwdEscapeFindings, uncheckedFindings, inTreeFindings } = linksModule();
  const out = [...linkEscapeFindings(links), ...cwdEscapeFindings(program, links), ...uncheckedFindings(links), ...inTreeFindings(links)];
  const real = linkedArgs(args, links);
  if (real)
    out.push(
      ...programsModule()
        .judgeCommand(program, real, jctx)
        .filter((f) => f.level !== 'L0'),
    );
  return out;
}

/** The program a command really runs, wrappers (timeout, env, nice, …) taken off. */
function runsProgram(program: string, args: readonly string[]): string {
  const u = unwrapModule().unwrapCommand(program, args);
  return u.index >= 0 ? args[u.index] : program;
}

/** Live facts for judging a command: where its words and folder lead, and workspace files that name programs. */
export function commandContext(
  program: string,
  args: readonly string[],
  stepCwd: string | null | undefined,
  env: JudgeEnv,
): Partial<AssessContext> {
  const { session } = env;
  const cwd = session.resolve(typeof stepCwd === 'string' && stepCwd ? stepCwd : '.');
  // lstat and readlink answers shared by this judgement's words and trees, never kept past it.
  const pfs = workspaceModule().judgementPathFs();
  const links = pathLinksModule().gatherLinks(args, cwd, session.workspace, pfs);
  // Sockets named in any spelling the rules read, judged by what they are, not their names.
  socketLinksModule().gatherSocketLinks(args, cwd, links, { home: session.home, pfs });
  // A search that follows the links it meets (rg -L, grep -R, find -L), wrapped or not: look for links out of the workspace below it.
  const u = unwrapModule().unwrapCommand(program, args);
  const [prog, progArgs] = u.index >= 0 ? [args[u.index], args.slice(u.index + 1)] : [program, args];
  const roots = linksModule().followedRoots(prog, progArgs);
  if (roots) {
    const inTree = pathLinksModule().escapingLinkInTrees(roots, cwd.real, session.workspace, pfs);
    if (inTree) links.inTree = inTree;
  }
  const workspacePrograms = workspaceProgramFactsModule().gatherWorkspacePrograms(prog, cwd.real, session.workspace);
  return { workspace: session.workspace, slothtoolHome: session.slothtoolHome, links, ...(workspacePrograms ? { workspacePrograms } : {}) };
}

/**
 * Judge a command (exec and proc.start): the program table with its arguments, and a step cwd
 * outside the workspace like `git -C` there.
 */
export function assessCommand(
  program: string,
  args: readonly string[],
  stepCwd: string | null | undefined,
  ctx: AssessContext,
): Assessment {
  const { judgeCommand } = programsModule();
  const { secretFindings } = pathsModule();
  const cwd = typeof stepCwd === 'string' && stepCwd ? path.resolve(ctx.cwd ?? '/', stepCwd) : ctx.cwd;
  const base = ctx.workspace ?? ctx.cwd ?? cwd;
  // Every key present (runCwd even when undefined): the rules' `{ ...ctx, runCwd }` copies then overwrite a key rather than add one.
  const jctx: JudgeCtx = {
    cwd: base,
    runCwd: cwd && cwd !== ctx.cwd ? cwd : undefined,
    home: ctx.home,
    slothtoolHome: ctx.slothtoolHome,
    pathDirs: ctx.pathDirs,
    policy: ctx.policy,
    depth: 0,
  };
  const findings = judgeCommand(program, [...args], jctx);
  if (ctx.links) findings.push(...judgeLinkTargets(program, args, ctx.links, jctx));
  if (ctx.workspacePrograms)
    findings.push(...workspaceProgramsModule().workspaceProgramFindings(runsProgram(program, args), ctx.workspacePrograms));
  if (cwd && cwd !== ctx.cwd) findings.push(...secretFindings([cwd], { home: ctx.home }));
  // A step that runs in another folder is judged like `git -C` there: asked.
  const workspace = ctx.workspace ?? ctx.cwd;
  if (cwd && workspace && cwd !== ctx.cwd) {
    const rel = path.relative(path.resolve(workspace), cwd);
    if (rel.startsWith('..') || path.isAbsolute(rel)) findings.push(finding('cwd.outside', 'L1', { p: program, d: cwd }));
  }
  // Said with the step: what of the repository's own configuration will not run (tools/git-harden.ts).
  if (program === 'git' || program.endsWith('/git') || gitHardenModule().wrappedGitIndex(program, args) >= 0)
    findings.push(finding('git.hardened', 'L0'));
  const network = findings.some((f) => f.cat?.includes('network')) ? ['*'] : [];
  const write = findings.some((f) => f.cat?.includes('write')) ? [cwd ?? '.'] : [];
  return { findings, touches: touches({ exec: [program], network, write, read: cwd ? [cwd] : [] }) };
}

const input = () =>
  toolInput({
    program: z.string().min(1),
    args: argList(),
    cwd: cwdField(),
    /** Time limit of this step in ms (at most ten times the runner's default). */
    timeoutMs: z.number().int().positive().optional(),
  });

/** An exec step's fields as its schema gives them: the one definition of ExecStep (types.ts). */
export type ExecInput = z.output<ReturnType<typeof input>>;

export const execTool = defineTool<ExecStep>({
  name: 'exec',
  kind: 'execute',
  description: {
    en: 'Run one program with an argument vector (no shell: no pipes, redirects, globs or $VAR) and get its exit code and output tail.',
    zh: '以参数数组运行一个程序（不经过 shell：没有管道、重定向、通配符或 $VAR），返回退出码和输出末尾。',
  },
  input,
  example: { program: 'git', args: ['status'], requires: { confirm: false, elevated: false, network: false, write: false } },
  takesCwd: true,
  sandboxed: true,
  words: programWords<ExecStep>(),
  permission: { arg: 'words', subject: (s) => ({ kind: 'command', words: [s.program, ...(s.args ?? [])] }) },
  judgeContext: (s, env) => commandContext(s.program, s.args ?? [], s.cwd, env),
  assess: (s, ctx) => assessCommand(s.program, s.args ?? [], s.cwd, ctx),
  approvalKey: (s) => `exec ${commandKey(s.program, s.args ?? [])}`,
  digest: (s) => commandLine(s.program, s.args ?? []),
  summary: (s) => ({ title: commandLine(s.program, s.args ?? []), fields: presentFields({ cwd: s.cwd, timeoutMs: s.timeoutMs }) }),
  execute: (s, ctx) => execToolModule().runExec(s, ctx),
  claude: {
    names: ['Bash'],
    input: (s) => given({ command: shellLine(s.program, s.args ?? []), timeout: s.timeoutMs }),
    fromInput: (c) => commandFromClaude(c, false),
    response: (_s, r) => ({
      stdout: r.stdoutTail ?? '',
      stderr: r.stderrTail ?? '',
      interrupted: r.timedOut === true || r.aborted === true,
      isImage: false,
    }),
  },
});
