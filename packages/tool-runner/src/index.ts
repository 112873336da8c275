/** Package version, read from package.json at run time so it never drifts. */
export const VERSION: string = require('../package.json').version;

export { exec, createDefaultExecDeps, DEFAULT_MAX_OUTPUT_BYTES } from './exec';
export type { ExecOptions, ExecResult, ExecDeps } from './exec';
