import { stringWidth, wrapWords } from '../src/interactive/width';
import { loopbackOff, renderChecks, type Check } from '../src/cli/sandbox-command';

// `slothtool ai sandbox` prints its detail lines wrapped at spaces, never cut inside a word that fits (issue #36 item 9).

describe('wrapWords', () => {
  test.each([
    ['one two three four', 9, ['one two', 'three', 'four']],
    ['a-very-long-word x', 6, ['a-very', '-long-', 'word x']],
    ['', 10, ['']],
    ['内存 4096 MB，CPU 120 秒', 12, ['内存 4096', 'MB，CPU 120', '秒']],
  ])('%j at %d columns', (text, width, rows) => {
    const got = wrapWords(text, width);
    expect(got).toEqual(rows);
    for (const r of got) expect(stringWidth(r)).toBeLessThanOrEqual(width);
  });
});

describe('the check rows', () => {
  const detail = "touch: cannot touch '/tmp/slothtool-sandbox-check-abc/written-outside': Read-only file system";
  const checks: Check[] = [
    { key: 'sandboxCheckWrite', ok: true, detail },
    { key: 'sandboxCheckWorkspace', ok: true, detail: '' },
    { key: 'sandboxCheckNetwork', ok: false, detail: 'ECONNREFUSED' },
  ];
  test.each([60, 80, 100, 160])('at %d columns: no row is wider, no row ends in a space, every word of the detail whole', (columns) => {
    const rows = renderChecks('en', checks, columns);
    for (const r of rows) {
      expect(stringWidth(r)).toBeLessThanOrEqual(columns);
      expect(r).not.toMatch(/ $/);
    }
    const text = rows.join('\n');
    for (const word of detail.split(' ')) expect(text).toContain(word);
    expect(rows.filter((r) => r.startsWith('  ✓') || r.startsWith('  ✗'))).toHaveLength(3);
    expect(text).toContain('✗ no network at L0');
  });
  test('beside the labels when there is room, continuation rows under the first', () => {
    const rows = renderChecks('en', checks, 160);
    expect(rows[0]).toMatch(/^ {2}✓ a write outside the workspace is refused +touch: cannot touch/);
  });
});

describe('what the screen says of a step the sandbox stopped or limited', () => {
  const { sandboxNote } = require('../src/cli/render') as typeof import('../src/cli/render');
  const base = { _event: 'tool_result', id: 'cmd_001', tool: 'exec', decision: { level: 'L0', rules: [] } } as const;
  test.each([
    [{ kind: 'bwrap', level: 'L0', network: false }, ''],
    [
      {
        kind: 'bwrap',
        level: 'L0',
        network: false,
        limit: 'memory',
        note: 'it was stopped by the memory limit of read-only steps (128 MB a process)',
      },
      ' — it was stopped by the memory limit of read-only steps (128 MB a process)',
    ],
    [
      {
        kind: 'bwrap',
        level: 'L0',
        network: false,
        denied: 'write',
        line: 'x: Read-only file system',
        note: 'it tried to write `/etc/x`, outside the workspace: running it again with more rights is not offered',
      },
      ' — stopped by the sandbox: it tried to write outside what this step may change (x: Read-only file system) — it tried to write `/etc/x`, outside the workspace: running it again with more rights is not offered',
    ],
  ])('%j', (sandbox, expected) => {
    expect(sandboxNote({ ...base, sandbox } as never, 'en', ' — ')).toBe(expected);
  });
});

describe('why steps granted the network share the host network (ai sandbox)', () => {
  const why = '/dev/net/tun (mode 600, owner uid 0) is not open to uid 1000';
  test.each([
    ['en', undefined, ['not in force', 'slirp4netns exited 1']],
    ['zh', undefined, ['未生效', 'slirp4netns exited 1']],
    ['en', 'tun-denied', ['not in force', why, 'sudo chmod 0666 /dev/net/tun', 'KERNEL=="tun", MODE="0666"']],
    ['zh', 'tun-denied', ['未生效', why, 'sudo chmod 0666 /dev/net/tun', 'udev']],
    ['en', 'tun-missing', ['not in force', 'there is no /dev/net/tun here', '--device /dev/net/tun']],
    ['zh', 'tun-missing', ['未生效', 'there is no /dev/net/tun here', '--device /dev/net/tun']],
  ] as const)('%s, cause %s: the reason and what to do', (lang, cause, parts) => {
    const given = cause === undefined ? 'slirp4netns exited 1' : cause === 'tun-denied' ? why : 'there is no /dev/net/tun here';
    const text = loopbackOff(lang, { isolated: false, why: given, ...(cause ? { cause } : {}) });
    for (const p of parts) expect(text).toContain(p);
  });
});
