import { createAiFixture, startPty, useFixture, type AiFixture, type AiFixtureOptions, type PtyOptions, type PtyTerminal } from '@holic512/testkit';
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
}

/** `node bin/ai.js args` in a pseudo-terminal. */
export function startAi(args: string[], options: PtyOptions): PtySession {
  const session = startPty(process.execPath, [AI_BIN, ...args], options);
  return Object.assign(session, {
    waitIdle: (timeoutMs?: number) => session.waitFor(/ {2}· {2}\/help/, timeoutMs),
    send: (text: string) => session.write(text + KEY.enter),
    quit: () => {
      session.write('/exit' + KEY.enter);
      return session.exited;
    },
  });
}

/** The testkit's AI fixture (docs: packages/testkit) with models `test-low` / `test-high`, a
 * 30 s timeout, colours left to the terminal, and `start`, which runs `ai` in a pty that
 * `cleanup` kills and waits for. */
export interface PtyFixture extends AiFixture {
  start(args?: string[], extraEnv?: NodeJS.ProcessEnv): PtySession;
  /** `start`, then wait for the prompt. */
  ready(args?: string[], extraEnv?: NodeJS.ProcessEnv): Promise<PtySession>;
}

export async function createPtyFixture(options: AiFixtureOptions = {}): Promise<PtyFixture> {
  const fx = await createAiFixture({ ...options, profile: { low_model: 'test-low', high_model: 'test-high', timeout: 30000, ...options.profile } });
  delete fx.env.NO_COLOR;
  delete fx.env.FORCE_COLOR;
  const start = (args = ['-i'], extraEnv: NodeJS.ProcessEnv = {}): PtySession => {
    const s = startAi(args, { env: { ...fx.env, ...extraEnv }, cwd: fx.cwd });
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
export const usePtyFixture = (options: AiFixtureOptions = {}): PtyFixture => useFixture(() => createPtyFixture(options));

export const chat = (message: string, format?: 'plain' | 'markdown') => ({
  json: { type: 'chat', message, ...(format ? { data: { format } } : {}) },
});
export const cmd = (message: string, ...commands: Array<Record<string, unknown>>) => ({
  json: { type: 'cmd', message, data: { cwd: null, commands } },
});
