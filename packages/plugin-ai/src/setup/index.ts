/** The guided first-run setup of `ai` (issue #11). */
export { needsSetup, type NeedsSetupOptions, type NeedsSetupResult, type SetupReason } from './needs';
export { runSetup, type RunSetupOptions, type SetupResult, type SetupStatus } from './flow';
export { setupHint } from './hint';
export { createPromptsUi, type SetupUi, type Choice } from './ui';
export { DEFAULT_PROBE_TARGETS, probeLocalServers, probeTargetsFromEnv, type FoundServer, type ProbeTarget } from './probe';
export { resolveHostCommand, installCommandText, llmBaseSpec, type HostCommand } from './host';
