/**
 * The ACP methods of one connection (acp/server.ts registers them with the SDK's agent-side app):
 * its sessions, what initialize said, and each request answered or refused with an error worded
 * in the user's language.
 */
import fs = require('fs');
import path = require('path');
import type * as Acp from '@agentclientprotocol/sdk';
import type { RunArgs } from '../cli/args';
import { AiError } from '../errors';
import { aiPaths, slothtoolHome } from '../home';
import { t, type Lang } from '../i18n';
import { VERSION } from '../version';
import { needsSetup as check } from '../setup/needs';
import { sessionsModule, setupHint } from '../lazy-modules';
import { ACP_MODES, AcpSession, type SessionSetup } from './session';
import { clientServers } from './mcp-servers';
import { replayUpdates } from './history';
import { planUpdate } from './updates';
import { profileSeesImages } from './images-capability';

/** What the connection's methods share. */
export interface AgentContextSetup {
  args: RunArgs;
  lang: Lang;
  env: NodeJS.ProcessEnv;
  log(line: string): void;
}

export class AcpAgent {
  private readonly sessions = new Map<string, AcpSession>();
  private setup?: SessionSetup;

  constructor(
    private readonly acp: typeof Acp,
    private readonly c: AgentContextSetup,
  ) {}

  initialize(params: Acp.InitializeRequest, client: Acp.AgentContext): Acp.InitializeResponse {
    const { args, lang, env, log } = this.c;
    const fsCaps = params.clientCapabilities?.fs;
    const seesImages = profileSeesImages(env, args.profile);
    this.setup = {
      client,
      lang,
      args,
      env,
      log,
      seesImages,
      fs: { read: fsCaps?.readTextFile === true, write: fsCaps?.writeTextFile === true },
    };
    return {
      protocolVersion: this.acp.PROTOCOL_VERSION,
      agentCapabilities: {
        loadSession: true,
        promptCapabilities: { image: seesImages, audio: false, embeddedContext: true },
        mcpCapabilities: { http: true, sse: false },
        sessionCapabilities: { list: {} },
      },
      agentInfo: { name: 'slothtool-ai', title: 'SlothTool ai', version: VERSION },
      authMethods: [],
    };
  }

  newSession(params: Acp.NewSessionRequest): Acp.NewSessionResponse {
    const session = this.open(params.cwd, params.mcpServers);
    this.sessions.set(session.id, session);
    this.announceCommands(session);
    return { sessionId: session.id, modes: this.modes(session) };
  }

  /** The stored session restored (as `-c` restores it) and replayed to the editor before the answer. */
  async loadSession(params: Acp.LoadSessionRequest): Promise<Acp.LoadSessionResponse> {
    const store = new (sessionsModule().SessionStore)(aiPaths(slothtoolHome(this.c.env)).sessionsDir);
    if (!/^[\w.-]+$/.test(params.sessionId) || !fs.existsSync(store.fileOf(params.sessionId)))
      throw this.acp.RequestError.resourceNotFound(params.sessionId);
    this.sessions.get(params.sessionId)?.dispose();
    const session = this.open(params.cwd, params.mcpServers);
    const { skipped } = session.app.agent.resume(params.sessionId);
    if (skipped) this.c.log(t(this.c.lang, 'acpLoadSkipped', { id: params.sessionId, n: skipped }));
    this.sessions.set(session.id, session);
    for (const update of replayUpdates(store.read(params.sessionId).records)) void session.send(update);
    const plan = session.app.agent.plan();
    if (plan) void session.send(planUpdate(plan));
    await session.flushed();
    this.announceCommands(session);
    return { modes: this.modes(session) };
  }

  listSessions(params: Acp.ListSessionsRequest): Acp.ListSessionsResponse {
    const list = new (sessionsModule().SessionStore)(aiPaths(slothtoolHome(this.c.env)).sessionsDir)
      .list()
      .filter((s) => !params.cwd || s.cwd === params.cwd);
    return { sessions: list.slice(0, 200).map((s) => ({ sessionId: s.id, cwd: s.cwd, title: s.title || null, updatedAt: s.updatedAt })) };
  }

  async prompt(params: Acp.PromptRequest): Promise<Acp.PromptResponse> {
    const session = this.find(params.sessionId);
    if (session.busy) throw this.error(-32600, t(this.c.lang, 'acpBusy'));
    const result = await session.prompt(params.prompt);
    if ('error' in result) throw this.error(-32602, t(this.c.lang, 'acpBadPrompt', { detail: result.error }));
    return result;
  }

  cancel(params: Acp.CancelNotification): void {
    this.sessions.get(params.sessionId)?.cancel();
  }

  setMode(params: Acp.SetSessionModeRequest): Acp.SetSessionModeResponse {
    const session = this.find(params.sessionId);
    const mode = ACP_MODES.find((m) => m === params.modeId);
    if (!mode) throw this.error(-32602, t(this.c.lang, 'acpBadMode', { mode: params.modeId, modes: ACP_MODES.join(', ') }));
    const r = session.app.agent.setRunMode(mode);
    if (!r.ok) throw this.error(-32602, r.reason);
    return {};
  }

  /** End every session (their turns, processes and MCP servers) and export their spans. */
  async close(): Promise<void> {
    const all = [...this.sessions.values()];
    this.sessions.clear();
    for (const session of all) session.dispose();
    await Promise.all(all.map((s) => s.app.telemetry?.shutdown()));
  }

  /** A JSON-RPC error in the user's language. */
  private error(code: number, message: string, data?: unknown): Acp.RequestError {
    return new this.acp.RequestError(code, message, data);
  }

  /** A new session (its Agent built as `ai -i` builds one), or the error that stops it, worded. */
  private open(cwd: string, servers: readonly Acp.McpServer[]): AcpSession {
    const { lang, log, args, env } = this.c;
    if (!this.setup) throw this.error(-32600, t(lang, 'acpNotInitialized'));
    if (!path.isAbsolute(cwd) || !fs.statSync(cwd, { throwIfNoEntry: false })?.isDirectory())
      throw this.error(-32602, t(lang, 'acpBadCwd', { cwd }));
    const client = clientServers(servers);
    for (const s of client.skipped) log(t(lang, 'acpMcpSkipped', { name: s.name, why: s.why }));
    let session: AcpSession;
    try {
      session = new AcpSession(this.setup, cwd, client.raw);
    } catch (err) {
      if (AiError.isInstance(err)) throw this.error(-32603, t(lang, err.key, err.vars), { code: err.code });
      throw err;
    }
    const blocked = needsSetup(session, args, env, lang);
    if (blocked) {
      session.dispose();
      throw this.error(-32000, blocked);
    }
    return session;
  }

  private find(id: string): AcpSession {
    const session = this.sessions.get(id);
    if (!session) throw this.acp.RequestError.sessionNotFound(id);
    return session;
  }

  private modes(session: AcpSession): Acp.SessionModeState {
    const { lang } = this.c;
    return {
      currentModeId: session.mode,
      availableModes: ACP_MODES.map((id) => ({
        id,
        name: t(lang, `acpMode.${id}` as 'acpMode.default'),
        description: t(lang, `acpModeAbout.${id}` as 'acpModeAbout.default'),
      })),
    };
  }

  /** The custom commands (`/review`) the editor may offer, after the session's answer. */
  private announceCommands(session: AcpSession): void {
    const commands = session.app.commands.map((c) => ({
      name: c.name,
      description: c.description,
      ...(c.argumentHint ? { input: { hint: c.argumentHint } } : {}),
    }));
    if (commands.length) setImmediate(() => void session.send({ sessionUpdate: 'available_commands_update', availableCommands: commands }));
  }
}

/** No model to talk to yet (no llm-base profile, a broken llm-base config): what to do, worded. */
function needsSetup(session: AcpSession, args: RunArgs, env: NodeJS.ProcessEnv, lang: Lang): string | undefined {
  const needs = check({ env, registry: session.app.registry, profile: args.profile ?? null });
  if (needs.configProblem) return needs.configProblem;
  if (needs.reason === 'no-profile') return setupHint().setupHint(lang, needs) ?? t(lang, 'acpNoProfile');
  return undefined;
}
