export { createTempHome, packageDir, processAlive, processesIn, removeWhenQuiet } from './temp-home';
export type { TempHome, TempHomeOptions } from './temp-home';
export { startScriptedServer, errorBody } from './openai-server';
export type {
  ScriptedServer,
  ScriptedServerOptions,
  ScriptedReply,
  ScriptedContentReply,
  ScriptedJsonReply,
  ScriptedErrorReply,
  ScriptedDropReply,
  ScriptedUsage,
  PromptCacheStyle,
  ScriptedHandler,
  RecordedRequest,
} from './openai-server';
export { startScriptedOllama } from './ollama-server';
export type {
  ScriptedOllama,
  ScriptedOllamaModel,
  ScriptedOllamaOptions,
  ScriptedOllamaReply,
  ScriptedOllamaHandler,
} from './ollama-server';
export { createTestMcpServer, startTestMcpHttpServer, testMcpStdioCommand } from './mcp-server';
export type { TestMcpOptions, TestMcpHttpServer } from './mcp-server';
export { SECRET_CORPUS, FRAMED_CORPUS, CLEAN_CORPUS, fakeToken, leakForms, findLeak } from './secret-corpus';
export type { SecretSample } from './secret-corpus';
export { TOOL_FRAMES } from './tool-frames';
export { until } from './until';
export { eachReturns, eachUnchanged, pathProbe, type PathKinds } from './table';
export { llmBaseConfig, llmProfile, type LlmProfile } from './llm-profile';
export { registryEntry, type RegistryEntry } from './registry-entry';
export { fastestInTurns } from './timing';
export { TEST_TLS } from './tls';
export { closedPort, startTcpListener } from './ports';
export type { TcpListener } from './ports';
export { createAiFixture, useAiFixture, useFixture } from './ai-fixture';
export type { AiFixture, AiFixtureOptions, FixtureScope } from './ai-fixture';
export { startPty } from './pty';
export type { PtyOptions, PtyTerminal } from './pty';
export { runProcess } from './run';
export { comparePrefix, markerCounts, prefixStats } from './prefix-stats';
export type { PrefixStats, RequestPrefix, WireMessage } from './prefix-stats';
export type { RunResult } from './run';
export { BUILTIN_TOOL_NAMES } from './builtin-tools';
export { writeFiles } from './files';
