/** Package version, read from package.json at run time so it never drifts. */
export const VERSION: string = require('../package.json').version;

export { exec, createDefaultExecDeps, DEFAULT_MAX_OUTPUT_BYTES } from './exec';
export type { ExecOptions, ExecResult, ExecDeps } from './exec';
export { classify, sessionKey, validateStep } from './policy/classify';
export type { ClassifyOptions } from './policy/classify';
export { MESSAGES, message } from './i18n';
export type {
  Level,
  Lang,
  Requires,
  PatchOp,
  ExecStep,
  PluginRunStep,
  JsonPatchStep,
  Step,
  Rule,
  Decision,
  Policy,
  ClassifyContext,
} from './types';
