import { fakeToken } from '@holic512/testkit';
import type { ExecResult } from '../src/exec';
import type { RunToolResult } from '../src/tools/types';

// A step's output passes the redaction gate whole before it is parsed (exec-tool.ts
// redactOutput), and once more with the whole result (the runner's gate). The fields of the
// result take that redacted output as it is: a third scan in between changed nothing (the gate
// is idempotent) and cost about 1.4 ms per 64 KiB tail on every step.
jest.mock('../src/redact', () => {
  const actual = jest.requireActual('../src/redact');
  return { ...actual, redact: jest.fn((text: string) => actual.redact(text)) };
});

import * as gate from '../src/redact';
import { createToolRunner } from '../src/runner';

/** What the fake exec ran: exit 0 with this output. */
const result = (stdoutTail: string, stderrTail: string): ExecResult => ({
  exitCode: 0,
  signal: null,
  timedOut: false,
  aborted: false,
  durationMs: 5,
  stdoutTail,
  stderrTail,
  truncated: false,
  stdoutBytes: stdoutTail.length,
  stderrBytes: stderrTail.length,
});

const scansOf = (marker: string): number =>
  (gate.redact as jest.Mock).mock.calls.filter(([text]) => typeof text === 'string' && text.includes(marker)).length;

test.each([
  ['cat', 'build.log'],
  ['rg', '-n', 'token', '.'],
])('the output of `%s` is scanned whole once by the tool, and still leaves redacted', async (program, ...args) => {
  const secret = `ghp_${fakeToken(`passes-${program}`, 36)}`;
  const stdout = `${'./build.log:1:build step done\n'.repeat(500)}./env.sh:2:export GITHUB_TOKEN=${secret}\n`;
  const stderr = `warning: token ${secret} is stored in plain text\n`;
  const runner = createToolRunner({
    cwd: '/work/proj',
    lang: 'en',
    env: { HOME: '/home/u', PATH: '/usr/bin' },
    sandbox: 'off',
    confirm: async () => ({ action: 'decline' }),
    deps: { exec: async () => result(stdout, stderr) },
  });
  (gate.redact as jest.Mock).mockClear();
  const r = (await runner.run({ tool: 'exec', program, args })) as RunToolResult;
  expect(r.exitCode).toBe(0);
  expect(scansOf('build step done')).toBe(1);
  expect(scansOf('warning: token')).toBe(1);
  // The gate still covers every field: the token is masked in both tails.
  expect(JSON.stringify(r)).not.toContain(secret);
  expect(r.stdoutTail).toContain('[redacted');
  expect(r.stderrTail).toContain('[redacted');
});
