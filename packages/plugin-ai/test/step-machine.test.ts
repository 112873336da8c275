import {
  afterHooks,
  answered,
  approves,
  awaiting,
  ended,
  handedOver,
  hooked,
  stopBefore,
  validating,
  type EndedStep,
} from '../src/agent/step';
import type { ConfirmRequest, ToolResult } from '../src/agent/runner-types';
import type { Step } from '../src/context/protocol';
import { verdict } from './helpers/fake-runner';

const step: Step = { tool: 'exec', program: 'touch', args: ['a'] } as Step;
const decision = { level: 'L1' as const, by: 'user' as const, rules: [] };
const request = (id: string): ConfirmRequest => ({ id, step, verdict: verdict('L1'), decision, sessionKey: 'touch' });
const result = (id: string, fields: Partial<ToolResult> = {}): ToolResult => ({
  _event: 'tool_result',
  id,
  tool: 'exec',
  decision,
  ...fields,
});

describe('a step as a state machine', () => {
  test('an L0 step goes from validating straight to running; one that will be asked about waits in validating', () => {
    expect(handedOver(validating('cmd_001', step, verdict('L0'))).status).toBe('running');
    expect(handedOver(validating('cmd_001', step, verdict('L1'))).status).toBe('validating');
    // A PreToolUse hook's "ask" makes the runner ask even about an L0 step.
    expect(handedOver(hooked(validating('cmd_001', step, verdict('L0')), 'ask', undefined)).status).toBe('validating');
  });

  test.each([
    [{ action: 'run' as const }, 'running', { by: 'user', answer: 'run' }],
    [{ action: 'allow-session' as const, approvedBy: 'flag' as const }, 'running', { by: 'flag', answer: 'allow-session' }],
    [{ action: 'run' as const, approvedBy: 'hook' as const }, 'running', { by: 'hook', answer: 'run' }],
    [{ action: 'decline' as const, reason: 'no' }, 'awaiting_approval', { by: 'user', answer: 'decline' }],
    [{ action: 'edit' as const, step }, 'awaiting_approval', { by: 'user', answer: 'edit' }],
  ])('answer %j → %s, carrying who answered', (answer, status, approval) => {
    const asked = awaiting(validating('cmd_002', step, verdict('L1')), request('cmd_002'));
    expect(asked.status).toBe('awaiting_approval');
    const next = answered(asked, answer);
    expect(next.status).toBe(status);
    expect(next.approval).toEqual(approval);
    expect(approves(answer)).toBe(status === 'running');
  });

  test('asked again after an edit, the earlier answer is dropped until the new one comes', () => {
    const first = answered(awaiting(validating('cmd_003', step, verdict('L1')), request('cmd_003')), { action: 'edit', step });
    const again = awaiting(first, request('cmd_003'));
    expect(again.approval).toBeUndefined();
  });

  test.each([
    [{}, 'done'],
    [{ status: 'blocked' as const }, 'blocked'],
    [{ status: 'blocked' as const, blockedBy: 'hook' as const }, 'blocked'],
    [{ status: 'declined' as const }, 'declined'],
    [{ status: 'declined' as const, notRun: 'steering' as const }, 'not_run'],
    [{ status: 'error' as const }, 'failed'],
    [{ sandbox: { denied: 'write' } }, 'done'],
  ])('a result %j ends the step as %s', (fields, status) => {
    const s = ended(handedOver(validating('cmd_004', step, verdict('L0'))) as never, result('cmd_004', fields as Partial<ToolResult>));
    expect(s.status).toBe(status);
    expect(s.result.id).toBe('cmd_004');
  });

  test('the approval and a hook stop travel with the step to its end', () => {
    const running = answered(awaiting(hooked(validating('cmd_005', step, verdict('L1')), 'allow', 'enough'), request('cmd_005')), {
      action: 'run',
      approvedBy: 'hook',
    });
    const done = afterHooks(ended(running, result('cmd_005')), { kind: 'event', text: '{"_event":"hook_context"}' }, undefined);
    expect(done).toMatchObject({
      status: 'done',
      approval: { by: 'hook', answer: 'run' },
      hookStop: 'enough',
      hookContext: { kind: 'event' },
    });
  });
});

describe('the turn over its steps: why the next step is not run', () => {
  const end = (id: string, fields: Partial<ToolResult> = {}, hookStop?: string): EndedStep =>
    afterHooks(ended(validating(id, step, verdict('L0')), result(id, fields)), undefined, hookStop);
  test.each<[string, EndedStep[], boolean, ReturnType<typeof stopBefore>]>([
    ['nothing stopped', [end('cmd_001')], false, undefined],
    [
      'a steering note waits',
      [end('cmd_001')],
      true,
      { why: 'steering', reason: 'skipped: the user sent a steering message; replan with it' },
    ],
    [
      'a declined step',
      [end('cmd_001', { status: 'declined' })],
      true,
      { why: 'after_stop', reason: 'not run: cmd_001 before it was declined' },
    ],
    [
      'a refused step',
      [end('cmd_001'), end('cmd_002', { status: 'blocked' })],
      false,
      { why: 'after_stop', reason: 'not run: cmd_002 before it was blocked' },
    ],
    [
      'a step a hook blocked',
      [end('cmd_001', { status: 'blocked', blockedBy: 'hook' })],
      false,
      { why: 'after_stop', reason: 'not run: cmd_001 was blocked by a hook' },
    ],
    [
      'a hook that ended the turn',
      [end('cmd_001', {}, '')],
      false,
      { why: 'after_stop', reason: 'not run: a hook ended the turn after cmd_001' },
    ],
    [
      'the first stop wins',
      [end('cmd_001', { status: 'declined' }), end('cmd_002', { status: 'blocked' })],
      false,
      { why: 'after_stop', reason: 'not run: cmd_001 before it was declined' },
    ],
    [
      'a step skipped for steering passes its reason on',
      [end('cmd_001', { status: 'declined', notRun: 'steering', reason: 'skipped: replan' })],
      false,
      { why: 'steering', reason: 'skipped: replan' },
    ],
  ])('%s', (_name, steps, steering, expected) => {
    expect(stopBefore(steps, steering)).toEqual(expected);
  });
});
