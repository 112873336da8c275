/**
 * A custom command's turn, as Claude Code has it: `` !`cmd` `` runs before the prompt is sent and
 * its output takes its place; `@path` brings in a workspace file; `model` picks a tier or a
 * profile; `allowed-tools` become the turn's allowances. Every `!` command and `@` file is a step
 * judged by the runner like any other (L0 runs, L1 asks, L2 is refused, and the prompt says so):
 * a command line is split without a shell, and one that needs a shell is refused with why. The
 * steps are Claude Code's `Bash` and `Read`, as the tools that declare those names take them.
 */
import * as path from 'path';
import type { SendOptions } from '../agent/agent-core';
import type { ToolResult } from '../agent/runner-types';
import type { Step } from '../context/protocol';
import { claudeNamedTools } from './claude-names';
import { readJsonObject } from './claude-settings';
import { expandCommand, type CustomCommand } from './commands';

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
export function findCommand(text: string, commands: readonly CustomCommand[] | undefined): { command: CustomCommand; args: string } | undefined {
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
  const cut = result.nextOffset ? `\n[cut at line ${String(result.endLine)} of ${String(result.totalLines)}; read on with fs.read offset ${String(result.nextOffset)}]` : '';
  return `<file path="${rel}">\n${text}${cut}\n</file>`;
}

/**
 * Build the turn of `/name args`. `workspace`: `@` files must be inside it; `profiles`: the
 * llm-base profiles `model` may name.
 */
export function commandTurn(command: CustomCommand, args: string, ctx: { workspace: string; cwd: string; profiles: readonly string[]; projectTrusted?: boolean }): CommandTurn {
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
  const { stepFromClaude } = require('@holic512/tool-runner') as typeof import('@holic512/tool-runner');
  const made = stepFromClaude(name, input, claudeNamedTools() as never);
  return 'error' in made ? made : { step: made.step as unknown as Step };
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
      make: async () => {
        const abs = path.resolve(ctx.cwd, rel);
        if (!inside(abs, ctx.workspace)) return `@${rel} [not included: only files inside the workspace]`;
        const made = claudeStep('Read', { file_path: rel });
        if ('error' in made) return `@${rel} [not included: ${made.error}]`;
        return atText(rel, await run(made.step));
      },
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
    const { reviewTurn } = require('./review') as typeof import('./review');
    const { findGitRoot } = require('../context/project-context') as typeof import('../context/project-context');
    return reviewTurn(review[1] ?? '', claudeStep, findGitRoot(cwd), cwd);
  }
  if (!found) return undefined;
  return commandTurn(found.command, found.args, { workspace: app.project?.extras.workspace ?? cwd, cwd, profiles: profileNames(app.paths.home), projectTrusted: app.project?.trust === 'trusted' });
}
