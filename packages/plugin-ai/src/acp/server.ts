/**
 * `ai --acp`: the assistant as an Agent Client Protocol agent (protocol version 1) on stdin and
 * stdout, built on `@agentclientprotocol/sdk`'s agent-side connection (its app API: typed
 * handlers, params checked against the protocol's schema). Editors (Zed, JetBrains, Neovim's
 * CodeCompanion; docs/acp.md) start it and drive sessions: each one an Agent built as `ai -i`
 * builds it (acp/session.ts). stdout carries protocol messages only: every other write to it goes
 * to stderr, and no step may take the terminal over.
 */
import type * as Acp from '@agentclientprotocol/sdk';
import type { RunArgs } from '../cli/args';
import type { Lang } from '../i18n';
import { Lifetime } from '../cli/lifetime';
import { AcpAgent } from './agent';

/** I/O of the agent; the CLI passes the process's. */
export interface AcpIo {
  stdin: NodeJS.ReadableStream;
  stdout: NodeJS.WriteStream;
  stderr: NodeJS.WritableStream;
  env: NodeJS.ProcessEnv;
  lifetime: Lifetime;
}

/**
 * stdout for the protocol alone: `write` writes to it; any other write to `process.stdout` (a
 * library's console.log) is sent to stderr instead, until `restore` (the connection closed).
 */
export function guardStdout(
  out: NodeJS.WriteStream,
  err: NodeJS.WritableStream,
): { write(chunk: Uint8Array): Promise<void>; restore(): void } {
  const own = out.write;
  const write = own.bind(out) as (chunk: Uint8Array, cb: (error?: Error | null) => void) => boolean;
  out.write = ((chunk: unknown, encoding?: unknown, cb?: unknown) =>
    (err.write as (...a: unknown[]) => boolean)(chunk, encoding, cb)) as typeof out.write;
  return {
    write: (chunk) => new Promise<void>((resolve, reject) => void write(chunk, (error) => (error ? reject(error) : resolve()))),
    restore: () => void (out.write = own),
  };
}

/** The SDK's newline-delimited JSON stream over our stdin and the guarded stdout. */
function stdioStream(acp: typeof Acp, input: NodeJS.ReadableStream, write: (chunk: Uint8Array) => Promise<void>): Acp.Stream {
  const web = require('node:stream/web') as typeof import('node:stream/web');
  const readable = new web.ReadableStream<Uint8Array>({
    start(controller) {
      input.on('data', (d: Buffer | string) =>
        controller.enqueue(typeof d === 'string' ? new TextEncoder().encode(d) : new Uint8Array(d.buffer, d.byteOffset, d.length)),
      );
      input.once('end', () => controller.close());
      input.once('error', (e) => controller.error(e));
    },
  });
  const writable = new web.WritableStream<Uint8Array>({ write: (chunk) => write(chunk) });
  return acp.ndJsonStream(writable as unknown as WritableStream<Uint8Array>, readable as unknown as ReadableStream<Uint8Array>);
}

/** Serve the editor until it closes the connection (or `ai` is told to stop); the exit code. */
export async function runAcp(args: RunArgs, lang: Lang, io?: Partial<AcpIo>): Promise<number> {
  const stderr = io?.stderr ?? process.stderr;
  const lifetime = io?.lifetime ?? new Lifetime();
  const stdout = guardStdout(io?.stdout ?? process.stdout, stderr);
  const acp = require('@agentclientprotocol/sdk') as typeof Acp;
  const agent = new AcpAgent(acp, { args, lang, env: io?.env ?? process.env, log: (line) => void stderr.write(line + '\n') });
  const m = acp.methods.agent;
  const app = acp
    .agent({ name: 'slothtool-ai' })
    .onRequest(m.initialize, ({ params, client }) => agent.initialize(params, client))
    .onRequest(m.session.new, ({ params }) => agent.newSession(params))
    .onRequest(m.session.load, ({ params }) => agent.loadSession(params))
    .onRequest(m.session.list, ({ params }) => agent.listSessions(params))
    .onRequest(m.session.prompt, ({ params }) => agent.prompt(params))
    .onNotification(m.session.cancel, ({ params }) => agent.cancel(params))
    .onRequest(m.session.setMode, ({ params }) => agent.setMode(params));
  const connection = app.connect(stdioStream(acp, io?.stdin ?? process.stdin, stdout.write));
  const unhook = lifetime.onStop(() => connection.close());
  try {
    await connection.closed;
  } finally {
    unhook();
    await agent.close();
    // The CLI's exit waits for stdout's own writes, not stderr's.
    stdout.restore();
    // Every session, its processes and servers ended: the CLI may exit once the output is written.
    lifetime.nothingLeft = true;
  }
  return 0;
}
