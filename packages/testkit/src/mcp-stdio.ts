/**
 * The test MCP server over stdio (`node lib/mcp-stdio.js`). Options come from the environment:
 * TESTKIT_MCP_EXTRA_TOOLS (a count), TESTKIT_MCP_SECRET, TESTKIT_MCP_NAME, and
 * TESTKIT_MCP_STARTUP_MS (wait this long before answering, to play a slow server) and
 * TESTKIT_MCP_READY_FILE (written once the server answers, so a test can wait for it).
 */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import fs = require('fs');
import { createTestMcpServer } from './mcp-server';

async function main(): Promise<void> {
  const delay = Number(process.env.TESTKIT_MCP_STARTUP_MS ?? 0);
  if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
  const server = createTestMcpServer({
    extraTools: Number(process.env.TESTKIT_MCP_EXTRA_TOOLS ?? 0),
    secret: process.env.TESTKIT_MCP_SECRET,
    name: process.env.TESTKIT_MCP_NAME,
  });
  await server.connect(new StdioServerTransport());
  if (process.env.TESTKIT_MCP_READY_FILE) fs.writeFileSync(process.env.TESTKIT_MCP_READY_FILE, String(process.pid));
}

main().catch((err: unknown) => {
  process.stderr.write(`testkit mcp server: ${String(err)}\n`);
  process.exit(1);
});
