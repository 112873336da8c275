import type { ConfirmFn, Decision, Level, StepRunner, ToolResult, Verdict } from '../../src/agent/runner-types';
import type { Step } from '../../src/context/protocol';

/** A runner's verdict (no language) for tests: the level and findings with these ids at that level. */
export function verdict(level: Level, ids: string[] = [], params?: Record<string, string>): Verdict {
  return {
    level,
    findings: ids.map((id) => ({ id, level, ...(params ? { params } : {}) })),
    bySession: false,
    alwaysConfirm: false,
    adjustments: [],
  };
}

/** A fake runner: the level comes from a table by program; L2 blocked, L1 confirmed. */
export function fakeRunner(levels: Record<string, Level> = {}, stdout: (step: Step) => string = () => 'ok\n') {
  const runs: Step[] = [];
  const create = (confirm: ConfirmFn): StepRunner => {
    const allowed = new Set<string>();
    const levelOf = (step: Step): Level => {
      const name = step.tool === 'exec' ? step.program : step.tool;
      return allowed.has(name) ? 'L0' : (levels[name] ?? 'L0');
    };
    const judge = (step: Step): Decision => {
      const name = step.tool === 'exec' ? step.program : step.tool;
      const level = levelOf(step);
      return { level, rules: [{ id: `fake.${level}`, level, reason: `${name} is ${level}`, hint: level === 'L2' ? 'never' : undefined }] };
    };
    return {
      verdict: (step) => verdict(levelOf(step as Step), [`fake.${levelOf(step as Step)}`]),
      async run(step, options = {}): Promise<ToolResult> {
        const id = options.id ?? 'cmd_x';
        const decision = judge(step);
        if (decision.level === 'L2')
          return { _event: 'tool_result', id, tool: step.tool, status: 'blocked', decision: { ...decision, by: 'policy' } };
        let by: 'policy' | 'user' = 'policy';
        if (decision.level === 'L1') {
          const answer = await confirm({
            id,
            step,
            verdict: verdict(decision.level, [`fake.${decision.level}`]),
            decision,
            sessionKey: step.tool === 'exec' ? step.program : step.tool,
          });
          if (answer.action === 'decline') {
            return {
              _event: 'tool_result',
              id,
              tool: step.tool,
              status: 'declined',
              reason: answer.reason,
              decision: { ...decision, by: 'user' },
            };
          }
          if (answer.action === 'allow-session' && step.tool === 'exec') allowed.add(step.program);
          by = 'user';
        }
        runs.push(step);
        const out = stdout(step);
        options.onOutput?.(out, 'stdout');
        return {
          _event: 'tool_result',
          id,
          tool: step.tool,
          cwd: '/tmp',
          program: step.tool === 'exec' ? step.program : undefined,
          args: step.tool === 'exec' ? step.args : undefined,
          exitCode: 0,
          durationMs: 1,
          stdoutTail: out,
          stderrTail: '',
          truncated: false,
          decision: { ...decision, by },
        };
      },
    };
  };
  return { create, runs };
}

/** A step's result as the runner returns it: an exec step judged L0 unless `fields` say otherwise. */
export function toolResult(fields: Partial<ToolResult> = {}): ToolResult {
  return { _event: 'tool_result', id: 'cmd_001', tool: 'exec', decision: { level: 'L0', rules: [] }, ...fields } as ToolResult;
}
