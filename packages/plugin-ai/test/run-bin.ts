import { runProcess } from '@holic512/testkit';
import * as path from 'path';

export const AI_BIN = path.resolve(__dirname, '..', 'bin', 'ai.js');

export interface BinResult {
  code: number | null;
  stdout: string;
  stderr: string;
  /** stdout parsed as JSON lines (only lines that parse). */
  events: Array<Record<string, any>>;
}

/** Run `node bin/ai.js ...args` to completion; `input` is written to stdin, which is then closed. */
export async function runAi(args: string[], options: { env: NodeJS.ProcessEnv; cwd: string; input?: string }): Promise<BinResult> {
  const result = await runProcess(process.execPath, [AI_BIN, ...args], { env: options.env, cwd: options.cwd, input: options.input ?? '' });
  const events: Array<Record<string, any>> = [];
  for (const line of result.stdout.split('\n')) {
    if (!line.trim()) continue;
    try {
      events.push(JSON.parse(line));
    } catch {
      // human output: not an event
    }
  }
  return { ...result, events };
}
