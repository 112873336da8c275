/**
 * The modules a path loads only when it needs them, each behind a named getter (loaded on first
 * call, then kept). Everything else imports at the top of its file.
 *
 * Why each is here: a turn that only talks must not load a package from node_modules beside the
 * bundles (test/bundle-bin.test.ts holds this) nor start a process (child_process), and
 * `ai --version`, `ai --help` and the first prompt of `ai -i` must not wait for what only a later
 * step, command or mode uses. The groups below are those boundaries.
 */
import { lazy } from '@holic512/shared/lib/lazy';

type Module<T> = () => T;

// ── The modes of `ai` (cli.ts picks one; --version and --help load none) ──
export const oneShotMode: Module<typeof import('./cli/oneshot')> = lazy(() => require('./cli/oneshot'));
export const interactiveMode: Module<typeof import('./interactive')> = lazy(() => require('./interactive'));
export const acpMode: Module<typeof import('./acp/server')> = lazy(() => require('./acp/server'));
export const riskCommand: Module<typeof import('./cli/risk-command')> = lazy(() => require('./cli/risk-command'));
export const sandboxCommand: Module<typeof import('./cli/sandbox-command')> = lazy(() => require('./cli/sandbox-command'));
export const streamJsonMode: Module<typeof import('./cli/stream-json')> = lazy(() => require('./cli/stream-json'));
export const mcpCommand: Module<typeof import('./mcp/command')> = lazy(() => require('./mcp/command'));
/** zod, configured by cli.ts before any mode builds a schema. */
export const zodModule: Module<typeof import('zod')> = lazy(() => require('zod'));
/** How llm-base is found and loaded (cli.ts tells it to prefer bundles before a mode starts). */
export const llmBaseLoader: Module<typeof import('./config/llm-base')> = lazy(() => require('./config/llm-base'));
/** This package's package.json, read at run time (outside src/, so never compiled in). */
export const packageJson: Module<{ version: string; dependencies: Record<string, string> }> = lazy(() => require('../package.json'));

// ── Messages of `ai -i` and the guided setup: `-p`, `--help` and `--version` need only ai.json ──
type Records = Record<string, { zh: string; en: string }>;
/** The catalogues i18n.ts reads a key from when ai.json does not hold it. */
export const screenCatalogueFiles: Module<Records[]> = lazy(() => [
  require('./messages/interactive.json') as Records,
  require('./messages/interactive-ext.json') as Records,
  require('./messages/interactive-more.json') as Records,
  require('./messages/interactive-plan.json') as Records,
  require('./messages/setup.json') as Records,
]);

// ── tool-runner: the registry, the judgement and the runner; its index loads its parts on use ──
export const toolRunner: Module<typeof import('@holic512/tool-runner')> = lazy(() => require('@holic512/tool-runner'));

// ── Schemas built on first use (ai.json's: a start without an ai.json builds none) ──
export const configSchemas: Module<typeof import('./config/config-schema')> = lazy(() => require('./config/config-schema'));

// ── Processes: only a step, a hook or the external editor starts one ──
export const childProcess: Module<typeof import('child_process')> = lazy(() => require('child_process'));

// ── Interactive: what `ai -i` loads after its first prompt is drawn ──
/** The agent and everything it drives (llm-base, tool-runner, the session store). */
export const appModule: Module<typeof import('./cli/app')> = lazy(() => require('./cli/app'));
export const trustQuestion: Module<typeof import('./interactive/trust-question')> = lazy(() => require('./interactive/trust-question'));
/** The session store (and with it zod), for /resume and ACP's session list. */
export const sessionsModule: Module<typeof import('./sessions/sessions')> = lazy(() => require('./sessions/sessions'));
/** marked, marked-terminal and picocolors: with the first markdown reply. */
export const markedModule: Module<typeof import('marked')> = lazy(() => require('marked'));
export const markedTerminalModule: Module<{
  markedTerminal: (opts: Record<string, unknown>, highlight?: Record<string, unknown>) => import('marked').MarkedExtension;
}> = lazy(() => require('marked-terminal'));
/** The screen's markdown renderer and colour decision, for a one-shot markdown reply on a terminal. */
export const markdownView: Module<typeof import('./interactive/markdown') & typeof import('./interactive/theme')> = lazy(() => ({
  ...require('./interactive/markdown'),
  ...require('./interactive/theme'),
}));
/** The redaction gate, for a piped line or a question's title (not before the prompt is drawn). */
export const redactionGate: Module<typeof import('@holic512/shared/lib/redact/gate')> = lazy(() =>
  require('@holic512/shared/lib/redact/gate'),
);
export const picocolorsModule: Module<typeof import('picocolors')> = lazy(() => require('picocolors'));

// ── Setup: the first-run questions (prompts) and what they probe ──
export const setupModule: Module<typeof import('./setup')> = lazy(() => require('./setup'));
export const setupHint: Module<typeof import('./setup/hint')> = lazy(() => require('./setup/hint'));
export const promptsModule: Module<typeof import('prompts')> = lazy(() => require('prompts'));

// ── Images: attached pictures (reading, sizing, content parts) ──
export const imagesModule: Module<typeof import('./context/images')> = lazy(() => require('./context/images'));

// ── MCP: servers configured by the user; the SDK loads with the first server ──
export const mcpSession: Module<typeof import('./mcp/session')> = lazy(() => require('./mcp/session'));
export const mcpTools: Module<typeof import('./mcp/tools')> = lazy(() => require('./mcp/tools'));
export const mcpClientSdk: Module<typeof import('@modelcontextprotocol/sdk/client/index.js')> = lazy(() =>
  require('@modelcontextprotocol/sdk/client/index.js'),
);
export const mcpStdioSdk: Module<typeof import('@modelcontextprotocol/sdk/client/stdio.js')> = lazy(() =>
  require('@modelcontextprotocol/sdk/client/stdio.js'),
);
export const mcpSseSdk: Module<typeof import('@modelcontextprotocol/sdk/client/sse.js')> = lazy(() =>
  require('@modelcontextprotocol/sdk/client/sse.js'),
);
export const mcpHttpSdk: Module<typeof import('@modelcontextprotocol/sdk/client/streamableHttp.js')> = lazy(() =>
  require('@modelcontextprotocol/sdk/client/streamableHttp.js'),
);

// ── Telemetry: only when OTEL_EXPORTER_OTLP_ENDPOINT (or the config) asks for traces ──
export const telemetryTracer: Module<typeof import('./telemetry/tracer')> = lazy(() => require('./telemetry/tracer'));
export const telemetryAgentSpans: Module<typeof import('./telemetry/agent-spans')> = lazy(() => require('./telemetry/agent-spans'));
/** The OTLP exporter of one protocol (each pulls its own encoding: JSON or protobuf). */
export const otlpExporter = (protocol: 'http/json' | 'http/protobuf'): OtlpExporterModule =>
  protocol === 'http/json' ? otlpHttp() : otlpProto();
interface OtlpExporterModule {
  OTLPTraceExporter: new (config: {
    url?: string;
    headers?: Record<string, string>;
  }) => import('@opentelemetry/sdk-trace-base').SpanExporter;
}
const otlpHttp: Module<OtlpExporterModule> = lazy(() => require('@opentelemetry/exporter-trace-otlp-http'));
const otlpProto: Module<OtlpExporterModule> = lazy(() => require('@opentelemetry/exporter-trace-otlp-proto'));

// ── Project files a turn reads only when the project has them ──
export const yamlModule: Module<typeof import('yaml')> = lazy(() => require('yaml'));
export const picomatchModule: Module<(glob: string, options?: { dot?: boolean; basename?: boolean }) => (path: string) => boolean> = lazy(
  () => require('picomatch'),
);

// ── ACP (`ai --acp`): an ES module, loaded by that mode alone ──
export const acpSdk: Module<typeof import('@agentclientprotocol/sdk')> = lazy(() => require('@agentclientprotocol/sdk'));
