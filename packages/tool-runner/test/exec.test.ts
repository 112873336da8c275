import { processAlive, until } from '@holic512/testkit';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { exec, type ExecResult } from '../src/exec';
import { BoundedCapture, cutEndUtf8 } from '../src/capture';

const node = process.execPath;
const cwd = os.tmpdir();

/** Whether `pid` is gone within `ms` (checked every 20 ms). */
async function goneWithin(pid: number, ms: number): Promise<boolean> {
  for (const end = Date.now() + ms; Date.now() < end; await new Promise((r) => setTimeout(r, 20))) if (!processAlive(pid)) return true;
  return !processAlive(pid);
}

/** Runs `sh -c script`, which prints the pid of a process it leaves running; gives exec's result
 * and that pid. */
async function runPrintingPid(
  script: string,
  limits: { timeoutMs?: number; killGraceMs: number },
): Promise<{ r: ExecResult; pid: number }> {
  let pid = 0;
  const r = await exec({
    program: 'sh',
    args: ['-c', script],
    cwd,
    ...limits,
    onStdout: (s) => {
      pid = Number(s.trim());
    },
  });
  return { r, pid };
}

describe('exec', () => {
  test('runs a program with an argument vector, no shell', async () => {
    const r = await exec({ program: node, args: ['-e', 'console.log(process.argv[1])', '$(echo hi) > x; rm -rf /'], cwd });
    expect(r.exitCode).toBe(0);
    expect(r.stdoutTail).toBe('$(echo hi) > x; rm -rf /\n');
    expect(r.timedOut).toBe(false);
    expect(r.truncated).toBe(false);
  });

  test('stdin is closed', async () => {
    const r = await exec({
      program: node,
      args: ['-e', 'let n=0;process.stdin.on("data",d=>n+=d.length).on("end",()=>console.log("eof",n))'],
      cwd,
    });
    expect(r.stdoutTail).toBe('eof 0\n');
  });

  test('non-zero exit code and stderr', async () => {
    const r = await exec({ program: node, args: ['-e', 'console.error("bad"); process.exit(3)'], cwd });
    expect(r.exitCode).toBe(3);
    expect(r.stderrTail).toBe('bad\n');
  });

  test('ENOENT resolves with exit code 127', async () => {
    const r = await exec({ program: 'definitely-not-a-program-xyz', args: [], cwd });
    expect(r.exitCode).toBe(127);
    expect(r.error?.code).toBe('ENOENT');
  });

  test('EACCES resolves with exit code 126', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tr-exec-'));
    const file = path.join(dir, 'noexec.sh');
    fs.writeFileSync(file, '#!/bin/sh\necho hi\n', { mode: 0o644 });
    const r = await exec({ program: file, args: [], cwd: dir });
    fs.rmSync(dir, { recursive: true, force: true });
    expect(r.exitCode).toBe(126);
    expect(r.error?.code).toBe('EACCES');
  });

  const posix = process.platform === 'win32' ? test.skip : test;

  posix('time-out kills the whole process tree, including a grandchild ignoring SIGTERM', async () => {
    const script = 'trap "" TERM; sh -c \'trap "" TERM; while :; do sleep 1; done\' & echo $!; wait';
    // Long enough for the shell to print the grandchild's pid even on a loaded machine.
    const { r, pid: grandchild } = await runPrintingPid(script, { timeoutMs: 1500, killGraceMs: 200 });
    expect(r.timedOut).toBe(true);
    expect(r.exitCode).toBeNull();
    expect(r.signal).toBe('SIGKILL');
    expect(grandchild).toBeGreaterThan(0);
    expect(processAlive(grandchild)).toBe(false);
  });

  posix('a background grandchild holding the pipes is killed after the grace period', async () => {
    const { r, pid: grandchild } = await runPrintingPid('sleep 30 & echo $!', { killGraceMs: 100 });
    expect(r.exitCode).toBe(0);
    expect(r.timedOut).toBe(false);
    // The group was sent SIGKILL; it takes effect a moment later (a `sleep 30` left alone would
    // still be there long after the polls run out).
    await until(() => !processAlive(grandchild));
  });

  posix('a process that left the group does not keep exec waiting', async () => {
    const { r, pid: escaped } = await runPrintingPid('setsid sleep 30 & echo $!', { killGraceMs: 100 });
    expect(r.exitCode).toBe(0);
    expect(escaped).toBeGreaterThan(0);
    try {
      process.kill(escaped, 'SIGKILL');
    } catch {
      // already gone
    }
  });

  test('a missing cwd says so', async () => {
    const r = await exec({ program: node, args: ['-v'], cwd: path.join(os.tmpdir(), 'no-such-dir-xyz') });
    expect(r.exitCode).toBe(127);
    expect(r.error?.message).toContain('no-such-dir-xyz');
  });

  posix('abort kills the process group', async () => {
    const ac = new AbortController();
    let grandchild = 0;
    const r = await exec({
      program: 'sh',
      args: ['-c', 'sleep 30 & echo $!; wait'],
      cwd,
      signal: ac.signal,
      onStdout: (s) => {
        grandchild = Number(s.trim());
        ac.abort();
      },
    });
    expect(r.aborted).toBe(true);
    expect(r.timedOut).toBe(false);
    expect(r.signal).toBe('SIGTERM');
    // The group got SIGTERM then SIGKILL; on a loaded machine the grandchild may need a moment to go.
    expect(await goneWithin(grandchild, 2000)).toBe(true);
  });

  test('an already aborted signal never spawns', async () => {
    const ac = new AbortController();
    ac.abort();
    const r = await exec({ program: node, args: ['-e', ''], cwd, signal: ac.signal });
    expect(r.aborted).toBe(true);
    expect(r.exitCode).toBeNull();
  });

  test('huge output is bounded: head and tail kept', async () => {
    const code =
      'const b=Buffer.alloc(1<<20,97);process.stdout.write("START");for(let i=0;i<64;i++)process.stdout.write(b);process.stdout.write("END")';
    const r = await exec({ program: node, args: ['-e', code], cwd, maxOutputBytes: 4096 });
    expect(r.exitCode).toBe(0);
    expect(r.truncated).toBe(true);
    expect(r.stdoutBytes).toBe(64 * (1 << 20) + 8);
    expect(r.stdoutTail.startsWith('START')).toBe(true);
    expect(r.stdoutTail.endsWith('END')).toBe(true);
    expect(r.stdoutTail).toMatch(/bytes omitted/);
    expect(Buffer.byteLength(r.stdoutTail)).toBeLessThan(4096 + 100);
  });

  test('binary output becomes a placeholder', async () => {
    const r = await exec({ program: node, args: ['-e', 'process.stdout.write(Buffer.from([0,1,2,255,0,10]))'], cwd });
    expect(r.binary).toBe(true);
    expect(r.stdoutTail).toBe('<binary output, 6 bytes>');
  });

  test('CJK output is cut on a character boundary', async () => {
    const code = 'process.stdout.write("汉".repeat(10000))';
    const r = await exec({ program: node, args: ['-e', code], cwd, maxOutputBytes: 1001 });
    expect(r.truncated).toBe(true);
    expect(r.stdoutTail).not.toContain('\ufffd');
    const [head, tail] = r.stdoutTail.split(/\n…\[\d+ bytes omitted\]…\n/);
    expect(head).toMatch(/^汉+$/);
    expect(tail).toMatch(/^汉+$/);
  });

  test('a throwing onStdout does not break the capture', async () => {
    const r = await exec({
      program: node,
      args: ['-e', 'console.log("a")'],
      cwd,
      onStdout: () => {
        throw new Error('ui broke');
      },
    });
    expect(r).toMatchObject({ exitCode: 0, stdoutTail: 'a\n' });
  });

  test('onStdout gets whole characters', async () => {
    const chunks: string[] = [];
    const code = 'const b=Buffer.from("中文");process.stdout.write(b.subarray(0,2));setTimeout(()=>process.stdout.write(b.subarray(2)),20)';
    const r = await exec({ program: node, args: ['-e', code], cwd, onStdout: (s) => chunks.push(s) });
    expect(r.exitCode).toBe(0);
    expect(chunks.join('')).toBe('中文');
    expect(chunks.every((c) => !c.includes('\ufffd'))).toBe(true);
  });
});

describe('BoundedCapture', () => {
  test.each([
    ['ascii', 'abc', 3],
    ['cut 2-byte', Buffer.from('é').subarray(0, 1), 0],
    ['cut 3-byte', Buffer.concat([Buffer.from('a'), Buffer.from('汉').subarray(0, 2)]), 1],
    ['cut 4-byte', Buffer.concat([Buffer.from('a'), Buffer.from('😀').subarray(0, 3)]), 1],
    ['whole 4-byte', Buffer.from('a😀'), 5],
  ])('cutEndUtf8 %s', (_name, input, len) => {
    expect(cutEndUtf8(Buffer.from(input)).length).toBe(len);
  });

  test('memory stays bounded with many tiny chunks', () => {
    const cap = new BoundedCapture(1000);
    for (let i = 0; i < 100000; i++) cap.push(Buffer.from('x'));
    expect(cap.truncated).toBe(true);
    expect(cap.render().length).toBeLessThan(1100);
  });
});
