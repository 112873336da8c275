/**
 * The package's API. What a model reply needs first (the tool registry, the rule parser, the
 * types) loads with the package; the rest (the runner, exec, the sandbox, classification, output
 * parsers) on first use (lazy-modules.ts), so `require('@holic512/tool-runner')` stays small for
 * a turn that only talks.
 */
import {
  classifyModule,
  execModule,
  gitReadModule,
  htmlTextModule,
  netGuardModule,
  parseOutputModule,
  pathCompleteModule,
  redactModule,
  renderVerdictModule,
  runnerModule,
  sandboxModule,
  workspaceModule,
  workspaceSecretsModule,
} from './lazy-modules';

/** Package version, read from package.json at run time so it never drifts. */
export const VERSION: string = require('../package.json').version;

type ExecM = typeof import('./exec');
type ClassifyM = typeof import('./policy/classify');
type SandboxM = typeof import('./sandbox');
type RunnerM = typeof import('./runner');
type WorkspaceM = typeof import('./workspace');

export const exec: ExecM['exec'] = (...a) => execModule().exec(...a);
export const execInherit: ExecM['execInherit'] = (...a) => execModule().execInherit(...a);
export const createDefaultExecDeps: ExecM['createDefaultExecDeps'] = (...a) => execModule().createDefaultExecDeps(...a);
export const prepareSpawnHelper: ExecM['prepareSpawnHelper'] = (...a) => execModule().prepareSpawnHelper(...a);
export { DEFAULT_MAX_OUTPUT_BYTES } from './types';
export type { ExecOptions, ExecResult, ExecDeps, ExecDepsOptions, InheritResult } from './exec';
// Named parameters, not a rest array: classify is called once per judgement (benchmarked at hundreds of thousands a second).
export const classify: ClassifyM['classify'] = (step, policy, ctx) => classifyModule().classify(step, policy, ctx);
export const sessionKey: ClassifyM['sessionKey'] = (...a) => classifyModule().sessionKey(...a);
export const validateStep: ClassifyM['validateStep'] = (...a) => classifyModule().validateStep(...a);
export const verdictOf: ClassifyM['verdictOf'] = (...a) => classifyModule().verdictOf(...a);
export const renderVerdict: typeof import('./render-verdict').renderVerdict = (...a) => renderVerdictModule().renderVerdict(...a);
export type { Verdict, Adjustment } from './policy/decide';
export { tools, getTool, toolJsonSchema, createToolRegistry, builtinRegistry, TOOL_NAME } from './registry';
export { defineTool, type ToolDeclaration } from './registry/define-tool';
export type { ToolRegistryOptions } from './registry';
export { planItemsSchema, planText, MAX_PLAN_ITEMS, MAX_PLAN_STEP_CHARS } from './registry/plan-update';
export type { ToolRegistry } from './registry';
export {
  shellLine,
  shellQuote,
  splitCommandLine,
  claudeToolFields,
  stepFromClaude,
  claudeRuleArgument,
  knownNames,
  toolsNamed,
} from './registry/claude-code';
import { requiresSchema } from './registry/common';
/** The `requires` field of a tool's input (README), built when first read. */
export declare const RequiresSchema: ReturnType<typeof requiresSchema>;
Object.defineProperty(exports, 'RequiresSchema', { enumerable: true, get: requiresSchema });
export type {
  ToolDefinition,
  AnyToolDefinition,
  Assessment,
  AssessContext,
  Touches,
  JudgeEnv,
  StepSummary,
  SummaryField,
  ClaudeCodeForm,
  ClaudeInputContext,
  ToolKind,
} from './registry/types';
export type { Finding, Category } from './policy/finding';
export const createSandbox: SandboxM['createSandbox'] = (...a) => sandboxModule().createSandbox(...a);
export const bwrapArgs: SandboxM['bwrapArgs'] = (...a) => sandboxModule().bwrapArgs(...a);
export const seatbeltProfile: SandboxM['seatbeltProfile'] = (...a) => sandboxModule().seatbeltProfile(...a);
export const sandboxDenial: SandboxM['sandboxDenial'] = (...a) => sandboxModule().sandboxDenial(...a);
export const sandboxSpec: SandboxM['sandboxSpec'] = (...a) => sandboxModule().sandboxSpec(...a);
export const homeBinds: SandboxM['homeBinds'] = (...a) => sandboxModule().homeBinds(...a);
export const limitHit: SandboxM['limitHit'] = (...a) => sandboxModule().limitHit(...a);
export const findProgram: SandboxM['findProgram'] = (...a) => sandboxModule().findProgram(...a);
export const parseInside: SandboxM['parseInside'] = (...a) => sandboxModule().parseInside(...a);
export const hostSeccompFilter: SandboxM['hostSeccompFilter'] = (...a) => sandboxModule().hostSeccompFilter(...a);
/** `.env` files: `secret`, `template` (`.env.example` and the like), or not one (sandbox/workspace-secrets.ts). */
export const envFileClass: typeof import('./sandbox/workspace-secrets').envFileClass = (...a) =>
  workspaceSecretsModule().envFileClass(...a);
export { HOME_SECRET_STORES } from './sandbox/secrets';
export { SECRET_CLASSES } from './sandbox/secrets';
export { DEFAULT_ALLOW_READ } from './sandbox/home-view';
export { DEFAULT_LIMITS } from './sandbox/limits';
export type {
  Sandbox,
  SandboxMode,
  SandboxStatus,
  SandboxSpec,
  SandboxDenial,
  SandboxLimits,
  LimitHit,
  HomeBind,
  SandboxedCommand,
  BwrapHardening,
  Degradation,
  InsideStatus,
} from './sandbox';
export { parseRule, ruleMatches, decideByRules, exactRuleFor, isRuleProblem } from './permission-rules';
export type { PermissionRule, PermissionSubject, PermissionEffect, RuleProblem, ArgKind } from './permission-rules';
export type { ClassifyOptions } from './policy/classify';
export const parseOutput: typeof import('./parse-output').parseOutput = (...a) => parseOutputModule().parseOutput(...a);
export type { Parsed, ParseInput, ParseOptions, SearchMatch, GitStatusEntry, GitLogEntry } from './parse-output';
export const redact: typeof import('./redact').redact = (...a) => redactModule().redact(...a);
export const redactValue: typeof import('./redact').redactValue = (...a) => redactModule().redactValue(...a);
export const createToolRunner: RunnerM['createToolRunner'] = (...a) => runnerModule().createToolRunner(...a);
export const createDefaultRunnerDeps: RunnerM['createDefaultRunnerDeps'] = (...a) => runnerModule().createDefaultRunnerDeps(...a);
export type { ConfirmAnswer, ConfirmRequest, ToolRunner, ToolRunnerOptions, RunOptions } from './runner';
export type {
  ToolResult,
  RunToolResult,
  PatchToolResult,
  StoppedToolResult,
  ResultDecision,
  Registry,
  RunnerDeps,
  ToolContext,
} from './tools/types';
export { MESSAGES, message } from './i18n';
export const findWorkspace: WorkspaceM['findWorkspace'] = (...a) => workspaceModule().findWorkspace(...a);
export const resolvePath: WorkspaceM['resolvePath'] = (...a) => workspaceModule().resolvePath(...a);
export const expandPath: WorkspaceM['expandPath'] = (...a) => workspaceModule().expandPath(...a);
export const isInside: WorkspaceM['isInside'] = (...a) => workspaceModule().isInside(...a);
export type { ResolvedPath } from './workspace';
export type { FileChange, UndoResult } from './file-journal';
export const htmlToText: typeof import('./html-text').htmlToText = (...a) => htmlTextModule().htmlToText(...a);
export const htmlTitle: typeof import('./html-text').htmlTitle = (...a) => htmlTextModule().htmlTitle(...a);
export const addressKind: typeof import('./net-guard').addressKind = (...a) => netGuardModule().addressKind(...a);
export type { Resolver, LookupAddress } from './net-guard';
export const completeWorkspacePath: typeof import('./tools/path-complete').completeWorkspacePath = (...a) =>
  pathCompleteModule().completeWorkspacePath(...a);
export type { PathCompletionOptions } from './tools/path-complete';
export const gitRead: typeof import('./tools/git-read').gitRead = (...a) => gitReadModule().gitRead(...a);
export type { GitReadOptions } from './tools/git-read';
export type { FsReadResult } from './tools/fs-read';
export type { FsChangeResult } from './tools/fs-edit';
export type { FileAccess } from './tools/file-access';
export type { HttpGetResult } from './tools/http-get';
export type { FsGlobResult } from './tools/fs-glob';
export type { FsGrepResult, GrepMatch } from './tools/fs-grep';
export type { WebSearchResult, WebSearchHit, WebSearchSettings } from './tools/web-search';
export type { ProcLimits, ProcDeps, ProcInfo } from './tools/proc';
export type { ProcResult } from './tools/proc-steps';
export type { ToolErrorResult, ToolSession, HttpSettings } from './tools/session';
export type {
  Level,
  Lang,
  Requires,
  PatchOp,
  ExecStep,
  PluginRunStep,
  JsonPatchStep,
  FsReadStep,
  FsEditStep,
  FsWriteStep,
  FsEditOne,
  PlanItem,
  PlanUpdateStep,
  HttpGetStep,
  ProcStartStep,
  ProcStatusStep,
  ProcKillStep,
  ToolStep,
  Step,
  Rule,
  Decision,
  Policy,
  ClassifyContext,
  RunMode,
} from './types';
export { RUN_MODES } from './types';
