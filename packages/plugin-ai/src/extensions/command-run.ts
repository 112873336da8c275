/**
 * A custom command's turn, as Claude Code has it: `` !`cmd` `` runs before the prompt is sent and
 * its output takes its place; `@path` brings in a workspace file; `model` picks a tier or a
 * profile; `allowed-tools` become the turn's allowances. Every `!` command and `@` file is a step
 * judged by the runner like any other (L0 runs, L1 asks, L2 is refused, and the prompt says so):
 * a command line is split without a shell, and one that needs a shell is refused with why. The
 * steps are Claude Code's `Bash` and `Read`, as the tools that declare those names take them.
 */
import fs = require('fs');
import path = require('path');
import type { SendOptions } from '../agent/agent-core';
import type { ToolResult, Verdict } from '../agent/runner-types';
import type { Lang } from '../i18n';
import type { Step } from '../context/protocol';
import { claudeNamedTools } from './claude-names';
import { readJsonObject } from './claude-settings';
import { expandCommand, type CustomCommand } from './commands';
import { reviewTurn } from './review';
import { findGitRoot } from '../context/project-context';
import { renderVerdict } from '../agent/render-verdict';
import { toolRunner } from '../lazy-modules';

/** What sending a custom command needs: the message, the turn's options, and notes for the user. */
export interface CommandTurn {
  message: string;
  options: Pick<SendOptions, 'prepare' | 'allow' | 'profile' | 'mode'>;
  /** Keys of the i18n table with their values (`model` not mapped …), said before the turn. */
  notes: Array<{ key: 'commandModelUnmapped' | 'commandAllowUntrusted'; vars: Record<string, string> }>;
  /** Nothing is sent: why (`/review` outside a git repository), said instead. */
  refused?: { key: 'reviewNotGit'; vars: Record<string, string> };
}

const BANG = /!`([^`\n]+)`/g;
const AT = /(^|\s)@([^\s`'"]+)/g;

/** The custom command a typed line calls (`/review src` → review), with what follows its name. */
export function findCommand(
  text: string,
  commands: readonly CustomCommand[] | undefined,
): { command: CustomCommand; args: string } | undefined {
  const trimmed = text.trim();
  const word = /^\/(\S+)/.exec(trimmed)?.[1]?.toLowerCase();
  const command = word ? commands?.find((c) => c.name === word) : undefined;
  return command ? { command, args: trimmed.slice(command.name.length + 1) } : undefined;
}

/** The llm-base profile names (`model` front matter may name one). */
export function profileNames(slothtoolHome: string): string[] {
  const { value } = readJsonObject(path.join(slothtoolHome, 'plugin-configs', 'llm-base.json'));
  const profiles = value?.profiles;
  return profiles && typeof profiles === 'object' && !Array.isArray(profiles) ? Object.keys(profiles) : [];
}

/** `model` front matter → a tier or a profile (Claude Code's names: haiku is low, sonnet / opus high). */
export function modelChoice(model: string, profiles: readonly string[]): { mode: 'low' | 'high' } | { profile: string } | undefined {
  if (profiles.includes(model)) return { profile: model };
  const m = model.toLowerCase();
  if (m.includes('haiku')) return { mode: 'low' };
  if (m.includes('sonnet') || m.includes('opus')) return { mode: 'high' };
  if (m === 'low' || m === 'high') return { mode: m };
  return undefined;
}

function inside(file: string, root: string): boolean {
  const rel = path.relative(root, file);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

/** The output a `!` command leaves in the prompt, or why it did not run. */
function bangText(line: string, result: ToolResult): string {
  if (result.status === 'blocked' || result.status === 'declined') return `[\`${line}\` was not run: ${result.reason ?? result.status}]`;
  const out = String(result.stdoutTail ?? '').replace(/\s+$/, '');
  const err = String(result.stderrTail ?? '').replace(/\s+$/, '');
  const code = typeof result.exitCode === 'number' && result.exitCode !== 0 ? `\n[exit ${result.exitCode}]${err ? `\n${err}` : ''}` : '';
  return `${out}${code}`;
}

/** A file `@path` brings in (fs.read's numbered lines back to text), or why not. */
function atText(rel: string, result: ToolResult): string {
  if (result.status === 'blocked' || result.status === 'declined' || result.status === 'error' || typeof result.content !== 'string') {
    const why = result.reason ?? (result.error as { message?: string } | undefined)?.message ?? result.status ?? 'not readable';
    return `@${rel} [not included: ${why}]`;
  }
  const text = result.content.replace(/^ *\d+\t/gm, '');
  const cut = result.nextOffset
    ? `\n[cut at line ${String(result.endLine)} of ${String(result.totalLines)}; read on with fs.read offset ${String(result.nextOffset)}]`
    : '';
  return `<file path="${rel}">\n${text}${cut}\n</file>`;
}

/**
 * Build the turn of `/name args`. `workspace`: `@` files must be inside it; `profiles`: the
 * llm-base profiles `model` may name.
 */
export function commandTurn(
  command: CustomCommand,
  args: string,
  ctx: { workspace: string; cwd: string; profiles: readonly string[]; projectTrusted?: boolean },
): CommandTurn {
  const message = expandCommand(command, args);
  const notes: CommandTurn['notes'] = [];
  const options: CommandTurn['options'] = {
    ...(command.profile ? { profile: command.profile } : {}),
    ...(command.mode ? { mode: command.mode } : {}),
  };
  if (command.model && !command.profile && !command.mode) {
    const choice = modelChoice(command.model, ctx.profiles);
    if (choice) Object.assign(options, choice);
    else notes.push({ key: 'commandModelUnmapped', vars: { model: command.model, name: command.name } });
  }
  // A repository's command may not answer questions for itself until the folder is trusted.
  if (command.allowedTools?.length && (command.scope === 'user' || ctx.projectTrusted)) options.allow = command.allowedTools;
  else if (command.allowedTools?.length) notes.push({ key: 'commandAllowUntrusted', vars: { name: command.name } });
  if (!command.skill && (message.search(BANG) >= 0 || message.search(AT) >= 0)) {
    options.prepare = (run) => fillIn(message, run, ctx);
  }
  return { message, options, notes };
}

/** Claude Code's tool `name` with `input` as one of our steps (by the tools' own Claude Code names). */
export function claudeStep(name: string, input: Record<string, unknown>): { step: Step } | { error: string } {
  const made = toolRunner().stepFromClaude(name, input, claudeNamedTools() as never);
  return 'error' in made ? made : { step: made.step as unknown as Step };
}

/** What an `@path` brings in: read by whichever tool takes Claude Code's `Read`, judged by `run`. */
async function readRef(rel: string, run: (step: Step) => Promise<ToolResult>, ctx: { workspace: string; cwd: string }): Promise<string> {
  const abs = path.resolve(ctx.cwd, rel);
  if (!inside(abs, ctx.workspace)) return `@${rel} [not included: only files inside the workspace]`;
  const made = claudeStep('Read', { file_path: rel });
  if ('error' in made) return `@${rel} [not included: ${made.error}]`;
  return atText(rel, await run(made.step));
}

/** Run each `!` command and read each `@` file, in order, through `run`; the filled-in prompt. */
async function fillIn(message: string, run: (step: Step) => Promise<ToolResult>, ctx: { workspace: string; cwd: string }): Promise<string> {
  const parts: string[] = [];
  let last = 0;
  const found: Array<{ at: number; end: number; make: () => Promise<string> }> = [];
  for (const m of message.matchAll(BANG)) {
    const line = m[1].trim();
    found.push({
      at: m.index!,
      end: m.index! + m[0].length,
      make: async () => {
        // `!` runs what Claude Code's Bash would: whichever tool declares that name and takes the line.
        const made = claudeStep('Bash', { command: line });
        if ('error' in made) return `[\`${line}\` was not run: ${made.error} — write a plain command, one per !\`…\`]`;
        return bangText(line, await run(made.step));
      },
    });
  }
  for (const m of message.matchAll(AT)) {
    const rel = m[2].replace(/[.,;:!?)\]]+$/, '');
    const start = m.index! + m[1].length;
    if (found.some((f) => start >= f.at && start < f.end)) continue;
    found.push({
      at: start,
      end: start + 1 + rel.length,
      make: () => readRef(rel, run, ctx),
    });
  }
  found.sort((a, b) => a.at - b.at);
  for (const f of found) {
    parts.push(message.slice(last, f.at), await f.make());
    last = f.end;
  }
  parts.push(message.slice(last));
  return parts.join('');
}

/** The turn a typed line makes when it calls a custom command (`ai -i` and `ai -p` alike), else undefined. */
export function commandTurnFor(
  app: { commands?: readonly CustomCommand[]; project?: { extras: { workspace: string }; trust: string }; paths: { home: string } },
  text: string,
  cwd: string,
): CommandTurn | undefined {
  const found = findCommand(text, app.commands);
  // `/review` is built in unless a command of that name replaces it (extensions/review.ts).
  const review = found ? undefined : /^\/review(?:\s+([\s\S]*))?$/i.exec(text.trim());
  if (review) {
    return reviewTurn(review[1] ?? '', claudeStep, findGitRoot(cwd), cwd);
  }
  if (!found) return undefined;
  return commandTurn(found.command, found.args, {
    workspace: app.project?.extras.workspace ?? cwd,
    cwd,
    profiles: profileNames(app.paths.home),
    projectTrusted: app.project?.trust === 'trusted',
  });
}

/** The text files a typed message names with `@path` (images are attached elsewhere): those that exist, once each. */
export function fileRefs(text: string, cwd: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(AT)) {
    const rel = m[2].replace(/[.,;:!?)\]]+$/, '');
    if (!rel || out.includes(rel) || /\.(?:png|jpe?g|gif|webp)$/i.test(rel)) continue;
    const st = fs.statSync(path.resolve(cwd, rel), { throwIfNoEntry: false });
    if (st?.isFile()) out.push(rel);
  }
  return out;
}

/** The runner's judgement of a read, as `@path` needs it: its level, and why it needs a question (English, for the model; `shown` in the screen's language). */
export type RefJudge = (step: Step) => { level: string; reason?: string; shown?: string };

/**
 * A typed message that names files with `@path` (`ai -i`, `ai -p`): the message as typed, each file
 * after it, read by an fs.read step through the runner (the workspace only, redacted, capped with
 * a note to read on). Only a read that needs no question is made: a secret file, one outside the
 * workspace or one a rule asks about is left out, the message says why, and so does `onSkip`.
 * Undefined when the message names no file (an `@name` that is no file stays text).
 */
export function fileRefsTurn(
  text: string,
  ctx: { workspace: string; cwd: string; judge: RefJudge; refsIn?: string; onSkip?: (rel: string, why: string) => void },
): Pick<SendOptions, 'prepare'> | undefined {
  const refs = fileRefs(ctx.refsIn ?? text, ctx.cwd);
  if (!refs.length) return undefined;
  return {
    prepare: async (run) => {
      const parts = [text];
      for (const rel of refs) {
        parts.push(
          await readRef(
            rel,
            async (step) => {
              const verdict = ctx.judge(step);
              if (verdict.level === 'L0') return run(step);
              ctx.onSkip?.(rel, verdict.shown ?? verdict.reason ?? verdict.level);
              return {
                _event: 'tool_result',
                id: '',
                tool: step.tool,
                status: 'declined',
                reason: `${verdict.reason ?? verdict.level}; ask for it to be read if it is needed`,
                decision: { level: verdict.level as 'L1', rules: [] },
              };
            },
            ctx,
          ),
        );
      }
      return parts.join('\n\n');
    },
  };
}

/** `@path` refs of a typed message (`ai -i`, `ai -p`) with the session's workspace and the runner's judgement. */
export function fileRefsFor(
  app: { agent: { verdictOf(step: Step): { level: string } }; project?: { extras: { workspace: string } } },
  text: string,
  cwd: string,
  options: {
    /** Where the refs are looked for (`ai -p`: the prompt typed, not what was piped in). */
    refsIn?: string;
    /** Told about each file left out, with why in `lang`. */
    onSkip?: (rel: string, why: string) => void;
    lang?: Lang;
  } = {},
): Pick<SendOptions, 'prepare'> | undefined {
  const judge: RefJudge = (step) => {
    const verdict = app.agent.verdictOf(step) as Verdict;
    if (verdict.level === 'L0') return { level: 'L0' };
    const why = (lang: Lang) => renderVerdict(verdict, lang).rules.find((r) => r.level === verdict.level)?.reason;
    return { level: verdict.level, reason: why('en'), shown: why(options.lang ?? 'en') };
  };
  return fileRefsTurn(text, {
    workspace: app.project?.extras.workspace ?? cwd,
    cwd,
    judge,
    refsIn: options.refsIn ?? text,
    onSkip: options.onSkip,
  });
}
