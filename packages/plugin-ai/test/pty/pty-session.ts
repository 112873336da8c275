import { createTempHome, packageDir, startScriptedServer, type ScriptedServer, type TempHome } from '@holic512/testkit';
import { promises as fs } from 'fs';
import * as path from 'path';

// A real pseudo-terminal around `node bin/ai.js`: type keys, read what it drew. No sleeps:
// waitFor resolves when the text shows up and fails (with the screen's tail) after a bound.
const pty = require('@lydell/node-pty') as typeof import('@lydell/node-pty');

export const AI_BIN = path.resolve(__dirname, '..', '..', 'bin', 'ai.js');
export const KEY = { enter: '\r', up: '\x1b[A', down: '\x1b[B', ctrlC: '\x03', ctrlD: '\x04', esc: '\x1b' };

const ANSI = /\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[=>]/g;

export interface PtySession {
  /** Everything written to the terminal, escape sequences included. */
  raw(): string;
  /** Everything written, escape sequences removed. */
  text(): string;
  write(data: string): void;
  resize(cols: number, rows: number): void;
  /** Wait until `what` appears after the point the previous wait matched. */
  waitFor(what: string | RegExp, timeoutMs?: number): Promise<void>;
  /** Wait until the prompt is idle again (its status line ends with "/help" only then). */
  waitIdle(timeoutMs?: number): Promise<void>;
  /** Resolves with the exit code. */
  exited: Promise<number>;
  /** The pid of the `ai` process. */
  pid: number;
  kill(): void;
}

export function startAi(args: string[], options: { env: NodeJS.ProcessEnv; cwd: string; cols?: number; rows?: number }): PtySession {
  const term = pty.spawn(process.execPath, [AI_BIN, ...args], {
    cols: options.cols ?? 100,
    rows: options.rows ?? 30,
    cwd: options.cwd,
    env: { ...options.env, TERM: 'xterm-256color' } as Record<string, string>,
  });
  let raw = '';
  let seen = 0;
  let alive = true;
  const waiters = new Set<() => void>();
  term.onData((d) => {
    raw += d;
    for (const w of [...waiters]) w();
  });
  const exited = new Promise<number>((resolve) =>
    term.onExit(({ exitCode }) => {
      alive = false;
      for (const w of [...waiters]) w();
      resolve(exitCode);
    }),
  );
  const text = () => raw.replace(ANSI, '');
  return {
    raw: () => raw,
    text,
    write: (data) => term.write(data),
    resize: (cols, rows) => term.resize(cols, rows),
    exited,
    pid: term.pid,
    kill: () => {
      if (alive) term.kill();
    },
    waitIdle(timeoutMs) {
      return this.waitFor(/ {2}· {2}\/help/, timeoutMs);
    },
    waitFor(what, timeoutMs = 20_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const all = text();
          let end = -1;
          if (typeof what === 'string') {
            const at = all.indexOf(what, seen);
            if (at >= 0) end = at + what.length;
          } else {
            const re = new RegExp(what.source, what.flags.replace('g', '') + 'g');
            re.lastIndex = seen;
            const m = re.exec(all);
            if (m) end = m.index + m[0].length;
          }
          if (end >= 0) {
            waiters.delete(check);
            clearTimeout(timer);
            seen = end;
            resolve();
            return true;
          }
          if (!alive) {
            waiters.delete(check);
            clearTimeout(timer);
            reject(new Error(`process exited before ${String(what)} appeared. Screen tail:\n${all.slice(-1500)}`));
            return true;
          }
          return false;
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`timed out waiting for ${String(what)}. Screen tail:\n${text().slice(-1500)}`));
        }, timeoutMs);
        if (!check()) waiters.add(check);
      });
    },
  };
}

/** A temp home with this checkout's llm-base registered against a scripted server. */
export interface AiFixture {
  temp: TempHome;
  server: ScriptedServer;
  cwd: string;
  env: NodeJS.ProcessEnv;
  start(args?: string[], extraEnv?: NodeJS.ProcessEnv): PtySession;
  cleanup(): Promise<void>;
}

export async function createAiFixture(options: { language?: 'en' | 'zh'; aiConfig?: object } = {}): Promise<AiFixture> {
  const temp = await createTempHome({ language: options.language ?? 'en' });
  const server = await startScriptedServer();
  const cwd = path.join(temp.home, 'project');
  await fs.mkdir(cwd);
  await temp.registerPlugin('llm-base', packageDir('plugin-llm-base'));
  await temp.writeJson('plugin-configs/llm-base.json', {
    default_profile: 'local',
    profiles: { local: { base_url: server.baseURL, api_key: 'sk-test', low_model: 'test-low', high_model: 'test-high', timeout: 30000, max_retries: 0 } },
  });
  if (options.aiConfig) await temp.writeJson('plugin-configs/ai.json', options.aiConfig);
  const sessions: PtySession[] = [];
  const env = { ...temp.env };
  delete env.NO_COLOR;
  delete env.FORCE_COLOR;
  return {
    temp,
    server,
    cwd,
    env,
    start(args = ['-i'], extraEnv = {}) {
      const s = startAi(args, { env: { ...env, ...extraEnv }, cwd });
      sessions.push(s);
      return s;
    },
    async cleanup() {
      for (const s of sessions) s.kill();
      await Promise.all(sessions.map((s) => s.exited));
      await server.close();
      await temp.cleanup();
    },
  };
}

export const chat = (message: string, format?: 'plain' | 'markdown') => ({
  json: { type: 'chat', message, ...(format ? { data: { format } } : {}) },
});
export const cmd = (message: string, ...commands: Array<Record<string, unknown>>) => ({
  json: { type: 'cmd', message, data: { cwd: null, commands } },
});
