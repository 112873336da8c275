/**
 * One ACP session: an Agent built exactly as `ai -i` builds it (createAppAgent: the same config,
 * rules, runner, sandbox, hooks and MCP servers), for the editor's folder, with the editor as the
 * person who answers questions (`session/request_permission`) and, when it offers them, as the
 * file system of fs.read / fs.edit / fs.write (its unsaved buffers). The Agent's events go out as
 * `session/update`s through the redaction gate, in order, before the prompt's answer.
 */
import { redactValue } from '@holic512/shared';
import type { AgentContext, RequestPermissionRequest, SessionUpdate, StopReason } from '@agentclientprotocol/sdk';
import type { AgentConfirmAnswer } from '../agent/agent';
import type { AgentEvent } from '../agent/events';
import type { ConfirmRequest, RunMode } from '../agent/runner-types';
import { appOptionsOf, type RunArgs } from '../cli/args';
import { createAppAgent, type AppAgent } from '../cli/app';
import { commandTurnFor } from '../extensions/command-run';
import { startNotices } from '../cli/start-notices';
import type { FileAccess } from '@holic512/tool-runner';
import { t, type Lang } from '../i18n';
import { answerOf, permissionOptions, previewContent } from './permission';
import { promptInput } from './prompt-content';
import { UpdateMapper, type KindRegistry } from './updates';

/** What every session of a connection shares. */
export interface SessionSetup {
  client: AgentContext;
  lang: Lang;
  args: RunArgs;
  env: NodeJS.ProcessEnv;
  /** The editor reads and writes files for us (initialize's clientCapabilities.fs). */
  fs: { read: boolean; write: boolean };
  /** Whether prompts may carry images (what initialize said). */
  seesImages: boolean;
  /** A line for the log (stderr): never stdout, which carries the protocol. */
  log(line: string): void;
}

/** The modes an editor may switch between (session/set_mode); yolo stays a terminal's choice. */
export const ACP_MODES: readonly RunMode[] = ['default', 'auto-edit', 'plan'];

/** The turn's end as ACP says it. */
export function stopReasonOf(outcome: string): StopReason {
  if (outcome === 'aborted') return 'cancelled';
  if (outcome === 'step_limit') return 'max_turn_requests';
  return 'end_turn';
}

/** Resolve with `promise`, or with `fallback()` as soon as `signal` aborts. */
function unlessAborted<T>(promise: Promise<T>, signal: AbortSignal | undefined, fallback: () => T): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.resolve(fallback());
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => resolve(fallback());
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

export class AcpSession {
  readonly app: AppAgent;
  private readonly mapper: UpdateMapper;
  private turn?: AbortController;
  /** Updates written so far: the next waits for it (order), and so does the prompt's answer. */
  private sending: Promise<void> = Promise.resolve();

  /** `cwd`: the session's folder (the workspace is its git root, or it). */
  constructor(
    private readonly setup: SessionSetup,
    readonly cwd: string,
    mcpServers: Record<string, unknown>,
  ) {
    const { args, lang, env } = setup;
    this.app = createAppAgent({
      ...appOptionsOf(args),
      env,
      cwd,
      lang,
      confirm: (request) => this.confirm(request),
      ...(Object.keys(mcpServers).length ? { mcpServers: { raw: mcpServers, source: t(lang, 'acpMcpSource') } } : {}),
      ...(setup.fs.read || setup.fs.write ? { fileAccess: this.fileAccess() } : {}),
      noTerminal: true,
    });
    this.mapper = new UpdateMapper(cwd, () => this.app.tools as unknown as KindRegistry | undefined);
    this.app.agent.on((event) => this.onEvent(event));
    for (const line of startNotices(this.app, lang)) setup.log(line);
    if (args.runMode && ACP_MODES.includes(args.runMode)) this.app.agent.setRunMode(args.runMode);
  }

  get id(): string {
    return this.app.agent.sessionId;
  }

  get mode(): RunMode {
    return this.app.agent.getRunMode();
  }

  get busy(): boolean {
    return this.turn !== undefined;
  }

  /** Send one update (redacted), after the ones before it. */
  send(update: SessionUpdate): Promise<void> {
    const params = { sessionId: this.id, update: redactValue(update) as SessionUpdate };
    this.sending = this.sending.then(
      () => this.setup.client.notify('session/update', params),
      () => this.setup.client.notify('session/update', params),
    );
    return this.sending;
  }

  /** Every update sent so far has been handed to the stream. */
  flushed(): Promise<void> {
    return this.sending.catch((err: unknown) => this.setup.log(String((err as Error)?.message ?? err)));
  }

  /** Run one turn with the prompt; resolves with the stop reason once its updates are out. */
  async prompt(blocks: Parameters<typeof promptInput>[0]): Promise<{ stopReason: StopReason } | { error: string }> {
    const input = promptInput(blocks, { cwd: this.cwd, seesImages: this.setup.seesImages, maxImageBytes: this.app.config.images.maxBytes });
    if ('error' in input) return input;
    const turn = new AbortController();
    this.turn = turn;
    try {
      const custom = this.app.commands.length ? commandTurnFor(this.app, input.text, this.cwd) : undefined;
      for (const note of custom?.notes ?? []) this.setup.log(t(this.setup.lang, note.key, note.vars));
      const result = await this.app.agent.send(custom?.message ?? input.text, {
        ...custom?.options,
        signal: turn.signal,
        ...(input.images.length ? { images: input.images } : {}),
      });
      // Why the turn stopped, when it is not the answer itself (the step limit, a failed model call).
      if (result.outcome === 'step_limit' || result.outcome === 'error')
        void this.send({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: `\n\n${result.message}` } });
      await this.flushed();
      return { stopReason: turn.signal.aborted ? 'cancelled' : stopReasonOf(result.outcome) };
    } finally {
      this.turn = undefined;
    }
  }

  /** session/cancel: the running step and model call stop; the prompt answers `cancelled`. */
  cancel(): void {
    this.turn?.abort();
  }

  /** End the session: the turn, its processes and its MCP servers. */
  dispose(): void {
    this.turn?.abort();
    this.app.agent.dispose();
  }

  private onEvent(event: AgentEvent): void {
    if (event.type === 'log') this.setup.log(event.message);
    for (const update of this.mapper.map(event)) void this.send(update);
  }

  /** An L1 step's question, asked in the editor. */
  private async confirm(request: ConfirmRequest): Promise<AgentConfirmAnswer> {
    const { lang, client } = this.setup;
    // The runner never asks about a step its rules refuse; should one come, it stays refused.
    if (request.verdict.level !== 'L1') return { action: 'decline', reason: t(lang, 'acpRejected') };
    const options = permissionOptions(request, lang);
    // A helper agent's step (agent.run) was never announced: it gets a card of its own.
    const id = request.agent ? `${request.agent}/${request.id}` : request.id;
    const call = this.mapper.toolCall(id, request.step);
    // The runner's preview where there is no diff of the change already (a config patch's masked diff).
    if (!call.content.some((c) => c.type === 'diff')) call.content.push(...previewContent(request));
    if (request.agent) void this.send({ sessionUpdate: 'tool_call', ...call, title: `${request.agent}: ${call.title}` });
    await this.flushed();
    const params: RequestPermissionRequest = { sessionId: this.id, toolCall: redactValue(call) as typeof call, options };
    const asked = client.request('session/request_permission', params);
    const { outcome } = await unlessAborted(asked, this.turn?.signal, () => ({ outcome: { outcome: 'cancelled' as const } }));
    const answer = answerOf(outcome, options, lang);
    if (request.agent)
      void this.send({ sessionUpdate: 'tool_call_update', toolCallId: id, status: answer.action === 'decline' ? 'failed' : 'completed' });
    return answer;
  }

  /** fs.read / fs.edit / fs.write through the editor, each side only where it offers it. */
  private fileAccess(): FileAccess {
    const { client, fs } = this.setup;
    return {
      ...(fs.read
        ? { read: async (file: string) => (await client.request('fs/read_text_file', { sessionId: this.id, path: file })).content }
        : {}),
      ...(fs.write
        ? {
            write: async (file: string, content: string) =>
              void (await client.request('fs/write_text_file', { sessionId: this.id, path: file, content })),
          }
        : {}),
    };
  }
}
