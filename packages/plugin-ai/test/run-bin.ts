import { spawn } from 'child_process';
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
export function runAi(args: string[], options: { env: NodeJS.ProcessEnv; cwd: string; input?: string }): Promise<BinResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [AI_BIN, ...args], { env: options.env, cwd: options.cwd, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => {
      const events: Array<Record<string, any>> = [];
      for (const line of stdout.split('\n')) {
        if (!line.trim()) continue;
        try {
          events.push(JSON.parse(line));
        } catch {
          // human output: not an event
        }
      }
      resolve({ code, stdout, stderr, events });
    });
    child.stdin.end(options.input ?? '');
  });
}
