import fs = require('fs');
import net = require('net');
import os = require('os');
import path = require('path');
import type { SandboxStatus } from '@holic512/tool-runner';
import { loadToolRunner } from './app';
import { t, type Lang, type MessageKey } from '../i18n';
import { stringWidth, wrapWords } from '../interactive/width';
import { degradedText, hardeningChecks } from './sandbox-hardening';

/**
 * `slothtool ai sandbox`: check the OS sandbox for real, in a scratch folder with a home of its
 * own: a write outside the workspace is refused, L0 has no network, a planted secret is hidden,
 * the home is private at L0 (a planted history and an unknown dotfile unreadable, `.gitconfig`
 * readable), the workspace is readable, `.git/hooks` stays read-only at L1, the resource limits
 * are in force at L0; with bubblewrap also what a step can do to the sandbox itself (no
 * capabilities, no_new_privs, the seccomp filter, a remount and an unmount that fail:
 * sandbox-hardening.ts). Exit 0 only when every check holds.
 */
export interface Check {
  key: MessageKey;
  ok: boolean;
  detail: string;
}

function firstLine(text: string): string {
  return text.trim().split('\n')[0]?.slice(0, 300) ?? '';
}

/** `Max cpu time  120  125  seconds` → the soft limit of that row of /proc/self/limits. */
function softLimit(limits: string, row: string): string | undefined {
  const line = limits.split('\n').find((l) => l.startsWith(row));
  return line?.slice(row.length).trim().split(/\s+/)[0];
}

/**
 * Limits not in force that do not fail the check, said instead: macOS has no way to set them, and
 * turned off is the user's choice. Otherwise prlimit is missing.
 */
const LIMITS_OFF_BY_CHOICE: Partial<Record<NonNullable<SandboxStatus['limitsOff']>, MessageKey>> = {
  seatbelt: 'sandboxLimitsSeatbelt',
  off: 'sandboxLimitsOff',
};

/** Whether /proc/self/limits, read inside the L0 sandbox, shows the limits the status says are in force. */
function limitsCheck(lang: Lang, status: SandboxStatus, procLimits: string): Check {
  const key: MessageKey = 'sandboxCheckLimits';
  if (!status.limits) {
    const why = status.limitsOff && LIMITS_OFF_BY_CHOICE[status.limitsOff];
    return { key, ok: why !== undefined, detail: t(lang, why ?? 'sandboxLimitsNoPrlimit') };
  }
  const l = status.limits;
  const want = (n: number, scale: number) => (n > 0 ? String(n * scale) : 'unlimited');
  const ok =
    softLimit(procLimits, 'Max data size') === want(l.memoryMb, 1024 * 1024) &&
    softLimit(procLimits, 'Max cpu time') === want(l.cpuSeconds, 1) &&
    softLimit(procLimits, 'Max processes') === want(l.processes, 1);
  const shown = t(lang, 'sandboxLimitsShown', { memory: l.memoryMb, cpu: l.cpuSeconds, processes: l.processes });
  return { key, ok, detail: status.limitsOff === 'root' ? `${shown}${lang === 'zh' ? '；' : '; '}${t(lang, 'sandboxLimitsRoot')}` : shown };
}

/** The check rows, each wrapped at spaces to the terminal's width, continuation rows under the detail. */
export function renderChecks(lang: Lang, checks: Check[], columns: number): string[] {
  const width = Math.max(...checks.map((c) => stringWidth(t(lang, c.key))));
  const indent = 4 + width + 2;
  const lines: string[] = [];
  for (const c of checks) {
    const label = t(lang, c.key);
    const head = `  ${c.ok ? '✓' : '✗'} ${label}`;
    // Beside the labels when there is room for every word of it, else under them.
    const room = columns - indent;
    const words = c.detail.split(/ +/);
    if (!c.detail) lines.push(head);
    else if (room >= 40 && words.every((w) => stringWidth(w) <= room)) {
      const rows = wrapWords(c.detail, room);
      lines.push(`${head}${' '.repeat(width - stringWidth(label))}  ${rows[0]}`, ...rows.slice(1).map((r) => `${' '.repeat(indent)}${r}`));
    } else lines.push(head, ...wrapWords(c.detail, Math.max(20, columns - 6)).map((r) => `      ${r}`));
  }
  return lines;
}

/** A home and workspace to check the sandbox against: a planted secret, history and dotfile, a
 * harmless allowed file, a workspace file and git hooks folder. */
function plantCheckHome(root: string): { home: string; ws: string; tmpDir: string; secret: string } {
  const home = path.join(root, 'home');
  // The workspace inside the home, as most projects are: it stays visible when the home is private.
  const ws = path.join(home, 'workspace');
  const tmpDir = path.join(root, 'tmp');
  const secret = `planted-secret-${process.pid}`;
  for (const dir of [path.join(ws, '.git', 'hooks'), path.join(home, '.ssh'), path.join(home, '.some-new-tool'), tmpDir])
    fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(ws, 'README.md'), 'workspace file\n');
  fs.writeFileSync(path.join(home, '.ssh', 'id_check'), secret);
  fs.writeFileSync(path.join(home, '.bash_history'), `${secret}-history\n`);
  fs.writeFileSync(path.join(home, '.some-new-tool', 'token'), `${secret}-dotfile\n`);
  fs.writeFileSync(path.join(home, '.gitconfig'), '[user]\n\tname = sandbox-check\n');
  return { home, ws, tmpDir, secret };
}

/** Runs a program in the sandbox at a level, granted the network or not (the workspace as cwd, the planted home as HOME). */
type BoxRun = (
  level: 'L0' | 'L1',
  program: string,
  args: string[],
  network?: boolean,
) => Promise<{ exitCode: number | null; stdoutTail: string; stderrTail: string }>;

/**
 * Node code that connects to this machine's 127.0.0.1 at `port`: exit 0 connected, 3 not (the
 * error's code on stderr). The address is built at run time, so the command names no local service.
 */
const connectLoopback = (port: number): string =>
  `require('net').connect(${port},[127,0,0,1].join('.')).on('connect',()=>process.exit(0)).on('error',(e)=>{console.error(e.code);process.exit(3)})`;

/** What the sandbox must contain: writes outside, the network, secrets and the private home; and what it must allow. */
async function containmentChecks(
  run: BoxRun,
  at: { root: string; home: string; ws: string; secret: string; port: number },
): Promise<Check[]> {
  const { root, home, ws, secret, port } = at;
  const checks: Check[] = [];
  const outside = path.join(root, 'written-outside');
  const write = await run('L1', 'touch', [outside]);
  checks.push({ key: 'sandboxCheckWrite', ok: write.exitCode !== 0 && !fs.existsSync(outside), detail: firstLine(write.stderrTail) });
  const netRun = await run('L0', process.execPath, ['-e', connectLoopback(port)]);
  checks.push({ key: 'sandboxCheckNetwork', ok: netRun.exitCode === 3, detail: firstLine(netRun.stderrTail) });
  const read = await run('L0', 'cat', [path.join(home, '.ssh', 'id_check')]);
  checks.push({ key: 'sandboxCheckSecret', ok: !read.stdoutTail.includes(secret), detail: firstLine(read.stderrTail) });
  const planted = await run('L0', 'cat', [path.join(home, '.bash_history'), path.join(home, '.some-new-tool', 'token')]);
  checks.push({ key: 'sandboxCheckPrivateHome', ok: !planted.stdoutTail.includes(secret), detail: firstLine(planted.stderrTail) });
  const allowed = await run('L0', 'cat', [path.join(home, '.gitconfig')]);
  checks.push({
    key: 'sandboxCheckAllowed',
    ok: allowed.exitCode === 0 && allowed.stdoutTail.includes('sandbox-check'),
    detail: firstLine(allowed.stderrTail),
  });
  const ok = await run('L0', 'cat', ['README.md']);
  checks.push({
    key: 'sandboxCheckWorkspace',
    ok: ok.exitCode === 0 && ok.stdoutTail.includes('workspace file'),
    detail: firstLine(ok.stderrTail),
  });
  const hook = path.join(ws, '.git', 'hooks', 'pre-commit');
  const hookRun = await run('L1', 'touch', [hook]);
  checks.push({ key: 'sandboxCheckHooks', ok: hookRun.exitCode !== 0 && !fs.existsSync(hook), detail: firstLine(hookRun.stderrTail) });
  return checks;
}

type LoopbackOff = Extract<NonNullable<SandboxStatus['loopback']>, { isolated: false }>;

/** What to do about a jail the user can fix (/dev/net/tun closed or absent); without a cause, only why. */
const LOOPBACK_CAUSE: Record<NonNullable<LoopbackOff['cause']>, MessageKey> = {
  'tun-denied': 'sandboxLoopbackTunDenied',
  'tun-missing': 'sandboxLoopbackTunMissing',
};

/** Why steps granted the network share the host's: the reason, and what to do when the user can fix it. */
export function loopbackOff(lang: Lang, loopback: LoopbackOff): string {
  return t(lang, loopback.cause ? LOOPBACK_CAUSE[loopback.cause] : 'sandboxLoopbackShared', { why: loopback.why });
}

/**
 * Whether a step granted the network is kept off this machine's loopback (tool-runner net-jail.ts):
 * the listener on 127.0.0.1 out of its reach, the address built at run time so the command names
 * no local service. Where slirp4netns is missing the check says so and does not fail (the network
 * is shared, as it was before the jail); where it is there, a reachable listener fails it.
 */
async function loopbackCheck(lang: Lang, run: BoxRun, status: () => SandboxStatus, port: number): Promise<Check> {
  const key: MessageKey = 'sandboxCheckLoopback';
  const r = await run('L1', process.execPath, ['-e', connectLoopback(port)], true);
  const loopback = status().loopback;
  if (loopback && !loopback.isolated) return { key, ok: true, detail: loopbackOff(lang, loopback) };
  return { key, ok: r.exitCode === 3, detail: firstLine(r.stderrTail) };
}

export async function runSandboxCheck(lang: Lang, io: { stdout?: NodeJS.WritableStream & { columns?: number } } = {}): Promise<number> {
  const out = io.stdout ?? process.stdout;
  const say = (line: string) => void out.write(line + '\n');
  const tr = loadToolRunner();
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'slothtool-sandbox-check-')));
  const server = net.createServer((s) => {
    s.on('error', () => undefined);
    s.end('hello');
  });
  try {
    const { home, ws, tmpDir, secret } = plantCheckHome(root);
    const box = tr.createSandbox({ workspace: ws, home, slothtoolHome: path.join(home, '.slothtool'), tmpDir });
    const status = box.status();
    if (status.kind === 'none') {
      say(t(lang, 'sandboxCheckNone', { reason: status.reason ?? '?' }));
      return 1;
    }
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    const port = (server.address() as net.AddressInfo).port;
    const run: BoxRun = async (level, program, args, network = false) => {
      const w = box.wrap(level, network, ws, program, args)!;
      return tr.exec({ ...w, cwd: ws, timeoutMs: 15_000, env: { ...process.env, HOME: home } });
    };
    const checks = await containmentChecks(run, { root, home, ws, secret, port });
    const procLimits = status.limits ? (await run('L0', 'cat', ['/proc/self/limits'])).stdoutTail : '';
    checks.push(limitsCheck(lang, status, procLimits));
    if (status.kind === 'bwrap') {
      checks.push(await loopbackCheck(lang, run, () => box.status(), port));
      const findProgram = (name: string) => tr.findProgram(name, process.env);
      checks.push(
        ...(await hardeningChecks({
          lang,
          root,
          home,
          secret,
          degraded: status.degraded ?? [],
          run,
          parseInside: tr.parseInside,
          findProgram,
        })),
      );
    }
    say(t(lang, 'sandboxCheckHeader', { kind: status.kind }));
    if (status.degraded?.length) say(t(lang, 'sandboxDegraded', { what: degradedText(lang, status.degraded) }));
    for (const line of renderChecks(lang, checks, out.columns ?? 100)) say(line);
    const all = checks.every((c) => c.ok);
    say(t(lang, all ? 'sandboxCheckAllOk' : 'sandboxCheckFailed'));
    return all ? 0 : 1;
  } finally {
    server.close();
    fs.rmSync(root, { recursive: true, force: true });
  }
}
