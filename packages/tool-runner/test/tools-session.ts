import { promises as fsp } from 'fs';
import * as os from 'os';
import * as path from 'path';
import { createToolRunner, type ToolRunnerOptions } from '../src';
import { createDefaultExecDeps } from '../src/exec';
import { FileJournal, ReadTracker } from '../src/file-journal';
import type { Resolver } from '../src/net-guard';
import { createDefaultFsDeps } from '../src/tools/fs-common';
import { createDefaultProcDeps, ProcessTable } from '../src/tools/proc';
import type { SessionToolContext, ToolSession } from '../src/tools/session';
import { realDir, resolvePath } from '../src/workspace';

/** A temp folder with a workspace inside and a place outside it. */
export async function tempWorld(): Promise<{ root: string; ws: string; outside: string; home: string; cleanup: () => Promise<void> }> {
  const root = realDir(await fsp.mkdtemp(path.join(os.tmpdir(), 'tr-tools-')));
  const ws = path.join(root, 'ws');
  const outside = path.join(root, 'outside');
  const home = path.join(root, 'home');
  for (const d of [ws, outside, home]) await fsp.mkdir(d, { recursive: true });
  return { root, ws, outside, home, cleanup: () => fsp.rm(root, { recursive: true, force: true }) };
}

/**
 * A runner that judges steps in a temp world's workspace and home, as `ai` would (no OS sandbox;
 * a question is declined): for tests of verdicts over real files and links.
 */
export function judgingRunner(
  world: { ws: string; home: string },
  extra: Partial<ToolRunnerOptions> = {},
): ReturnType<typeof createToolRunner> {
  return createToolRunner({
    confirm: () => ({ action: 'decline' }),
    cwd: world.ws,
    workspace: world.ws,
    lang: 'en',
    env: { PATH: process.env.PATH, HOME: world.home, SLOTHTOOL_HOME: path.join(world.home, '.slothtool') },
    sandbox: 'off',
    ...extra,
  });
}

/** A session over real temp folders, the way the runner builds one. */
export function testSession(ws: string, home: string, over: Partial<ToolSession> = {}, resolver?: Resolver): ToolSession {
  const exec = createDefaultExecDeps();
  return {
    workspace: ws,
    home,
    slothtoolHome: path.join(home, '.slothtool'),
    resolve: (p) => resolvePath(p, ws, { home, slothtoolHome: path.join(home, '.slothtool') }),
    reads: new ReadTracker(),
    journal: new FileJournal(),
    procs: new ProcessTable(createDefaultProcDeps(exec), { killGraceMs: 500 }),
    fs: createDefaultFsDeps(),
    allowPrivateNetwork: false,
    http: {
      timeoutMs: 10000,
      maxBytes: 64 * 1024,
      maxRedirects: 5,
      resolve: resolver ?? (async () => [{ address: '127.0.0.1', family: 4 }]),
    },
    ...over,
  };
}

let counter = 0;
export function testCtx(session: ToolSession, extra: Partial<SessionToolContext> = {}): SessionToolContext {
  return {
    id: `cmd_${String(++counter).padStart(3, '0')}`,
    cwd: session.workspace,
    env: process.env,
    lang: 'en',
    deps: undefined as never,
    registry: { plugins: {} },
    timeoutMs: 10000,
    maxOutputBytes: 65536,
    decision: { level: 'L0', by: 'policy', rules: [] },
    allowedRoots: [],
    session,
    ...extra,
  };
}
