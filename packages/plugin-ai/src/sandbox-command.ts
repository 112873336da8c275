import * as fs from 'fs';
import * as net from 'net';
import * as os from 'os';
import * as path from 'path';
import { loadToolRunner } from './app';
import { t, type Lang, type MessageKey } from './i18n';
import { stringWidth } from './interactive/width';

/**
 * `slothtool ai sandbox`: check the OS sandbox for real, in a scratch folder: a write outside
 * the workspace is refused, L0 has no network, a planted secret is hidden, the workspace is
 * readable, `.git/hooks` stays read-only at L1. Exit 0 only when every check holds.
 */
interface Check {
  key: MessageKey;
  ok: boolean;
  detail: string;
}

interface SandboxModule {
  createSandbox(options: { workspace: string; home: string; slothtoolHome: string; tmpDir: string; mode?: 'auto' }): {
    status(): { kind: string; reason?: string };
    wrap(level: 'L0' | 'L1', network: boolean, cwd: string, program: string, args: string[]): { program: string; args: string[] } | undefined;
  };
  exec(options: { program: string; args: string[]; cwd: string; timeoutMs?: number; env?: NodeJS.ProcessEnv }): Promise<{ exitCode: number | null; stdoutTail: string; stderrTail: string }>;
}

function firstLine(text: string): string {
  return text.trim().split('\n')[0]?.slice(0, 100) ?? '';
}

export async function runSandboxCheck(lang: Lang, io: { stdout?: NodeJS.WritableStream } = {}): Promise<number> {
  const out = io.stdout ?? process.stdout;
  const say = (line: string) => void out.write(line + '\n');
  const tr = loadToolRunner() as unknown as SandboxModule;
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'slothtool-sandbox-check-')));
  const server = net.createServer((s) => {
    s.on('error', () => undefined);
    s.end('hello');
  });
  try {
    const ws = path.join(root, 'workspace');
    const home = path.join(root, 'home');
    const tmpDir = path.join(root, 'tmp');
    const secret = `planted-secret-${process.pid}`;
    for (const dir of [path.join(ws, '.git', 'hooks'), path.join(home, '.ssh'), tmpDir]) fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(ws, 'README.md'), 'workspace file\n');
    fs.writeFileSync(path.join(home, '.ssh', 'id_check'), secret);
    const box = tr.createSandbox({ workspace: ws, home, slothtoolHome: path.join(home, '.slothtool'), tmpDir });
    const status = box.status();
    if (status.kind === 'none') {
      say(t(lang, 'sandboxCheckNone', { reason: status.reason ?? '?' }));
      return 1;
    }
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    const port = (server.address() as net.AddressInfo).port;
    const run = async (level: 'L0' | 'L1', program: string, args: string[]) => {
      const w = box.wrap(level, false, ws, program, args)!;
      return tr.exec({ program: w.program, args: w.args, cwd: ws, timeoutMs: 15_000, env: { ...process.env, HOME: home } });
    };
    const checks: Check[] = [];
    const outside = path.join(home, 'written-outside');
    const write = await run('L1', 'touch', [outside]);
    checks.push({ key: 'sandboxCheckWrite', ok: write.exitCode !== 0 && !fs.existsSync(outside), detail: firstLine(write.stderrTail) });
    const connect = `require('net').connect(${port},'127.0.0.1').on('connect',()=>process.exit(0)).on('error',(e)=>{console.error(e.code);process.exit(3)})`;
    const netRun = await run('L0', process.execPath, ['-e', connect]);
    checks.push({ key: 'sandboxCheckNetwork', ok: netRun.exitCode === 3, detail: firstLine(netRun.stderrTail) });
    const read = await run('L0', 'cat', [path.join(home, '.ssh', 'id_check')]);
    checks.push({ key: 'sandboxCheckSecret', ok: !read.stdoutTail.includes(secret), detail: firstLine(read.stderrTail) });
    const ok = await run('L0', 'cat', ['README.md']);
    checks.push({ key: 'sandboxCheckWorkspace', ok: ok.exitCode === 0 && ok.stdoutTail.includes('workspace file'), detail: firstLine(ok.stderrTail) });
    const hook = path.join(ws, '.git', 'hooks', 'pre-commit');
    const hookRun = await run('L1', 'touch', [hook]);
    checks.push({ key: 'sandboxCheckHooks', ok: hookRun.exitCode !== 0 && !fs.existsSync(hook), detail: firstLine(hookRun.stderrTail) });
    say(t(lang, 'sandboxCheckHeader', { kind: status.kind }));
    const width = Math.max(...checks.map((c) => stringWidth(t(lang, c.key))));
    for (const c of checks) {
      const label = t(lang, c.key);
      say(`  ${c.ok ? '✓' : '✗'} ${label}${' '.repeat(width - stringWidth(label))}  ${c.detail}`);
    }
    const all = checks.every((c) => c.ok);
    say(t(lang, all ? 'sandboxCheckAllOk' : 'sandboxCheckFailed'));
    return all ? 0 : 1;
  } finally {
    server.close();
    fs.rmSync(root, { recursive: true, force: true });
  }
}
