import http = require('http');
import type { AddressInfo, Socket } from 'net';
import path = require('path');
import { z } from 'zod';
import { mcpHttpSdk, mcpServerSdk } from './lazy-modules';

/** What the test MCP server offers. */
export interface TestMcpOptions {
  /** Extra generated tools `tool_001` … (for prompt-size tests); default 0. */
  extraTools?: number;
  /** A value the `read_secret` tool returns (to test that MCP output is redacted). */
  secret?: string;
  /** Server name reported at initialisation; default `testkit-mcp`. */
  name?: string;
}

type McpServerT = import('@modelcontextprotocol/sdk/server/mcp.js').McpServer;

/**
 * A real MCP server built with the official SDK. Tools:
 * - `echo {text}` (readOnlyHint) → the text;
 * - `add {a, b}` (readOnlyHint) → the sum;
 * - `write_note {name, text}` (destructiveHint) → "saved <name>" (it keeps notes in memory);
 * - `write_file {path, content}` (all four hints, as a file server gives them) → "wrote <n> chars to
 *   <path>" (kept in memory: it never writes a file);
 * - `read_secret {}` (readOnlyHint) → the configured secret in a sentence;
 * - `picture {}` → an image content block and a resource link;
 * - `fail {}` → a tool error (`isError: true`);
 * - `tool_001` … `tool_NNN` when `extraTools` asks for them.
 */
export function createTestMcpServer(options: TestMcpOptions = {}): McpServerT {
  const { McpServer } = mcpServerSdk();
  const server = new McpServer({ name: options.name ?? 'testkit-mcp', version: '1.0.0' });
  const notes = new Map<string, string>();
  const text = (t: string) => ({ content: [{ type: 'text' as const, text: t }] });
  server.registerTool(
    'echo',
    { description: 'Echo the text back.', inputSchema: { text: z.string() }, annotations: { readOnlyHint: true } },
    async ({ text: t }) => text(t),
  );
  server.registerTool(
    'add',
    { description: 'Add two numbers.', inputSchema: { a: z.number(), b: z.number() }, annotations: { readOnlyHint: true } },
    async ({ a, b }) => text(String(a + b)),
  );
  server.registerTool(
    'write_note',
    {
      description: 'Save a note under a name.',
      inputSchema: { name: z.string(), text: z.string() },
      annotations: { destructiveHint: true },
    },
    async ({ name, text: t }) => {
      notes.set(name, t);
      return text(`saved ${name}`);
    },
  );
  server.registerTool(
    'write_file',
    {
      description: 'Write a file.',
      inputSchema: { path: z.string(), content: z.string() },
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    },
    async ({ path: p, content }) => {
      notes.set(p, content);
      return text(`wrote ${content.length} chars to ${p}`);
    },
  );
  server.registerTool('read_secret', { description: 'Read the service token.', annotations: { readOnlyHint: true } }, async () =>
    text(`the token is ${options.secret ?? 'none'}`),
  );
  server.registerTool('picture', { description: 'Return a picture.' }, async () => ({
    content: [
      { type: 'image' as const, data: Buffer.alloc(2048, 1).toString('base64'), mimeType: 'image/png' },
      { type: 'resource_link' as const, uri: 'file:///pictures/cat.png', name: 'cat.png', mimeType: 'image/png' },
    ],
  }));
  server.registerTool('fail', { description: 'Always fails.' }, async () => ({
    content: [{ type: 'text' as const, text: 'it broke' }],
    isError: true,
  }));
  for (let i = 1; i <= (options.extraTools ?? 0); i++) {
    const name = `tool_${String(i).padStart(3, '0')}`;
    server.registerTool(
      name,
      {
        description:
          `Generated tool number ${i}: does one small thing with a long description that a model would only need when it calls this tool. `.repeat(
            3,
          ),
        inputSchema: { query: z.string().describe('what to look for'), limit: z.number().int().optional().describe('how many results') },
      },
      async ({ query }) => text(`${name}: ${query}`),
    );
  }
  return server;
}

/** A test MCP server over streamable HTTP on 127.0.0.1. */
export interface TestMcpHttpServer {
  /** `http://127.0.0.1:<port>/mcp` */
  url: string;
  /** Request headers seen, newest last (to check configured headers arrive). */
  headers: http.IncomingHttpHeaders[];
  close(): Promise<void>;
}

/** Start the test MCP server over streamable HTTP (stateless: a server and transport per request). */
export async function startTestMcpHttpServer(options: TestMcpOptions = {}): Promise<TestMcpHttpServer> {
  const { StreamableHTTPServerTransport } = mcpHttpSdk();
  const headers: http.IncomingHttpHeaders[] = [];
  const sockets = new Set<Socket>();
  const httpServer = http.createServer((req, res) => {
    headers.push(req.headers);
    if (req.url !== '/mcp') return void res.writeHead(404).end();
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      let body: unknown;
      try {
        body = chunks.length ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : undefined;
      } catch {
        return void res.writeHead(400).end();
      }
      const server = createTestMcpServer(options);
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      res.on('close', () => {
        void transport.close();
        void server.close();
      });
      server
        .connect(transport)
        .then(() => transport.handleRequest(req, res, body))
        .catch(() => {
          if (!res.headersSent) res.writeHead(500).end();
        });
    });
  });
  httpServer.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve, reject) => {
    httpServer.once('error', reject);
    httpServer.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (httpServer.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    headers,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => httpServer.close(() => resolve()));
    },
  };
}

/**
 * How to start the test MCP server over stdio: `{command, args}` for an `mcpServers` entry
 * (Claude Code's shape). Options travel in TESTKIT_MCP_* variables of the entry's `env`.
 */
export function testMcpStdioCommand(): { command: string; args: string[] } {
  return { command: process.execPath, args: [path.join(__dirname, 'mcp-stdio.js')] };
}
