import { spawn, type ChildProcess } from 'child_process';
import * as path from 'path';
import { ReadableStream, WritableStream } from 'node:stream/web';
import * as acp from '@agentclientprotocol/sdk';
import type { z } from 'zod';
import { AI_BIN } from './run-bin';

/**
 * The real `ai --acp` process driven by the ACP SDK's own client-side app (a client we did not
 * write), over its stdin and stdout. Every line the agent writes is kept, to be checked against
 * the SDK's zod schema of the protocol (`protocolProblems`).
 */

/** The SDK's generated zod schemas (dist/v1/schema/zod.gen.js: not an export of the package, its own file). */
type Schemas = Record<string, z.ZodType>;
export const schemas: Schemas = require(path.join(path.dirname(require.resolve('@agentclientprotocol/sdk')), '..', 'schema', 'zod.gen.js'));

/** What the agent may send, by method: requests and notifications. */
const AGENT_SENDS: Record<string, string> = {
  'session/request_permission': 'zRequestPermissionRequest',
  'fs/read_text_file': 'zReadTextFileRequest',
  'fs/write_text_file': 'zWriteTextFileRequest',
  'session/update': 'zSessionNotification',
};
/** The agent's answer to each client request, by the request's method. */
const AGENT_ANSWERS: Record<string, string> = {
  initialize: 'zInitializeResponse',
  'session/new': 'zNewSessionResponse',
  'session/load': 'zLoadSessionResponse',
  'session/list': 'zListSessionsResponse',
  'session/prompt': 'zPromptResponse',
  'session/set_mode': 'zSetSessionModeResponse',
};

/** Each agent line that is not a valid ACP v1 message (with why), given what the client sent. */
export function protocolProblems(agentLines: readonly string[], clientLines: readonly string[]): string[] {
  const asked = new Map<string, string>();
  for (const line of clientLines) {
    const m = JSON.parse(line) as { id?: unknown; method?: string };
    if (m.method && m.id !== undefined) asked.set(JSON.stringify(m.id), m.method);
  }
  const problems: string[] = [];
  for (const line of agentLines) {
    let m: { jsonrpc?: string; id?: unknown; method?: string; params?: unknown; result?: unknown; error?: unknown };
    try {
      m = JSON.parse(line);
    } catch {
      problems.push(`not JSON: ${line.slice(0, 200)}`);
      continue;
    }
    if (m.jsonrpc !== '2.0') problems.push(`no jsonrpc 2.0: ${line.slice(0, 200)}`);
    let schema: string | undefined;
    let value: unknown;
    if (m.method !== undefined) {
      schema = AGENT_SENDS[m.method];
      value = m.params;
    } else if (m.error !== undefined) {
      schema = 'zError';
      value = m.error;
    } else {
      const method = asked.get(JSON.stringify(m.id));
      schema = method ? AGENT_ANSWERS[method] : undefined;
      value = m.result;
      if (!method) problems.push(`an answer to no request: ${line.slice(0, 200)}`);
    }
    if (!schema) {
      problems.push(`no schema for: ${line.slice(0, 200)}`);
      continue;
    }
    const checked = schemas[schema].safeParse(value);
    if (!checked.success)
      problems.push(
        `${schema}: ${checked.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')} in ${line.slice(0, 300)}`,
      );
  }
  return problems;
}

export type Answer = (request: acp.RequestPermissionRequest) => acp.RequestPermissionResponse | Promise<acp.RequestPermissionResponse>;

export interface AcpOptions {
  env: NodeJS.ProcessEnv;
  cwd: string;
  args?: string[];
  /** How the person answers a question (default: reject). */
  answer?: Answer;
  /** The editor's buffers: offered as fs/read_text_file and fs/write_text_file when given. */
  buffers?: Map<string, string>;
}

export interface AcpRun {
  child: ChildProcess;
  agent: acp.ClientContext;
  updates: acp.SessionNotification[];
  permissions: acp.RequestPermissionRequest[];
  writes: acp.WriteTextFileRequest[];
  /** Lines the agent wrote to stdout, and the client to its stdin. */
  agentLines: string[];
  clientLines: string[];
  stderr(): string;
  initialize(): Promise<acp.InitializeResponse>;
  /** Text of the agent's message chunks of a session so far. */
  said(sessionId: string): string;
  /** The updates of one kind for a session. */
  of<K extends acp.SessionUpdate['sessionUpdate']>(kind: K, sessionId?: string): Array<Extract<acp.SessionUpdate, { sessionUpdate: K }>>;
  /** Close stdin and wait for the process to exit. */
  close(): Promise<number | null>;
}

export function startAcp(options: AcpOptions): AcpRun {
  const child = spawn(process.execPath, [AI_BIN, '--acp', ...(options.args ?? [])], {
    env: options.env,
    cwd: options.cwd,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let err = '';
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const agentLines: string[] = [];
  const clientLines: string[] = [];
  let partial = '';
  const readable = new ReadableStream<Uint8Array>({
    start(controller) {
      child.stdout!.on('data', (d: Buffer) => {
        partial += d.toString('utf8');
        const lines = partial.split('\n');
        partial = lines.pop() ?? '';
        for (const l of lines) if (l.trim()) agentLines.push(l);
        controller.enqueue(new Uint8Array(d));
      });
      child.stdout!.once('end', () => controller.close());
    },
  });
  const writable = new WritableStream<Uint8Array>({
    write(chunk) {
      for (const l of Buffer.from(chunk).toString('utf8').split('\n')) if (l.trim()) clientLines.push(l);
      return new Promise<void>((resolve) => (child.stdin!.writable ? child.stdin!.write(chunk, () => resolve()) : resolve()));
    },
  });
  const updates: acp.SessionNotification[] = [];
  const permissions: acp.RequestPermissionRequest[] = [];
  const writes: acp.WriteTextFileRequest[] = [];
  const answer: Answer = options.answer ?? (() => ({ outcome: { outcome: 'selected', optionId: 'reject' } }));
  let app = acp
    .client({ name: 'test-editor' })
    .onNotification(acp.methods.client.session.update, ({ params }) => void updates.push(params))
    .onRequest(acp.methods.client.session.requestPermission, async ({ params }) => {
      permissions.push(params);
      return answer(params);
    });
  const buffers = options.buffers;
  if (buffers) {
    app = app
      .onRequest(acp.methods.client.fs.readTextFile, ({ params }) => {
        const text = buffers.get(params.path);
        if (text === undefined) throw acp.RequestError.resourceNotFound(params.path);
        return { content: text };
      })
      .onRequest(acp.methods.client.fs.writeTextFile, ({ params }) => {
        writes.push(params);
        buffers.set(params.path, params.content);
        return {};
      });
  }
  const connection = app.connect(
    acp.ndJsonStream(
      writable as unknown as globalThis.WritableStream<Uint8Array>,
      readable as unknown as globalThis.ReadableStream<Uint8Array>,
    ),
  );
  const run: AcpRun = {
    child,
    agent: connection.agent,
    updates,
    permissions,
    writes,
    agentLines,
    clientLines,
    stderr: () => err,
    initialize: () =>
      connection.agent.request(acp.methods.agent.initialize, {
        protocolVersion: acp.PROTOCOL_VERSION,
        clientCapabilities: { fs: { readTextFile: !!buffers, writeTextFile: !!buffers }, terminal: false },
        clientInfo: { name: 'test-editor', version: '1.0.0' },
      }),
    said: (sessionId) =>
      updates
        .filter((u) => u.sessionId === sessionId && u.update.sessionUpdate === 'agent_message_chunk')
        .map((u) => (u.update as { content: { type: string; text?: string } }).content.text ?? '')
        .join(''),
    of: (kind, sessionId) =>
      updates.filter((u) => u.update.sessionUpdate === kind && (!sessionId || u.sessionId === sessionId)).map((u) => u.update) as never,
    async close() {
      child.stdin!.end();
      const code = await exited;
      connection.close();
      return code;
    },
  };
  return run;
}
