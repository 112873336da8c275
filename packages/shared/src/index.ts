/** Package version, read from package.json at run time so it never drifts. */
export const VERSION: string = require('../package.json').version;

export { slothtoolHome, userHome } from './home';
export { localeLanguage, readLanguage, settingsLanguage } from './language';
export type { Lang } from './language';
export { isEpipe, onClosedPipe } from './epipe';
export { appendPrivate, ensurePrivateDir } from './private-files';
export { jsonLimitProblem } from './json-limits';
export { asObject, parseJsonObject } from './json-object';
export type { JsonLimits } from './json-limits';
export {
  redact,
  redactCounted,
  redactValue,
  redactedJson,
  redactArgs,
  addKnownSecrets,
  addEnvSecrets,
  knownSecretCount,
  knownSecretsDropped,
  secretPrefix,
  learnSecretsOf,
  maskSecret,
} from './redact/gate';
export { isSecretName, looksLikeCode } from './redact/names';
export { envSecretValues, secretForms, MIN_KNOWN_LENGTH, MAX_GIVEN_CHARS } from './redact/known';
export type { KnownSecretsAdded } from './redact/known';
export { mask as maskSecretText } from './redact/patterns';
export type { Work as RedactionWork } from './redact/work';
export { readCheckedFile, writeFileAtomicSync } from './atomic-write';
export { catalogueProblems, defineMessages, defineRecordMessages, fill, placeholders, tablesFromRecords } from './messages';
export type { Catalogue, MessageTables, RuleMessage, RuleMessages, Vars } from './messages';
export { holdFolder, pathOfFd } from './fd-paths';
export type { HeldFolder } from './fd-paths';
export { closest, commandFor, didYouMean, editDistance, usageMessage, USAGE_EXIT_CODE, USAGE_TABLES } from './usage';
export type { DoctorCheck, DoctorReport, TokenUsage } from './llm-base-contract';
