import { z } from 'zod';
import { finding } from '../policy/finding';
import type { ProcKillStep, ProcStartStep, ProcStatusStep } from '../tool-steps';
import { argList, commandLine, cwdField, nonBlank, presentFields, toolInput, touches } from './common';
import { assessCommand, commandContext, commandKey, programWords } from './exec';
import type { ToolDefinition } from './types';
import { commandFromClaude, shellLine } from './claude-code';
import { defineTool } from './define-tool';
import { procStepsModule } from '../lazy-modules';

const procStartInput = () => toolInput({ program: z.string().min(1), args: argList(), cwd: cwdField(), detach: z.boolean().optional() });
const procStatusInput = () => toolInput({ proc_id: nonBlank('proc_id'), wait_ms: z.number().min(0).max(60000).optional() });
const procKillInput = () => toolInput({ proc_id: nonBlank('proc_id') });

export const procStartTool = defineTool<ProcStartStep>({
  name: 'proc.start',
  kind: 'execute',
  description: {
    en: 'Start a long-running program (tests, builds, dev servers) in the background; returns a proc_id at once.',
    zh: '在后台启动一个长时间运行的程序（测试、构建、开发服务器）；立即返回 proc_id。',
  },
  input: procStartInput,
  example: { program: 'npm', args: ['test'] },
  takesCwd: true,
  sandboxed: true,
  serves: true,
  words: programWords<ProcStartStep>(),
  permission: { arg: 'words', subject: (s) => ({ kind: 'command', words: [s.program, ...(s.args ?? [])] }) },
  judgeContext: (s, env) => commandContext(s.program, s.args ?? [], s.cwd, env),
  assess(s, ctx) {
    const judged = assessCommand(s.program, s.args ?? [], s.cwd, ctx);
    // A process that outlives the session is one nobody watches: always asked.
    const background = s.detach ? finding('proc.detach', 'L1') : finding('proc.background', 'L0');
    return { ...judged, findings: [...judged.findings, background] };
  },
  // A detached process is a key of its own: allowing one never allows the other.
  approvalKey: (s) => `proc.start${s.detach ? '(detached)' : ''} ${commandKey(s.program, s.args ?? [])}`,
  digest: (s) => `start ${commandLine(s.program, s.args ?? [])}${s.detach ? ' (detached)' : ''}`,
  summary: (s) => ({
    title: `proc.start ${commandLine(s.program, s.args ?? [])}`,
    fields: presentFields({ cwd: s.cwd, detach: s.detach }),
  }),
  execute: (s, ctx) => procStepsModule().runProcStart(s, ctx as never),
  // Claude Code runs a background command as `Bash` with run_in_background.
  claude: {
    names: ['Bash'],
    input: (s) => ({ command: shellLine(s.program, s.args ?? []), run_in_background: true }),
    fromInput: (c) => commandFromClaude(c, true),
    response: (_s, r) => ({ stdout: '', stderr: '', interrupted: false, isImage: false, backgroundTaskId: r.proc_id }),
  },
});

/**
 * proc.status and proc.kill act on a process this session started (by its id): L0, one approval
 * key for every process, and permission rules name the process by its id.
 */
function ofOwnProcess(
  tool: 'proc.status' | 'proc.kill',
): Pick<ToolDefinition<{ proc_id: string }>, 'permission' | 'assess' | 'approvalKey'> {
  return {
    permission: { arg: 'name', subject: (s) => ({ kind: 'name', name: s.proc_id }) },
    assess: () => ({ findings: [finding(tool, 'L0')], touches: touches() }),
    approvalKey: () => tool,
  };
}

export const procStatusTool = defineTool<ProcStatusStep>({
  name: 'proc.status',
  kind: 'read',
  description: {
    en: "A background process's state, exit code and the output that is new since the last status; wait_ms waits for it to end.",
    zh: '后台进程的状态、退出码，以及自上次查询以来的新输出；wait_ms 可等待它结束。',
  },
  input: procStatusInput,
  example: { proc_id: 'proc_1', wait_ms: 30000 },
  ...ofOwnProcess('proc.status'),
  digest: (s) => `status ${s.proc_id}${s.wait_ms ? ` (wait ${s.wait_ms} ms)` : ''}`,
  summary: (s) => ({ title: `proc.status ${s.proc_id}`, fields: presentFields({ wait_ms: s.wait_ms }) }),
  execute: (s, ctx) => procStepsModule().runProcStatus(s, ctx as never),
  claude: {
    names: ['BashOutput'],
    input: (s) => ({ bash_id: s.proc_id }),
    fromInput: (c) => (typeof c.bash_id === 'string' ? { proc_id: c.bash_id } : { error: 'bash_id must be a string' }),
  },
});

export const procKillTool = defineTool<ProcKillStep>({
  name: 'proc.kill',
  kind: 'execute',
  description: {
    en: 'End a background process (its whole process group) and return its last output.',
    zh: '结束一个后台进程（整个进程组）并返回它最后的输出。',
  },
  input: procKillInput,
  example: { proc_id: 'proc_1' },
  ...ofOwnProcess('proc.kill'),
  digest: (s) => `kill ${s.proc_id}`,
  summary: (s) => ({ title: `proc.kill ${s.proc_id}`, fields: [] }),
  execute: (s, ctx) => procStepsModule().runProcKill(s, ctx as never),
  claude: {
    names: ['KillShell', 'KillBash'],
    input: (s) => ({ shell_id: s.proc_id }),
    fromInput: (c) => (typeof c.shell_id === 'string' ? { proc_id: c.shell_id } : { error: 'shell_id must be a string' }),
  },
});
