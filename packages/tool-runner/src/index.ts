/** Package version, read from package.json at run time so it never drifts. */
export const VERSION: string = require('../package.json').version;

export { exec, execInherit, createDefaultExecDeps, DEFAULT_MAX_OUTPUT_BYTES } from './exec';
export type { ExecOptions, ExecResult, ExecDeps, InheritResult } from './exec';
export { classify, sessionKey, validateStep } from './policy/classify';
export { tools, getTool, toolJsonSchema, createToolRegistry, builtinRegistry, TOOL_NAME } from './registry';
export type { ToolRegistry } from './registry';
export { RequiresSchema } from './registry/common';
export type { ToolDefinition, AnyToolDefinition, Assessment, AssessContext, Touches, JudgeEnv } from './registry/types';
export type { Finding, Category } from './policy/finding';
export { createSandbox, bwrapArgs, seatbeltProfile, sandboxDenial, sandboxSpec, HOME_SECRET_STORES } from './sandbox';
export type { Sandbox, SandboxMode, SandboxStatus, SandboxSpec, SandboxDenial } from './sandbox';
export { parseRule, ruleMatches, decideByRules, exactRuleFor, isRuleProblem } from './permission-rules';
export type { PermissionRule, PermissionSubject, PermissionEffect, RuleProblem, ArgKind } from './permission-rules';
export type { ClassifyOptions } from './policy/classify';
export { parseOutput } from './parse-output';
export type { Parsed, ParseInput, ParseOptions, SearchMatch, GitStatusEntry, GitLogEntry } from './parse-output';
export { redact, redactValue } from './redact';
export { createToolRunner, createDefaultRunnerDeps } from './runner';
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
export { findWorkspace, resolvePath, expandPath, isInside } from './workspace';
export type { ResolvedPath } from './workspace';
export type { FileChange, UndoResult } from './file-journal';
export { htmlToText, htmlTitle } from './html-text';
export { addressKind } from './net-guard';
export type { Resolver, LookupAddress } from './net-guard';
export type { FsReadResult } from './tools/fs-read';
export type { FsChangeResult } from './tools/fs-edit';
export type { HttpGetResult } from './tools/http-get';
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
