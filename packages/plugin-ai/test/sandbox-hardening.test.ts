import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { Agent } from '../src/agent/agent';
import type { AgentEvent } from '../src/agent/events';
import { hardeningChecks, type HardeningContext, type InsideStatus } from '../src/cli/sandbox-hardening';
import { config, steppingClock } from './helpers/agent-setup';
import { chat, cmd, fakeLlm } from './helpers/fake-llm';
import { fakeRunner } from './helpers/fake-runner';

// The rows of `slothtool ai sandbox` that read what a step can do to the sandbox itself (issue
// #43), over scripted runs: a whole sandbox passes all four; a weakened one fails the rows it
// concerns and says why; and a session says a weakened sandbox once, as it says a missing one.

const WHOLE: InsideStatus = {
  capabilities: { effective: '0000000000000000', permitted: '0000000000000000', bounding: '0000000000000000', ambient: '0000000000000000' },
  noNewPrivs: true,
  seccomp: true,
};
const ROOT: InsideStatus = {
  capabilities: { effective: '000001fffeffffff', permitted: '000001fffeffffff', bounding: '000001fffeffffff', ambient: '0000000000000000' },
  noNewPrivs: false,
  seccomp: false,
};

let root: string;
beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'hardening-rows-'));
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

/** Runs as a sandbox that holds (or, `escapes`, does not hold) would answer them. */
function context(inside: InsideStatus, escapes: boolean, over: Partial<HardeningContext> = {}): HardeningContext & { ran: string[][] } {
  const ran: string[][] = [];
  return {
    lang: 'en',
    root,
    home: path.join(root, 'home'),
    secret: 'planted-secret',
    degraded: [],
    ran,
    parseInside: (text) => (text === 'status' ? inside : undefined),
    findProgram: (name) => `/usr/bin/${name}`,
    async run(level, program, args) {
      ran.push([level, program, ...args]);
      if (program === 'cat') return { exitCode: 0, stdoutTail: 'status', stderrTail: '' };
      if (program.endsWith('unshare'))
        return escapes
          ? { exitCode: 0, stdoutTail: '', stderrTail: '' }
          : { exitCode: 1, stdoutTail: '', stderrTail: 'unshare: unshare failed: Operation not permitted' };
      const script = args[1];
      if (script.includes('remount')) {
        if (escapes) fs.writeFileSync(args[3], 'escaped');
        return { exitCode: escapes ? 0 : 1, stdoutTail: '', stderrTail: escapes ? '' : 'mount: /: permission denied.' };
      }
      return escapes
        ? { exitCode: 0, stdoutTail: 'planted-secret-ssh', stderrTail: '' }
        : { exitCode: 1, stdoutTail: '', stderrTail: 'umount: /h/.ssh: must be superuser to unmount.' };
    },
    ...over,
  };
}

describe('the hardening rows of slothtool ai sandbox', () => {
  test('a whole sandbox: four ✓, read at both levels, the probes at L1', async () => {
    const ctx = context(WHOLE, false);
    const rows = await hardeningChecks(ctx);
    expect(rows.map((r) => [r.key, r.ok])).toEqual([
      ['sandboxCheckCapabilities', true],
      ['sandboxCheckSeccomp', true],
      ['sandboxCheckRemount', true],
      ['sandboxCheckUnmount', true],
    ]);
    expect(rows[0].detail).toBe('CapEff, CapPrm, CapBnd, CapAmb 0 and NoNewPrivs 1 at L0 and L1');
    expect(rows[1].detail).toBe('Seccomp 2 at L1; unshare -U: unshare: unshare failed: Operation not permitted');
    expect(ctx.ran.map((r) => r.slice(0, 2))).toEqual([
      ['L0', 'cat'],
      ['L1', 'cat'],
      ['L1', '/usr/bin/unshare'],
      ['L1', '/bin/sh'],
      ['L1', '/bin/sh'],
    ]);
  });

  test('a sandbox that keeps root’s capabilities and has no filter: every row ✗, with what was read and why (both languages)', async () => {
    const degraded = [
      { what: 'capabilities' as const, why: 'bubblewrap refused --cap-drop (bwrap: Unknown option --cap-drop)' },
      { what: 'seccomp' as const, why: 'bubblewrap refused --seccomp (bwrap: Unknown option --seccomp)' },
    ];
    const rows = await hardeningChecks(context(ROOT, true, { degraded }));
    expect(rows.map((r) => r.ok)).toEqual([false, false, false, false]);
    expect(rows[0].detail).toContain('L1: CapEff 000001fffeffffff');
    expect(rows[0].detail).toContain('weakened: steps keep capabilities (bubblewrap refused --cap-drop');
    expect(rows[1].detail).toContain('Seccomp 0 at L1');
    expect(rows[1].detail).toContain('no seccomp filter (bubblewrap refused --seccomp');
    const zh = await hardeningChecks(context(ROOT, true, { degraded, lang: 'zh' }));
    expect(zh[0].detail).toContain('已被削弱：步骤仍保有能力');
  });

  test('no util-linux to probe with: said, not failed, when /proc/self/status shows the filter', async () => {
    const rows = await hardeningChecks(context(WHOLE, false, { findProgram: () => undefined }));
    expect(rows.map((r) => r.ok)).toEqual([true, true, true, true]);
    expect(rows[1].detail).toContain('unshare is not installed here: not tried');
    expect(rows[3].detail).toBe('umount is not installed here: not tried');
  });

  test('status not readable inside: the capability row fails and says so', async () => {
    const rows = await hardeningChecks(context(WHOLE, false, { parseInside: () => undefined }));
    expect(rows[0]).toMatchObject({
      ok: false,
      detail: expect.stringContaining('L0: /proc/self/status could not be read inside the sandbox'),
    });
    expect(rows[1].ok).toBe(false);
  });
});

describe('a session says a weakened sandbox once, before its first step', () => {
  test.each([
    [
      'weakened',
      { mode: 'auto', kind: 'bwrap', degraded: [{ what: 'seccomp', why: 'no filter is built for riscv64' }] },
      'sandbox_degraded',
      'The OS sandbox is weakened: no seccomp filter (no filter is built for riscv64)',
    ],
    [
      'missing',
      { mode: 'auto', kind: 'none', reason: 'bubblewrap (bwrap) is not installed' },
      'sandbox_unavailable',
      'No OS sandbox: bubblewrap (bwrap) is not installed',
    ],
    ['whole', { mode: 'auto', kind: 'bwrap' }, undefined, undefined],
  ])('%s', async (_what, status, code, text) => {
    const fake = fakeRunner();
    const create: typeof fake.create = (confirm) => ({ ...fake.create(confirm), sandboxStatus: () => status as never });
    const llm = fakeLlm([cmd({ program: 'ls', args: [] }), cmd({ program: 'ls', args: [] }), chat('done')]);
    const agent = new Agent(
      { config: config(), systemPrompt: 'S', cwd: '/w', lang: 'en' },
      { llm, createRunner: create, now: steppingClock() },
    );
    const events: AgentEvent[] = [];
    agent.on((e) => events.push(e));
    await agent.send('look twice');
    const notes = events.filter((e) => e.type === 'log' && (e.code === 'sandbox_degraded' || e.code === 'sandbox_unavailable'));
    if (!code) return expect(notes).toEqual([]);
    expect(notes).toEqual([expect.objectContaining({ code, message: expect.stringContaining(text!) })]);
  });
});
