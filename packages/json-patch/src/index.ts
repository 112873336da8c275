/** Package version, read from package.json at run time so it never drifts. */
export const VERSION: string = require('../package.json').version;

export { describeError, JsonPatchError } from './errors';
export type { JsonPatchErrorCode, JsonPatchErrorOptions } from './errors';
export type { JsonValue } from './json-value';
export { PATCH_OP_NAMES, parseOps } from './ops';
export type { AddOp, CopyOp, MoveOp, PatchOp, RemoveOp, ReplaceOp, SetOp, TestOp, UnsetOp } from './ops';
export { formatPointer, parsePointer } from './pointer';
export { applyPatch } from './apply-patch';
export { MASK, isSecretKey, maskValue } from './mask';
export { diffJson, planPatch, summarizeChanges } from './plan-patch';
export type { Lang } from './i18n';
export type { PatchChange, PatchPlan, SummaryOptions } from './plan-patch';
export { defaultAllowedRoots, expandPath, slothtoolHome } from './home';
export { resolveAllowedFile, resolveRealPath } from './allowed-roots';
export type { ResolveOptions } from './allowed-roots';
export { DEFAULT_KEEP_BACKUPS, listBackups } from './backups';
export type { BackupInfo, BackupOptions } from './backups';
export { DEFAULT_JSON_FORMAT, detectJsonFormat, formatJson } from './json-format';
export type { JsonFormat } from './json-format';
export { patchFile, rollbackFile } from './patch-file';
export type { FilePatchPlan, PatchFileOptions, PatchFileResult, RollbackOptions, RollbackResult } from './patch-file';
