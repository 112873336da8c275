import {
  createAiFixture,
  startPty,
  useFixture,
  type AiFixture,
  type AiFixtureOptions,
  type PtyOptions,
  type PtyTerminal,
} from '@holic512/testkit';
import * as path from 'path';

// `node bin/ai.js` in the testkit's pseudo-terminal (startPty): type keys, read what it drew.

export const AI_BIN = path.resolve(__dirname, '..', '..', 'bin', 'ai.js');
export const KEY = { enter: '\r', up: '\x1b[A', down: '\x1b[B', ctrlC: '\x03', ctrlD: '\x04', esc: '\x1b' };

export interface PtySession extends PtyTerminal {
  /** Wait until the prompt is idle again (its status line ends with "/help" only then). */
  waitIdle(timeoutMs?: number): Promise<void>;
  /** Type `text` and Enter. */
  send(text: string): void;
  /** Type `/exit` and Enter; resolves with the exit code. */
  quit(): Promise<number>;
  /** Ctrl+D at the prompt; resolves with the exit code. */
  leave(): Promise<number>;
  /** Type `text` and Enter, then wait for each of `shows` in turn. */
  submit(text: string, ...shows: Array<string | RegExp>): Promise<void>;
  /** Type `keys` as they are (no Enter added), then wait for each of `shows` in turn. */
  press(keys: string, ...shows: Array<string | RegExp>): Promise<void>;
  /** One exchange: send `prompt`, wait for `reply`, then until the prompt is idle again. */
  turn(prompt: string, reply: string | RegExp): Promise<void>;
  /** Answer the question about a step once it takes keys (its footer says "Esc declines"):
   * wait for `question` (default: an L1 step's), then type `keys`. */
  answerStep(keys: string, question?: string | RegExp): Promise<void>;
}

/** `node bin/ai.js args` in a pseudo-terminal. */
export function startAi(args: string[], options: PtyOptions): PtySession {
  const session = startPty(process.execPath, [AI_BIN, ...args], options);
  const waitIdle = (timeoutMs?: number) => session.waitFor(/ {2}· {2}\/help/, timeoutMs);
  const send = (text: string) => session.write(text + KEY.enter);
  return Object.assign(session, {
    waitIdle,
    send,
    quit: () => {
      send('/exit');
      return session.exited;
    },
    leave: () => {
      session.write(KEY.ctrlD);
      return session.exited;
    },
    submit: (text: string, ...shows: Array<string | RegExp>) => {
      send(text);
      return session.waitForAll(shows);
    },
    press: (keys: string, ...shows: Array<string | RegExp>) => {
      session.write(keys);
      return session.waitForAll(shows);
    },
    turn: async (prompt: string, reply: string | RegExp) => {
      send(prompt);
      await session.waitFor(reply);
      await waitIdle();
    },
    answerStep: async (keys: string, question: string | RegExp = 'Allow this L1 step?') => {
      await session.waitFor(question);
      await session.answer('Esc declines', keys);
    },
  });
}

/** The testkit's AI fixture (docs: packages/testkit) with models `test-low` / `test-high`, a
 * 30 s timeout, colours left to the terminal, and `start`, which runs `ai` in a pty that
 * `cleanup` kills and waits for. */
export interface PtyFixture extends AiFixture {
  start(args?: string[], extraEnv?: NodeJS.ProcessEnv, size?: { cols: number; rows: number }): PtySession;
  /** `start`, then wait for the prompt. */
  ready(args?: string[], extraEnv?: NodeJS.ProcessEnv): Promise<PtySession>;
}

/** The AI fixture's options; its server is the OpenAI-compatible one. */
export type PtyFixtureOptions = Omit<AiFixtureOptions, 'ollama'>;

export async function createPtyFixture(options: PtyFixtureOptions = {}): Promise<PtyFixture> {
  const profile =
    options.profile === false ? false : { low_model: 'test-low', high_model: 'test-high', timeout: 30000, ...options.profile };
  const fx = await createAiFixture({ ...options, profile });
  delete fx.env.NO_COLOR;
  delete fx.env.FORCE_COLOR;
  const start = (args = ['-i'], extraEnv: NodeJS.ProcessEnv = {}, size?: { cols: number; rows: number }): PtySession => {
    const s = startAi(args, { env: { ...fx.env, ...extraEnv }, cwd: fx.cwd, ...size });
    fx.onCleanup(() => {
      s.kill();
      return s.exited;
    });
    return s;
  };
  const ready = async (args?: string[], extraEnv?: NodeJS.ProcessEnv): Promise<PtySession> => {
    const s = start(args, extraEnv);
    await s.waitFor('› ');
    return s;
  };
  return Object.assign(fx, { start, ready });
}

/** `createPtyFixture` before each test, `cleanup` (which stops its terminals) after it. */
export const usePtyFixture = (options: PtyFixtureOptions = {}): PtyFixture => useFixture(() => createPtyFixture(options));

export const chat = (message: string, format?: 'plain' | 'markdown') => ({
  json: { type: 'chat', message, ...(format ? { data: { format } } : {}) },
});
export const cmd = (message: string, ...commands: Array<Record<string, unknown>>) => ({
  json: { type: 'cmd', message, data: { cwd: null, commands } },
});
