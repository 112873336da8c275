/**
 * The shared parts of the tools' Claude Code forms (ToolDefinition.claude): a command as one
 * shell-quoted line and back, paths made absolute, a Claude Code permission rule's argument in our
 * rule syntax, and the lookups by Claude Code's names that hooks, permission rules and a command's
 * `allowed-tools` go through. Which names a tool has is said by its own definition only.
 */
import type { ArgKind } from '../permission-rules';
import type { FsEditOne } from '../tool-steps';
import type { AnyToolDefinition, ClaudeInputContext } from './types';
import { workspaceModule } from '../lazy-modules';

/** One argument as a POSIX shell reads it back: bare when safe, else in single quotes. */
export function shellQuote(word: string): string {
  if (word !== '' && /^[A-Za-z0-9_@%+=:,./-]+$/.test(word)) return word;
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/** A program and its arguments as the one command line Claude Code's `Bash` takes (`tool_input.command`). */
export function shellLine(program: string, args: readonly string[] = []): string {
  return [program, ...args].map(shellQuote).join(' ');
}

/** Read one quoted part starting at `i` (a quote): the text, where it ends, or what is wrong. */
function quoted(line: string, i: number): { text: string; end: number } | { error: string } {
  if (line[i] === "'") {
    const end = line.indexOf("'", i + 1);
    return end < 0 ? { error: "an unclosed quote (')" } : { text: line.slice(i + 1, end), end };
  }
  let text = '';
  let j = i + 1;
  for (; j < line.length && line[j] !== '"'; j++) {
    if (line[j] === '\\' && j + 1 < line.length && /["\\$`]/.test(line[j + 1])) text += line[++j];
    else if (line[j] === '$' || line[j] === '`') return { error: `"${line[j]}" (an expansion)` };
    else text += line[j];
  }
  return j >= line.length ? { error: 'an unclosed quote (")' } : { text, end: j };
}

/**
 * Split a command line into words the way a shell would for plain commands, without a shell:
 * quotes and backslashes group, and anything that needs a shell (pipes, `&&`, `;`, redirections,
 * `$` expansions, back-quotes, globs, `~`) is refused with what it was.
 */
export function splitCommandLine(line: string): { words: string[] } | { error: string } {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i];
    if (ch === "'" || ch === '"') {
      const q = quoted(line, i);
      if ('error' in q) return q;
      word += q.text;
      inWord = true;
      i = q.end;
    } else if (ch === '\\') {
      if (i + 1 < line.length) word += line[++i];
      inWord = true;
    } else if (/\s/.test(ch)) {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
    } else if (/[|&;<>()$`*?[\]{}]/.test(ch) || (ch === '~' && !inWord) || (ch === '#' && !inWord)) {
      return { error: `"${ch}"` };
    } else {
      word += ch;
      inWord = true;
    }
  }
  if (inWord) words.push(word);
  if (!words.length) return { error: 'an empty command' };
  return { words };
}

/**
 * Claude Code's `Bash` input as a program and its arguments: `command` split without a shell
 * (one that needs a shell is refused with what it was), `run_in_background` telling a background
 * process (`background`) from a step, `timeout` (ms) kept.
 */
export function commandFromClaude(
  input: Record<string, unknown>,
  background: boolean,
): { program: string; args: string[]; timeoutMs?: number } | { error: string } {
  const command = stringField(input, 'command');
  if (typeof command !== 'string') return command;
  if ((input.run_in_background === true) !== background)
    return {
      error: background
        ? 'a command not run in the background is a step (exec)'
        : 'a command run in the background is a process (proc.start)',
    };
  const split = splitCommandLine(command);
  if ('error' in split) return { error: `it needs a shell (${split.error}); commands here run without one` };
  const [program, ...args] = split.words;
  return { program, args, ...(typeof input.timeout === 'number' && !background ? { timeoutMs: input.timeout } : {}) };
}

/** A step's path as Claude Code gives it: absolute (`~` and `~/.slothtool` put in), as spelled, links not followed. */
export function absolutePath(p: string, ctx: ClaudeInputContext): string {
  const { expandPath } = workspaceModule();
  return expandPath(p, ctx.cwd, {
    ...(ctx.home ? { home: ctx.home } : {}),
    ...(ctx.slothtoolHome ? { slothtoolHome: ctx.slothtoolHome } : {}),
  });
}

/** The fields whose value is given (undefined and null left out), in the order written. */
export function given(fields: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined && v !== null));
}

/** fs.read's numbered lines (`     1\ttext`) as the plain text Claude Code's `Read` returns. */
export function plainLines(numbered: string): string {
  return numbered.replace(/^ *\d+\t/gm, '');
}

/** A field of Claude Code's input that must be a string: its value, or why not. */
export function stringField(input: Record<string, unknown>, name: string): string | { error: string } {
  const v = input[name];
  return typeof v === 'string' ? v : { error: `${name} must be a string` };
}

/** Every name a tool is known by: its own, then its Claude Code names (what a hook matcher is tried on). */
export function knownNames(def: Pick<AnyToolDefinition, 'name' | 'claude'>): string[] {
  return [def.name, ...(def.claude?.names ?? [])];
}

/** The tools, in registry order, that Claude Code's `name` stands for (`Bash`: exec and proc.start). */
export function toolsNamed<D extends Pick<AnyToolDefinition, 'name' | 'claude'>>(name: string, defs: readonly D[]): D[] {
  return defs.filter((d) => d.claude?.names.includes(name));
}

/**
 * A step as a Claude Code hook sees it: `tool_name` (the tool's first Claude Code name, else its
 * own) and `tool_input` in that tool's field names (else ours, without `tool`).
 */
export function claudeToolFields(
  def: Pick<AnyToolDefinition, 'name' | 'claude'> | undefined,
  step: Record<string, unknown>,
  ctx: ClaudeInputContext,
): { tool_name: string; tool_input: Record<string, unknown> } {
  const { tool, ...input } = step;
  const name = typeof tool === 'string' ? tool : (def?.name ?? 'exec');
  if (!def?.claude) return { tool_name: name, tool_input: input };
  const claudeName = def.claude.nameFor?.(input as never) ?? def.claude.names[0] ?? name;
  return { tool_name: claudeName, tool_input: def.claude.input(input as never, ctx) };
}

/**
 * Claude Code's tool `name` with `input` as one of our steps: the first tool of that name (in
 * registry order) that accepts the input. Not yet validated: the caller validates and judges it.
 */
export function stepFromClaude(
  name: string,
  input: Record<string, unknown>,
  defs: readonly Pick<AnyToolDefinition, 'name' | 'claude'>[],
): { step: Record<string, unknown> } | { error: string } {
  const named = toolsNamed(name, defs);
  if (!named.length) return { error: `Claude Code's tool "${name}" has no counterpart here` };
  let first: string | undefined;
  for (const def of named) {
    const from = def.claude?.fromInput?.(input);
    if (!from) continue;
    if (!('error' in from)) return { step: { tool: def.name, ...from } };
    first ??= String(from.error);
  }
  return { error: first ?? `Claude Code's "${name}" input cannot be taken here` };
}

/**
 * A Claude Code rule's argument (`Bash(npm run test:*)`, `Read(./src/**)`, `WebFetch(domain:x)`)
 * in our rule syntax for a tool whose argument is of `kind`, or why it has none.
 */
export function claudeRuleArgument(kind: ArgKind, arg: string): { arg: string } | { skip: string } {
  if (kind === 'words') return { arg: arg.replace(/:\*$/, ' *').trim() };
  if (kind === 'domain') return arg.startsWith('domain:') ? { arg } : { skip: 'a host rule is mapped only as domain:<host>' };
  if (kind === 'path') {
    // Claude Code: `//abs` is absolute, `~/x` the home, `/x` relative to the settings file's
    // folder, `./x` or `x` the working folder. Ours are relative to the workspace.
    if (arg.startsWith('//') || arg.startsWith('~')) return { skip: 'only paths inside the workspace map to our path rules' };
    return { arg: arg.replace(/^\.?\//, '') };
  }
  return { arg };
}

/** One of Claude Code's edits (`{old_string, new_string, replace_all?}`) as ours, or what is wrong with it (`prefix` names it). */
function oneEdit(edit: unknown, prefix: string): FsEditOne | { error: string } {
  if (!edit || typeof edit !== 'object' || Array.isArray(edit)) return { error: `${prefix || 'an edit '}must be an object` };
  const e = edit as Record<string, unknown>;
  const oldString = stringField(e, 'old_string');
  if (typeof oldString !== 'string') return { error: prefix + oldString.error };
  const newString = stringField(e, 'new_string');
  if (typeof newString !== 'string') return { error: prefix + newString.error };
  return given({ old_string: oldString, new_string: newString, replace_all: e.replace_all }) as unknown as FsEditOne;
}

/**
 * Claude Code's `Edit` input, or its `MultiEdit` (`{file_path, edits: [...]}`), as fs.edit's: one
 * edit as old_string / new_string, several as `edits` (applied in order, all or nothing, as there).
 */
export function editFromClaude(input: Record<string, unknown>): Record<string, unknown> | { error: string } {
  const file = stringField(input, 'file_path');
  if (typeof file !== 'string') return file;
  if (input.edits === undefined) {
    const one = oneEdit(input, '');
    return 'error' in one ? one : { path: file, ...one };
  }
  if (!Array.isArray(input.edits) || !input.edits.length) return { error: 'edits must be a list of {old_string, new_string} objects' };
  const edits: FsEditOne[] = [];
  for (const [i, raw] of input.edits.entries()) {
    const one = oneEdit(raw, `edits[${i}].`);
    if ('error' in one) return one;
    edits.push(one);
  }
  return edits.length === 1 ? { path: file, ...edits[0] } : { path: file, edits };
}

/** Claude Code's `Grep` input as fs.grep's (its output modes all come back as matching lines here). */
export function grepFromClaude(input: Record<string, unknown>): Record<string, unknown> | { error: string } {
  const pattern = stringField(input, 'pattern');
  if (typeof pattern !== 'string') return pattern;
  return given({
    pattern,
    path: input.path,
    glob: input.glob,
    ignoreCase: input['-i'],
    context: input['-C'] ?? input['-A'] ?? input['-B'],
    maxResults: input.head_limit,
  });
}

/** fs.grep's matches as Claude Code's `Grep` response in content mode (`file:line:text` lines). */
export function grepResponse(result: Record<string, unknown>, ctx: ClaudeInputContext): Record<string, unknown> {
  const matches = Array.isArray(result.matches) ? (result.matches as Array<{ file?: unknown; line?: unknown; text?: unknown }>) : [];
  const files = [...new Set(matches.map((m) => absolutePath(String(m.file ?? ''), ctx)))];
  const content = matches
    .map((m) => `${absolutePath(String(m.file ?? ''), ctx)}:${String(m.line ?? '')}:${String(m.text ?? '')}`)
    .join('\n');
  return { mode: 'content', numFiles: files.length, filenames: files, content, numLines: matches.length };
}
