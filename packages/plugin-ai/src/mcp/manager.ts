import type { McpServerConfig } from './config';
import { describeToolResult, type McpCallText } from './content';

/** A tool an MCP server offers, as listed by `tools/list`. */
export interface McpToolInfo {
  server: string;
  name: string;
  description: string;
  /** The tool's JSON Schema for its arguments (sent to the model only on demand). */
  inputSchema: Record<string, unknown>;
  annotations: { readOnlyHint?: boolean; destructiveHint?: boolean; idempotentHint?: boolean; openWorldHint?: boolean; title?: string };
}

export type McpStatus = 'disabled' | 'starting' | 'connected' | 'failed' | 'closed';

/** What `/mcp` and `ai mcp list` show about one server. */
export interface McpServerState {
  name: string;
  source: string;
  transport: 'stdio' | 'http';
  status: McpStatus;
  trusted: boolean;
  tools: McpToolInfo[];
  /** Why it failed (or the last call error), one line. */
  error?: string;
  /** The last lines the server wrote to stderr (stdio servers), for a failure message. */
  stderrTail?: string;
}

export interface McpManagerOptions {
  /** Working folder of stdio servers without a `cwd`. */
  cwd: string;
  /** Connect + list time limit per server; default 30 s. */
  connectTimeoutMs?: number;
  /** Characters of a tool result kept for the model; default 16000. */
  maxResultChars?: number;
  /** Client name and version sent at initialisation. */
  clientInfo?: { name: string; version: string };
}

type Client = import('@modelcontextprotocol/sdk/client/index.js').Client;

interface Live {
  config: McpServerConfig;
  state: McpServerState;
  client?: Client;
  ready: Promise<void>;
}

const STDERR_TAIL = 2000;

function oneLine(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err);
  return text.replace(/\s+/g, ' ').trim().slice(0, 300);
}

/**
 * The MCP servers of a session. `start()` connects every enabled server in the background and
 * never waits or throws: a slow or broken server never delays the prompt; its state says what
 * happened. Tools of connected servers are listed by `tools()`; `call()` runs one.
 */
export class McpManager {
  private readonly live = new Map<string, Live>();

  constructor(
    configs: readonly McpServerConfig[],
    private readonly options: McpManagerOptions,
  ) {
    for (const config of configs) {
      const state: McpServerState = {
        name: config.name,
        source: config.source,
        transport: config.transport,
        status: config.disabled ? 'disabled' : 'closed',
        trusted: config.trusted === true,
        tools: [],
      };
      this.live.set(config.name, { config, state, ready: Promise.resolve() });
    }
  }

  /** Connect every enabled server in the background (idempotent for servers already started). */
  start(): void {
    for (const live of this.live.values()) if (live.state.status === 'closed') this.connect(live);
  }

  /** Every server's state, in configuration order. */
  states(): McpServerState[] {
    return [...this.live.values()].map((l) => ({ ...l.state, tools: [...l.state.tools] }));
  }

  /** Tools of the connected servers. */
  tools(): McpToolInfo[] {
    return [...this.live.values()].flatMap((l) => (l.state.status === 'connected' ? l.state.tools : []));
  }

  /** Servers the user turned off for this session (`/mcp disable`): out of the prompt, calls refused. */
  private readonly off = new Set<string>();

  /** Turn a server's tools off or on for this session; false when there is no such server. */
  setEnabled(name: string, on: boolean): boolean {
    if (!this.live.has(name)) return false;
    if (on) this.off.delete(name);
    else this.off.add(name);
    return true;
  }

  isOff(name: string): boolean {
    return this.off.has(name);
  }

  /** One tool of a connected server as listed now, and whether the user trusts its server. */
  tool(server: string, name: string): { info: McpToolInfo; trusted: boolean } | undefined {
    const live = this.live.get(server);
    const info = live?.state.status === 'connected' ? live.state.tools.find((t) => t.name === name) : undefined;
    return info && live ? { info, trusted: live.state.trusted } : undefined;
  }

  /** Resolves when the server's current start has finished (connected or failed). */
  async ready(name: string): Promise<McpServerState | undefined> {
    const live = this.live.get(name);
    if (!live) return undefined;
    await live.ready;
    return { ...live.state };
  }

  /** Close a server and start it again (`/mcp restart <name>`). */
  async restart(name: string): Promise<McpServerState | undefined> {
    const live = this.live.get(name);
    if (!live) return undefined;
    await this.closeOne(live);
    live.state.status = 'closed';
    this.connect(live);
    return this.ready(name);
  }

  /** Run a tool. Never throws: failures come back as `isError` text. */
  async call(server: string, tool: string, args: Record<string, unknown>, signal?: AbortSignal): Promise<McpCallText> {
    const live = this.live.get(server);
    const max = this.options.maxResultChars ?? 16000;
    const fail = (why: string): McpCallText => ({ text: why, isError: true, truncated: false, described: 0 });
    if (!live) return fail(`no MCP server named "${server}"`);
    if (this.off.has(server)) return fail(`MCP server "${server}" is turned off for this session (/mcp enable ${server})`);
    if (live.state.status === 'starting') await live.ready;
    if (live.state.status !== 'connected' || !live.client)
      return fail(`MCP server "${server}" is ${live.state.status}${live.state.error ? `: ${live.state.error}` : ''}`);
    try {
      const result = await live.client.callTool({ name: tool, arguments: args }, undefined, {
        signal,
        timeout: live.config.timeoutMs ?? 120_000,
      });
      return describeToolResult(result, max);
    } catch (err) {
      live.state.error = oneLine(err);
      return fail(`MCP tool ${server}.${tool} failed: ${live.state.error}`);
    }
  }

  /** Close every server (stdio servers' processes end). */
  async close(): Promise<void> {
    await Promise.all([...this.live.values()].map((l) => this.closeOne(l)));
  }

  private async closeOne(live: Live): Promise<void> {
    const client = live.client;
    live.client = undefined;
    if (live.state.status !== 'disabled') live.state.status = 'closed';
    if (client) await client.close().catch(() => undefined);
  }

  private connect(live: Live): void {
    live.state.status = 'starting';
    live.state.error = undefined;
    live.state.tools = [];
    live.ready = this.open(live).then(
      (tools) => {
        live.state.tools = tools;
        live.state.status = 'connected';
      },
      (err: unknown) => {
        live.state.status = 'failed';
        live.state.error = oneLine(err);
        const client = live.client;
        live.client = undefined;
        if (client) void client.close().catch(() => undefined);
      },
    );
  }

  private async open(live: Live): Promise<McpToolInfo[]> {
    const { Client } = require('@modelcontextprotocol/sdk/client/index.js') as typeof import('@modelcontextprotocol/sdk/client/index.js');
    const config = live.config;
    const client = new Client(this.options.clientInfo ?? { name: 'slothtool-ai', version: '0' }, { capabilities: {} });
    live.client = client;
    const timeout = this.options.connectTimeoutMs ?? 30_000;
    await client.connect(this.transport(live), { timeout });
    const tools: McpToolInfo[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 100; page++) {
      const listed = await client.listTools(cursor ? { cursor } : undefined, { timeout });
      for (const t of listed.tools) {
        tools.push({
          server: config.name,
          name: t.name,
          description: (t.description ?? t.title ?? '').trim(),
          inputSchema: (t.inputSchema ?? { type: 'object' }) as Record<string, unknown>,
          annotations: { ...(t.annotations ?? {}) },
        });
      }
      cursor = listed.nextCursor;
      if (!cursor) break;
    }
    return tools;
  }

  private transport(live: Live): import('@modelcontextprotocol/sdk/shared/transport.js').Transport {
    const config = live.config;
    if (config.transport === 'http') {
      const init = { requestInit: { headers: config.headers } };
      if (config.type === 'sse') {
        const { SSEClientTransport } =
          require('@modelcontextprotocol/sdk/client/sse.js') as typeof import('@modelcontextprotocol/sdk/client/sse.js');
        return new SSEClientTransport(new URL(config.url), init);
      }
      const { StreamableHTTPClientTransport } =
        require('@modelcontextprotocol/sdk/client/streamableHttp.js') as typeof import('@modelcontextprotocol/sdk/client/streamableHttp.js');
      return new StreamableHTTPClientTransport(new URL(config.url), init);
    }
    const { StdioClientTransport, getDefaultEnvironment } =
      require('@modelcontextprotocol/sdk/client/stdio.js') as typeof import('@modelcontextprotocol/sdk/client/stdio.js');
    const transport = new StdioClientTransport({
      command: config.command,
      args: config.args,
      // The SDK's safe defaults (PATH, HOME, ...) and the entry's own variables: never our keys.
      env: { ...getDefaultEnvironment(), ...config.env },
      cwd: config.cwd ?? this.options.cwd,
      stderr: 'pipe',
    });
    let tail = '';
    transport.stderr?.on('data', (chunk: Buffer) => {
      tail = (tail + chunk.toString('utf8')).slice(-STDERR_TAIL);
      live.state.stderrTail = tail.trim();
    });
    return transport;
  }
}
