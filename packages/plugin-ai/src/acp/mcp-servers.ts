/**
 * The MCP servers an editor passes with `session/new` / `session/load`, in the shape ai.json's
 * `mcpServers` takes (mcp/config.ts reads them, names checked, as the user's own servers): stdio
 * `{command, args, env}` and HTTP `{url, headers}`. SSE, which initialize does not offer, is
 * reported rather than started. Pure.
 */
import type { McpServer } from '@agentclientprotocol/sdk';

export interface ClientServers {
  /** `{"<name>": {command, args, env} | {type: "http", url, headers}}`. */
  raw: Record<string, unknown>;
  /** Servers that cannot be started, with why (said on stderr). */
  skipped: Array<{ name: string; why: string }>;
}

export function clientServers(servers: readonly McpServer[]): ClientServers {
  const raw: Record<string, unknown> = {};
  const skipped: ClientServers['skipped'] = [];
  for (const server of servers) {
    const pairs = (list: ReadonlyArray<{ name: string; value: string }>) => Object.fromEntries(list.map((e) => [e.name, e.value]));
    if ('type' in server && server.type === 'sse')
      skipped.push({ name: server.name, why: 'SSE servers are not supported (initialize offers stdio and HTTP)' });
    else if ('type' in server && server.type === 'http')
      raw[server.name] = { type: 'http', url: server.url, headers: pairs(server.headers) };
    else if ('command' in server) raw[server.name] = { command: server.command, args: server.args, env: pairs(server.env) };
  }
  return { raw, skipped };
}
