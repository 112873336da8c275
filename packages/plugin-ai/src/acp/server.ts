/**
 * `ai --acp`: the assistant as an Agent Client Protocol agent (protocol version 1) on stdin and
 * stdout, built on `@agentclientprotocol/sdk`'s agent-side connection (its app API: typed
 * handlers, params checked against the protocol's schema). Editors (Zed, JetBrains, Neovim's
 * CodeCompanion; docs/acp.md) start it and drive sessions: each one an Agent built as `ai -i`
 * builds it (acp/session.ts). stdout carries protocol messages only: every other write to it goes
 * to stderr, and no step may take the terminal over.
 */
import * as fs from 'fs';
import * as path from 'path';
import type * as Acp from '@agentclientprotocol/sdk';
import type { RunArgs } from '../cli/args';
import { AiError } from '../errors';
import { aiPaths, slothtoolHome } from '../home';
import { t, type Lang } from '../i18n';
import { Lifetime } from '../cli/lifetime';
import { VERSION } from '../version';
import { ACP_MODES, AcpSession, type SessionSetup } from './session';
import { clientServers } from './mcp-servers';
import { replayUpdates } from './history';
import { profileSeesImages } from './images-capability';

/** I/O of the agent; the CLI passes the process's. */
export interface AcpIo {
  stdin: NodeJS.ReadableStream;
  stdout: NodeJS.WriteStream;
  stderr: NodeJS.WritableStream;
  env: NodeJS.ProcessEnv;
  lifetime: Lifetime;
}

/**
 * stdout for the protocol alone: the returned function writes to it; any other write to
 * `process.stdout` (a library's console.log) is sent to stderr instead.
 */
export function guardStdout(out: NodeJS.WriteStream, err: NodeJS.WritableStream): (chunk: Uint8Array) => Promise<void> {
  const write = out.write.bind(out) as (chunk: Uint8Array, cb: (error?: Error | null) => void) => boolean;
  out.write = ((chunk: unknown, encoding?: unknown, cb?: unknown) => (err.write as (...a: unknown[]) => boolean)(chunk, encoding, cb)) as typeof out.write;
  return (chunk) => new Promise<void>((resolve, reject) => void write(chunk, (error) => (error ? reject(error) : resolve())));
}

/** The SDK's newline-delimited JSON stream over our stdin and the guarded stdout. */
function stdioStream(acp: typeof Acp, input: NodeJS.ReadableStream, write: (chunk: Uint8Array) => Promise<void>): Acp.Stream {
  const web = require('node:stream/web') as typeof import('node:stream/web');
  const readable = new web.ReadableStream<Uint8Array>({
    start(controller) {
      input.on('data', (d: Buffer | string) => controller.enqueue(typeof d === 'string' ? new TextEncoder().encode(d) : new Uint8Array(d.buffer, d.byteOffset, d.length)));
      input.once('end', () => controller.close());
      input.once('error', (e) => controller.error(e));
    },
  });
  const writable = new web.WritableStream<Uint8Array>({ write: (chunk) => write(chunk) });
  return acp.ndJsonStream(writable as unknown as WritableStream<Uint8Array>, readable as unknown as ReadableStream<Uint8Array>);
}

/** A JSON-RPC error in the user's language. */
function rpcError(acp: typeof Acp, code: number, message: string, data?: unknown): Acp.RequestError {
  return new acp.RequestError(code, message, data);
}

/** The editor's folder: an existing absolute folder, else a JSON-RPC error saying so. */
function checkCwd(acp: typeof Acp, cwd: string, lang: Lang): string {
  if (!path.isAbsolute(cwd) || !fs.statSync(cwd, { throwIfNoEntry: false })?.isDirectory()) throw rpcError(acp, -32602, t(lang, 'acpBadCwd', { cwd }));
  return cwd;
}

/** Serve the editor until it closes the connection (or `ai` is told to stop); the exit code. */
export async function runAcp(args: RunArgs, lang: Lang, io?: Partial<AcpIo>): Promise<number> {
  const stderr = io?.stderr ?? process.stderr;
  const env = io?.env ?? process.env;
  const lifetime = io?.lifetime ?? new Lifetime();
  const write = guardStdout(io?.stdout ?? process.stdout, stderr);
  const acp = require('@agentclientprotocol/sdk') as typeof Acp;
  const log = (line: string): void => void stderr.write(line + '\n');
  const sessions = new Map<string, AcpSession>();
  let setup: SessionSetup | undefined;
  const modes = (session: AcpSession): Acp.SessionModeState => ({
    currentModeId: session.mode,
    availableModes: ACP_MODES.map((id) => ({ id, name: t(lang, `acpMode.${id}` as 'acpMode.default'), description: t(lang, `acpModeAbout.${id}` as 'acpModeAbout.default') })),
  });
  /** A new session (its Agent built as `ai -i` builds one), or the error that stops it, worded. */
  const open = (cwd: string, servers: readonly Acp.McpServer[]): AcpSession => {
    if (!setup) throw rpcError(acp, -32600, t(lang, 'acpNotInitialized'));
    const client = clientServers(servers);
    for (const s of client.skipped) log(t(lang, 'acpMcpSkipped', { name: s.name, why: s.why }));
    let session: AcpSession;
    try {
      session = new AcpSession(setup, checkCwd(acp, cwd, lang), client.raw);
    } catch (err) {
      if (AiError.isInstance(err)) throw rpcError(acp, -32603, t(lang, err.key, err.vars), { code: err.code });
      throw err;
    }
    const blocked = needsSetup(session, args, env, lang);
    if (blocked) {
      session.dispose();
      throw rpcError(acp, -32000, blocked);
    }
    return session;
  };
  const find = (id: string): AcpSession => {
    const session = sessions.get(id);
    if (!session) throw acp.RequestError.sessionNotFound(id);
    return session;
  };
  const app = acp
    .agent({ name: 'slothtool-ai' })
    .onRequest(acp.methods.agent.initialize, ({ params, client }) => {
      const fsCaps = params.clientCapabilities?.fs;
      const seesImages = profileSeesImages(env, args.profile);
      setup = { client, lang, args, env, log, seesImages, fs: { read: fsCaps?.readTextFile === true, write: fsCaps?.writeTextFile === true } };
      return {
        protocolVersion: acp.PROTOCOL_VERSION,
        agentCapabilities: { loadSession: true, promptCapabilities: { image: seesImages, audio: false, embeddedContext: true }, mcpCapabilities: { http: true, sse: false }, sessionCapabilities: { list: {} } },
        agentInfo: { name: 'slothtool-ai', title: 'SlothTool ai', version: VERSION },
        authMethods: [],
      };
    })
    .onRequest(acp.methods.agent.session.new, ({ params }) => {
      const session = open(params.cwd, params.mcpServers);
      sessions.set(session.id, session);
      announceCommands(session);
      return { sessionId: session.id, modes: modes(session) };
    })
    .onRequest(acp.methods.agent.session.load, async ({ params }) => {
      const store = new (require('../sessions/sessions') as typeof import('../sessions/sessions')).SessionStore(aiPaths(slothtoolHome(env)).sessionsDir);
      if (!/^[\w.-]+$/.test(params.sessionId) || !fs.existsSync(store.fileOf(params.sessionId))) throw acp.RequestError.resourceNotFound(params.sessionId);
      sessions.get(params.sessionId)?.dispose();
      const session = open(params.cwd, params.mcpServers);
      const { skipped } = session.app.agent.resume(params.sessionId);
      if (skipped) log(t(lang, 'acpLoadSkipped', { id: params.sessionId, n: skipped }));
      sessions.set(session.id, session);
      for (const update of replayUpdates(store.read(params.sessionId).records)) void session.send(update);
      await session.flushed();
      announceCommands(session);
      return { modes: modes(session) };
    })
    .onRequest(acp.methods.agent.session.list, ({ params }) => {
      const { SessionStore } = require('../sessions/sessions') as typeof import('../sessions/sessions');
      const list = new SessionStore(aiPaths(slothtoolHome(env)).sessionsDir).list().filter((s) => !params.cwd || s.cwd === params.cwd);
      return { sessions: list.slice(0, 200).map((s) => ({ sessionId: s.id, cwd: s.cwd, title: s.title || null, updatedAt: s.updatedAt })) };
    })
    .onRequest(acp.methods.agent.session.prompt, async ({ params }) => {
      const session = find(params.sessionId);
      if (session.busy) throw rpcError(acp, -32600, t(lang, 'acpBusy'));
      const result = await session.prompt(params.prompt);
      if ('error' in result) throw rpcError(acp, -32602, t(lang, 'acpBadPrompt', { detail: result.error }));
      return result;
    })
    .onNotification(acp.methods.agent.session.cancel, ({ params }) => sessions.get(params.sessionId)?.cancel())
    .onRequest(acp.methods.agent.session.setMode, ({ params }) => {
      const session = find(params.sessionId);
      const mode = ACP_MODES.find((m) => m === params.modeId);
      if (!mode) throw rpcError(acp, -32602, t(lang, 'acpBadMode', { mode: params.modeId, modes: ACP_MODES.join(', ') }));
      const r = session.app.agent.setRunMode(mode);
      if (!r.ok) throw rpcError(acp, -32602, r.reason);
      return {};
    });
  const connection = app.connect(stdioStream(acp, io?.stdin ?? process.stdin, write));
  const unhook = lifetime.onStop(() => connection.close());
  try {
    await connection.closed;
  } finally {
    unhook();
    for (const session of sessions.values()) session.dispose();
    await Promise.all([...sessions.values()].map((s) => s.app.telemetry?.shutdown()));
    lifetime.nothingLeft = true;
  }
  return 0;

  /** The custom commands (`/review`) the editor may offer, after the session's answer. */
  function announceCommands(session: AcpSession): void {
    const commands = session.app.commands.map((c) => ({ name: c.name, description: c.description, ...(c.argumentHint ? { input: { hint: c.argumentHint } } : {}) }));
    if (commands.length) setImmediate(() => void session.send({ sessionUpdate: 'available_commands_update', availableCommands: commands }));
  }
}

/** No model to talk to yet (no llm-base profile, a broken llm-base config): what to do, worded. */
function needsSetup(session: AcpSession, args: RunArgs, env: NodeJS.ProcessEnv, lang: Lang): string | undefined {
  const { needsSetup: check } = require('../setup/needs') as typeof import('../setup/needs');
  const needs = check({ env, registry: session.app.registry, profile: args.profile ?? null });
  if (needs.configProblem) return needs.configProblem;
  if (needs.reason === 'no-profile') return (require('../setup/hint') as typeof import('../setup/hint')).setupHint(lang, needs) ?? t(lang, 'acpNoProfile');
  return undefined;
}
