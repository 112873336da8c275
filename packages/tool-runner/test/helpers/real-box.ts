import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { createSandbox, exec, type ExecResult, type Sandbox } from '../../src';

/** Where a test of the real sandbox works: a workspace, and a home with the SlothTool home inside. */
export interface BoxPlace {
  ws: string;
  home: string;
}

/** A fresh temp folder (its real path: tmp may be a link) with a home and its workspace `home/proj` made; remove `root` after. */
export function makeBoxPlace(prefix: string): BoxPlace & { root: string } {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
  const home = path.join(root, 'home');
  const ws = path.join(home, 'proj');
  fs.mkdirSync(ws, { recursive: true });
  return { root, home, ws };
}

/** This process's environment with HOME set to the test's home, and the SlothTool home in it. */
export const homeEnv = (home: string): NodeJS.ProcessEnv => ({ ...process.env, HOME: home, SLOTHTOOL_HOME: path.join(home, '.slothtool') });

/** The real sandbox the runner builds for this workspace and home; `options` as createSandbox takes them. */
export const realBox = ({ ws, home }: BoxPlace, options: Partial<Parameters<typeof createSandbox>[0]> = {}): Sandbox =>
  createSandbox({ workspace: ws, home, slothtoolHome: path.join(home, '.slothtool'), env: homeEnv(home), ...options });

/** Runs `program args` in `box` as a step at `level` would run in the workspace (no network unless asked). */
export async function runInBox(
  box: Sandbox,
  { ws, home }: BoxPlace,
  step: { level: 'L0' | 'L1'; program: string; args: string[]; network?: boolean; timeoutMs?: number },
): Promise<ExecResult> {
  const w = box.wrap(step.level, step.network ?? false, ws, step.program, step.args)!;
  return exec({ ...w, cwd: ws, env: homeEnv(home), timeoutMs: step.timeoutMs ?? 30_000 });
}
