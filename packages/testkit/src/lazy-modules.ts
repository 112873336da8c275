/**
 * The modules a test loads only when it uses them: every test file imports this package, and
 * most start neither an MCP server, a terminal nor a TLS server.
 */
import { lazy } from '@holic512/shared/lib/lazy';

/** The MCP SDK's server (large): only for tests of MCP. */
export const mcpServerSdk = lazy(
  () => require('@modelcontextprotocol/sdk/server/mcp.js') as typeof import('@modelcontextprotocol/sdk/server/mcp.js'),
);

/** The MCP SDK's streamable HTTP transport: only for an MCP server over HTTP. */
export const mcpHttpSdk = lazy(
  () =>
    require('@modelcontextprotocol/sdk/server/streamableHttp.js') as typeof import('@modelcontextprotocol/sdk/server/streamableHttp.js'),
);

/** node-pty, the repository's dev dependency with a native part: only for tests of a terminal. */
export const nodePty = lazy(() => require('@lydell/node-pty') as typeof import('@lydell/node-pty'));

/** node:https (it loads TLS): only for a scripted server that serves TLS. */
export const https = lazy(() => require('https') as typeof import('https'));
