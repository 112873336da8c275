/** Public API of @holic512/plugin-ai: the core the interactive UI and scripts build on. */
export { VERSION } from './version';
export { Agent } from './agent/agent';
export type { AgentConfirmAnswer, AgentConfirmFn, AgentDeps, AgentOptions, SendOptions } from './agent/agent';
export type { AgentEvent, AgentListener, TurnOutcome, TurnResult, UsageTotals } from './agent/events';
export { createAppAgent, loadToolRunner, policyOf } from './cli/app';
export type { AppAgent, AppAgentOptions } from './cli/app';
export { defaultConfig, loadConfig, validateConfig } from './config/config';
export { AiConfigSchema, ContextBudgetsSchema } from './config/config-schema';
export type { AiConfig, ContextBudgets } from './config/config';
export { ConversationContext } from './context/context';
export type { ChatMessage, ContextSizes, WindowMessage } from './context/context';
export { AiError, aiError } from './errors';
export type { AiErrorCode } from './errors';
export { EXIT, exitCodeOf, exitCodeOfError } from './cli/exit-codes';
export { aiPaths, readLanguage, slothtoolHome } from './home';
export type { AiPaths } from './home';
export { t } from './i18n';
export type { Lang, MessageKey } from './i18n';
export { createLlmClient, findLlmBaseEntry, loadLlmBase } from './config/llm-base';
export type { LlmCallOptions, LlmClient, LlmResult, LlmWait, Usage } from './config/llm-base';
export { buildSystemPrompt, protocolText, SUMMARY_MARKER } from './context/prompt';
export { parseReply } from './context/protocol';
import { replySchema, stepSchema, summarySchema } from './context/protocol';
/** The reply, step and summary schemas (built when this module is loaded; the CLI builds them on first use). */
export const ReplySchema = replySchema();
export const StepSchema = stepSchema();
export const SummarySchema = summarySchema();
export { describeStep } from './agent/step-label';
export type { Reply, Step, Summary } from './context/protocol';
export { readRegistry } from './config/registry';
export type { Registry } from './config/registry';
export { renderProgress } from './cli/render';
export type {
  ConfirmAnswer,
  ConfirmFn,
  ConfirmRequest,
  Decision,
  Level,
  Rule,
  StepRunner,
  ToolResult,
  Verdict,
} from './agent/runner-types';
export { SessionStore } from './sessions/sessions';
export type { SessionInfo, SessionRecord } from './sessions/sessions';
export { estimateTokens } from './context/tokens';
export { MessageStreamDecoder } from './context/stream-message';
