/**
 * MCP tools in the tool registry. Each tool of a connected server is a ToolDefinition named
 * `mcp.<server>.<tool>` whose step is `{"tool":"mcp.<server>.<tool>","arguments":{…}}`, judged
 * and run by tool-runner like any other step:
 * - L1 (ask) by default: what a tool does is up to its server;
 * - L0 only when the user marked the server `trusted` in ai.json and the server marks the tool
 *   read-only (and not destructive); a project's `.mcp.json` can never mark itself trusted;
 * - permission rules (`mcp.github.*`) apply as to every tool, and never let an L2 step run.
 * The prompt lists servers and tool names only; `mcp.describe` (L0) brings one tool's
 * description and argument schema into the context when the model needs it.
 */
import { z } from 'zod';
import type { AnyToolDefinition, StepSummary } from '@holic512/tool-runner';
import type { McpManager, McpServerState, McpToolInfo } from './manager';

/** The registry name of an MCP tool; undefined when the tool's name cannot be one. */
export function mcpToolName(server: string, tool: string): string | undefined {
  return /^[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)*$/.test(tool) ? `mcp.${server}.${tool}` : undefined;
}

/** Claude Code's name of an MCP tool (`mcp__<server>__<tool>`; it writes every character other than letters, digits, `_` and `-` as `_`). */
export function mcpClaudeName(server: string, tool: string): string {
  const safe = (part: string) => part.replace(/[^A-Za-z0-9_-]/g, '_');
  return `mcp__${safe(server)}__${safe(tool)}`;
}

/**
 * A Claude Code permission rule naming MCP tools as ours: `mcp__srv__tool` is `mcp.srv.tool`,
 * `mcp__srv` and `mcp__srv__*` every tool of the server (`mcp.srv.*`). Undefined when the rule names
 * no MCP tool. Read before the servers connect, so from the name's syntax.
 */
export function mcpRuleFromClaude(rule: string): string | undefined {
  const m = /^mcp__([A-Za-z0-9_-]+?)(?:__(.+))?$/.exec(rule.trim());
  if (!m) return undefined;
  return `mcp.${m[1]}.${m[2] && m[2] !== '*' ? m[2] : '*'}`;
}

const ArgumentsInput = z.object({
  /** The tool's arguments, as its JSON Schema says (`mcp.describe` shows it). */
  arguments: z.record(z.string(), z.unknown()).default({}),
  requires: z.object({ confirm: z.boolean().optional() }).optional(),
});
type CallInput = z.infer<typeof ArgumentsInput>;

const NO_TOUCH = { read: [], write: [], network: [], exec: [] };
/** At most this much of a schema goes to the model. */
const MAX_SCHEMA_CHARS = 12_000;

/** The server's own hints about a tool (MCP annotations), only those it gave as booleans. */
export function mcpHints(annotations: McpToolInfo['annotations']): NonNullable<StepSummary['hints']> {
  const hints: NonNullable<StepSummary['hints']> = {};
  const take = (key: keyof typeof hints, value: unknown) => {
    if (typeof value === 'boolean') hints[key] = value;
  };
  take('readOnly', annotations.readOnlyHint);
  take('destructive', annotations.destructiveHint);
  take('idempotent', annotations.idempotentHint);
  take('openWorld', annotations.openWorldHint);
  return hints;
}

function preview(args: Record<string, unknown>): string {
  const text = JSON.stringify(args);
  return text.length > 160 ? `${text.slice(0, 157)}…` : text;
}

/**
 * The step of one MCP tool. Its annotations and the user's trust in the server are read when a
 * step is judged, so a restarted server's new tool list counts.
 */
export function mcpToolDefinition(manager: McpManager, info: McpToolInfo, host?: string): AnyToolDefinition | undefined {
  const name = mcpToolName(info.server, info.name);
  if (!name) return undefined;
  const params = { s: info.server, t: info.name };
  const summary = (info.description.split('\n')[0] || info.name).slice(0, 200);
  const def = {
    name,
    // How an editor shows the step (ACP): a read when the server says so, else unknown.
    kind: info.annotations.readOnlyHint === true ? ('read' as const) : ('other' as const),
    description: { en: summary, zh: summary },
    input: ArgumentsInput,
    example: { arguments: {} },
    /** With native tool calls the model gets the server's own schema; its arguments become `arguments`. */
    nativeParameters: info.inputSchema,
    // Rules name the tool (`mcp.github.create_issue`, `mcp.github.*`): its arguments are the server's business.
    permission: { arg: 'name' as const, subject: () => ({ kind: 'none' as const }) },
    assess: (_s: CallInput) => {
      const now = manager.tool(info.server, info.name);
      const hints = now?.info.annotations ?? {};
      const readOnly = hints.readOnlyHint === true && hints.destructiveHint !== true;
      const findings = manager.isOff(info.server)
        ? [{ id: 'mcp.off', level: 'L2' as const, params }]
        : now?.trusted && readOnly
          ? [{ id: 'mcp.read_only', level: 'L0' as const, params }]
          : [
              { id: 'mcp.call', level: 'L1' as const, params },
              ...(hints.destructiveHint === true ? [{ id: 'mcp.destructive', level: 'L1' as const, params }] : []),
            ];
      return { findings, touches: { ...NO_TOUCH, network: host ? [host] : [] } };
    },
    approvalKey: () => name,
    digest: (s: CallInput) => `${name} ${preview(s.arguments)}`,
    // The question shows the server, the tool, every argument and what the server says of it
    // (its annotations as it lists them now): the name alone says nothing of what will happen.
    summary: (s: CallInput): StepSummary => ({
      title: name,
      origin: { server: info.server, tool: info.name },
      fields: Object.entries(s.arguments).map(([field, value]) => ({ name: field, value })),
      hints: mcpHints(manager.tool(info.server, info.name)?.info.annotations ?? info.annotations),
    }),
    execute: async (s: CallInput, ctx: { id: string; decision: unknown; signal?: AbortSignal }) => {
      const out = await manager.call(info.server, info.name, s.arguments, ctx.signal);
      return {
        _event: 'tool_result',
        id: ctx.id,
        tool: name,
        decision: ctx.decision,
        ...(out.isError ? { status: 'error', error: { code: 'MCP_TOOL_ERROR', message: out.text.slice(0, 2000) } } : { content: out.text }),
        ...(out.truncated ? { truncated: true } : {}),
        ...(out.described ? { described: out.described } : {}),
      };
    },
    // Claude Code hands an MCP tool's hooks its arguments as they are, and its result's content blocks.
    claude: {
      names: [mcpClaudeName(info.server, info.name)],
      input: (s: CallInput) => s.arguments,
      fromInput: (c: Record<string, unknown>) => ({ arguments: c }),
      response: (_s: CallInput, r: Record<string, unknown>) => [{ type: 'text', text: String(r.content ?? '') }],
    },
  };
  return def as unknown as AnyToolDefinition;
}

/** `mcp.describe {name}`: a tool's description and argument schema, or a server's tool list. */
export function mcpDescribeTool(manager: McpManager): AnyToolDefinition {
  const input = z.object({ name: z.string().min(1) });
  type In = z.infer<typeof input>;
  const find = (wanted: string): { tool?: McpToolInfo; server?: McpServerState } => {
    const bare = wanted.replace(/^mcp\./, '');
    for (const state of manager.states()) {
      if (bare === state.name) return { server: state };
      const tool = state.tools.find((t) => `${state.name}.${t.name}` === bare);
      if (tool) return { tool, server: state };
    }
    return {};
  };
  const def = {
    name: 'mcp.describe',
    kind: 'read' as const,
    description: {
      en: 'Show an MCP tool\'s description and argument schema ("mcp.<server>.<tool>"), or a server\'s tools ("<server>").',
      zh: '显示 MCP 工具的说明与参数结构("mcp.<服务器>.<工具>"),或某个服务器的全部工具("<服务器>")。',
    },
    input,
    example: { name: 'mcp.<server>.<tool>' },
    permission: { arg: 'name' as const, subject: (s: In) => ({ kind: 'name' as const, name: s.name }) },
    assess: (s: In) => ({ findings: [{ id: 'mcp.describe', level: 'L0' as const, params: { t: s.name } }], touches: NO_TOUCH }),
    approvalKey: (s: In) => `mcp.describe ${s.name}`,
    digest: (s: In) => `describe ${s.name}`,
    execute: async (s: In, ctx: { id: string; decision: unknown }) => {
      const base = { _event: 'tool_result', id: ctx.id, tool: 'mcp.describe', decision: ctx.decision };
      const { tool, server } = find(s.name);
      if (tool) {
        let schema = JSON.stringify(tool.inputSchema);
        if (schema.length > MAX_SCHEMA_CHARS) schema = `${schema.slice(0, MAX_SCHEMA_CHARS)}…`;
        const call = `{"tool":"${mcpToolName(tool.server, tool.name) ?? ''}","arguments":{…}}`;
        return {
          ...base,
          name: `mcp.${tool.server}.${tool.name}`,
          content: `${tool.description}\n\nCall: ${call}\nArguments (JSON Schema): ${schema}`,
        };
      }
      if (server) {
        const lines = server.tools.map((t) => `- mcp.${server.name}.${t.name}: ${(t.description.split('\n')[0] ?? '').slice(0, 160)}`);
        return { ...base, name: server.name, content: lines.join('\n') || `(server ${server.name} is ${server.status}, no tools)` };
      }
      const known = manager.states().map((st) => st.name);
      return {
        ...base,
        status: 'error',
        error: { code: 'UNKNOWN_MCP_TOOL', message: `no MCP tool or server "${s.name}" (servers: ${known.join(', ') || 'none'})` },
      };
    },
  };
  return def as unknown as AnyToolDefinition;
}

/**
 * The MCP part of the system prompt: one line per connected server with its tool names (no
 * descriptions, no schemas: a server with 50 tools costs a few hundred tokens). Byte-identical
 * while the servers and their tool lists stay the same.
 */
export function mcpPromptSection(states: readonly McpServerState[]): string {
  const connected = states.filter((s) => s.status === 'connected' && s.tools.length);
  if (!connected.length) return '';
  const lines = connected.map((s) => {
    const names = s.tools.map((t) => t.name).filter((n) => mcpToolName(s.name, n));
    return `- ${s.name}: ${names.join(', ')}`;
  });
  return [
    'MCP tools (servers the user configured). Call one as a step {"tool":"mcp.<server>.<tool>","arguments":{...}}; first get its description and argument schema with {"tool":"mcp.describe","name":"mcp.<server>.<tool>"} unless you already have it. Servers and their tools:',
    ...lines,
  ].join('\n');
}
