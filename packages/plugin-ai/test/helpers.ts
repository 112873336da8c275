import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { defaultConfig, type AiConfig } from '../src/config/config';
import type { LlmCallOptions, LlmClient, LlmResult } from '../src/config/llm-base';
import type { ChatMessage } from '../src/context/context';
import type { ConfirmFn, Decision, Level, StepRunner, ToolResult, Verdict } from '../src/agent/runner-types';
import type { Step } from '../src/context/protocol';

/** A fake model: replies come from a queue or a function of the request. */
export function fakeLlm(
  replies: Array<LlmResult | ((messages: ChatMessage[], options: LlmCallOptions) => LlmResult)>,
  fallback?: (messages: ChatMessage[], options: LlmCallOptions) => LlmResult,
): LlmClient & { calls: ChatMessage[][] } {
  const calls: ChatMessage[][] = [];
  return {
    features: { options: true, streaming: true },
    calls,
    async chat(messages, options) {
      calls.push(messages);
      const next = replies.shift() ?? fallback;
      if (!next) throw new Error('fake llm: no reply queued');
      return typeof next === 'function' ? next(messages, options) : next;
    },
  };
}

export const ok = (data: unknown, usage = { input_tokens: 10, output_tokens: 5 }): LlmResult => ({ ok: true, data, usage });
export const chat = (message: string): LlmResult => ok({ type: 'chat', message });
export const cmd = (...commands: unknown[]): LlmResult => ok({ type: 'cmd', message: 'look', data: { cwd: null, commands } });

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

export function config(overrides: Partial<AiConfig> = {}): AiConfig {
  return { ...defaultConfig(), ...overrides };
}

/** A fixed clock that advances one second per call. */
export function steppingClock(start = Date.UTC(2026, 10, 22, 5, 0, 0)): () => Date {
  let t = start;
  return () => new Date((t += 1000));
}

/** A 32 × 32 solid red PNG (what llm-base's vision probe sends too). */
export const RED_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAACAAAAAgCAIAAAD8GO2jAAAAKklEQVR42mO4IyJCU8QwasGoBaMWjFowasGoBaMWjFowasGoBaMWDBULAJ3LED19/LmKAAAAAElFTkSuQmCC',
  'base64',
);

/** A temporary folder per test (its real path), removed after it; `write` puts a file in it. */
export function useTempDir(prefix: string): { readonly root: string; write(rel: string, text: string): string } {
  const dir = { root: '' };
  beforeEach(() => {
    dir.root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
  });
  afterEach(() => fs.rmSync(dir.root, { recursive: true, force: true }));
  return {
    get root() {
      return dir.root;
    },
    write(rel: string, text: string): string {
      const file = path.join(dir.root, rel);
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, text);
      return file;
    },
  };
}

/** A fresh real folder for each test, removed after it, and a writer of files in it (parents made). */
export function useTempFolder(prefix: string): { readonly root: string; write(rel: string, text: string): string } {
  let root = '';
  beforeEach(() => {
    root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
  });
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));
  return {
    get root() {
      return root;
    },
    write(rel, text) {
      const file = path.join(root, rel);
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, text);
      return file;
    },
  };
}
