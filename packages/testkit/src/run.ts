import { spawn } from 'child_process';

export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Run `file args` to completion and collect its output. stdin is `input` (then closed), or
 * none at all when no input is given. */
export function runProcess(
  file: string,
  args: string[],
  options: { env: NodeJS.ProcessEnv; cwd?: string; input?: string },
): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, {
      env: options.env,
      cwd: options.cwd,
      stdio: [options.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout!.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin?.end(options.input);
  });
}
