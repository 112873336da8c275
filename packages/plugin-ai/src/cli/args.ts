/**
 * CLI arguments, parsed by `node:util` parseArgs (no dependency: this runs on the `--help`
 * fast path). Tokens are read in order, so `ai -h --bogus` is help and `ai --bogus -h` an error,
 * and every problem names the option as the user typed it.
 */
import { parseArgs as parseTokens } from 'node:util';
import type { AppAgentOptions } from './app';

export interface RunArgs {
  kind: 'run';
  prompt?: string;
  /** `-p` was given: one turn and exit, even without a prompt (`ai -c -p` continues the last turn). */
  oneShot?: boolean;
  interactive: boolean;
  json: boolean;
  mode?: 'low' | 'high';
  /** `--permission-mode plan|default|auto-edit|yolo` (Claude Code's name): how much runs without a
   * question. `--mode plan` etc. still sets it (an alias; `--mode` is otherwise the tier low|high). */
  runMode?: 'plan' | 'default' | 'auto-edit' | 'yolo';
  profile?: string;
  continue: boolean;
  approveL1: boolean;
  maxSteps?: number;
  /** `--image <file>` (repeatable): images sent with the prompt (checked before any request). */
  images?: string[];
  /** `--acp`: an Agent Client Protocol agent on stdin/stdout, for an editor (acp/server.ts). */
  acp?: boolean;
  /** `--input-format stream-json`: one turn per JSON line on stdin, answered as `--json` events (implies `-p` and `--json`). */
  inputFormat?: 'text' | 'stream-json';
  /** `--append-system-prompt <text>`: added after the system prompt. */
  appendSystemPrompt?: string;
  /** `--system-prompt-file <file>`: its text in place of the project's instructions (the protocol and rules stay). */
  systemPromptFile?: string;
}

/** The run's own flags as createAppAgent takes them: every front end (`-p`, stream-json, `-i`, ACP) builds its app from these. */
export function appOptionsOf(
  args: RunArgs,
): Pick<AppAgentOptions, 'mode' | 'profile' | 'maxAutoSteps' | 'systemPromptFile' | 'appendSystemPrompt'> {
  return {
    mode: args.mode,
    profile: args.profile,
    maxAutoSteps: args.maxSteps,
    systemPromptFile: args.systemPromptFile,
    appendSystemPrompt: args.appendSystemPrompt,
  };
}

export type ParsedArgs =
  | { kind: 'help' }
  | { kind: 'version' }
  | { kind: 'risk'; json: boolean; argv: string[] }
  | { kind: 'mcp'; argv: string[] }
  | { kind: 'sandbox' }
  | RunArgs
  | {
      kind: 'error';
      key:
        | 'unknownOption'
        | 'missingValue'
        | 'badMode'
        | 'badPermissionMode'
        | 'badMaxSteps'
        | 'riskUsage'
        | 'missingPrompt'
        | 'badInputFormat'
        | 'acpWith'
        | 'acpYolo'
        | 'streamJsonWith';
      vars: Record<string, string>;
    };

/** Every option of `ai` (the help text lists them from here; a test checks both languages name each). */
export const OPTIONS = {
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'v' },
  interactive: { type: 'boolean', short: 'i' },
  prompt: { type: 'string', short: 'p' },
  json: { type: 'boolean' },
  continue: { type: 'boolean', short: 'c' },
  'approve-l1': { type: 'boolean' },
  mode: { type: 'string' },
  'permission-mode': { type: 'string' },
  profile: { type: 'string' },
  'max-steps': { type: 'string' },
  image: { type: 'string' },
  acp: { type: 'boolean' },
  'input-format': { type: 'string' },
  'append-system-prompt': { type: 'string' },
  'system-prompt-file': { type: 'string' },
} as const;

type OptionName = keyof typeof OPTIONS;
type ErrorResult = Extract<ParsedArgs, { kind: 'error' }>;
type Token = NonNullable<ReturnType<typeof parseTokens>['tokens']>[number];

const isOption = (name: string): name is OptionName => Object.prototype.hasOwnProperty.call(OPTIONS, name);

/** The tokens of argv as parseArgs reads them; unknown options are tokens too (checked by the caller). */
export function tokensOf(argv: string[]): Token[] {
  return parseTokens({ args: argv, options: OPTIONS, strict: false, allowPositionals: true, tokens: true }).tokens ?? [];
}

type StringOption =
  | 'prompt'
  | 'mode'
  | 'permission-mode'
  | 'profile'
  | 'max-steps'
  | 'image'
  | 'input-format'
  | 'append-system-prompt'
  | 'system-prompt-file';
const isRunMode = (v: string): v is NonNullable<RunArgs['runMode']> => v === 'plan' || v === 'default' || v === 'auto-edit' || v === 'yolo';

/** A string option's value into `out`, or the error it makes. */
function setValue(out: RunArgs, name: StringOption, value: string): ErrorResult | undefined {
  if (name === 'image') out.images = [...(out.images ?? []), value];
  else if (name === 'permission-mode') {
    if (isRunMode(value)) out.runMode = value;
    else return { kind: 'error', key: 'badPermissionMode', vars: { value } };
  } else if (name === 'mode') {
    if (isRunMode(value)) out.runMode = value;
    else if (value === 'low' || value === 'high') out.mode = value;
    else return { kind: 'error', key: 'badMode', vars: { value } };
  } else if (name === 'max-steps') {
    const n = Number(value);
    if (!Number.isInteger(n) || n < 1) return { kind: 'error', key: 'badMaxSteps', vars: { value } };
    out.maxSteps = n;
  } else if (name === 'input-format') {
    if (value === 'text' || value === 'stream-json') out.inputFormat = value;
    else return { kind: 'error', key: 'badInputFormat', vars: { value } };
  } else if (name === 'append-system-prompt') out.appendSystemPrompt = value;
  else if (name === 'system-prompt-file') out.systemPromptFile = value;
  else if (name === 'profile') out.profile = value;
  else out.prompt = value;
  return undefined;
}

/** Parse `ai`'s argv (without node and the script). Pure. */
export function parseArgs(argv: string[]): ParsedArgs {
  if (argv[0] === 'risk') return parseRisk(argv.slice(1));
  if (argv[0] === 'mcp') return { kind: 'mcp', argv: argv.slice(1) };
  if (argv[0] === 'sandbox' && argv.length === 1) return { kind: 'sandbox' };
  const out: RunArgs = { kind: 'run', interactive: false, json: false, continue: false, approveL1: false };
  const words: string[] = [];
  const bare = barePrompt(argv);
  let promptWithoutValue: string | undefined = bare?.rawName;
  if (bare) out.oneShot = true;
  for (const tok of tokensOf(bare ? bare.argv : argv)) {
    if (tok.kind === 'option-terminator') continue;
    if (tok.kind === 'positional') {
      words.push(tok.value);
      continue;
    }
    if (!isOption(tok.name)) return { kind: 'error', key: 'unknownOption', vars: { option: tok.rawName } };
    const name = tok.name;
    if (name === 'help') return { kind: 'help' };
    if (name === 'version') return { kind: 'version' };
    if (OPTIONS[name].type === 'boolean') {
      if (name === 'interactive') out.interactive = true;
      else if (name === 'json') out.json = true;
      else if (name === 'acp') out.acp = true;
      else if (name === 'continue') out.continue = true;
      else out.approveL1 = true;
      continue;
    }
    if (tok.value === undefined) {
      // `ai -c -p`: one turn that continues the last one needs no prompt (checked below).
      if (name === 'prompt') {
        out.oneShot = true;
        promptWithoutValue = tok.rawName;
        continue;
      }
      return { kind: 'error', key: 'missingValue', vars: { option: tok.rawName } };
    }
    if (name === 'prompt') out.oneShot = true;
    const problem = setValue(out, name as StringOption, tok.value);
    if (problem) return problem;
  }
  if (words.length) out.prompt = out.prompt !== undefined ? `${out.prompt} ${words.join(' ')}` : words.join(' ');
  const streamJson = out.inputFormat === 'stream-json';
  if (promptWithoutValue && out.prompt === undefined && !out.continue && !streamJson)
    return { kind: 'error', key: 'missingValue', vars: { option: promptWithoutValue } };
  return out.acp ? checkAcp(out, argv) : streamJson ? checkStreamJson(out, argv) : out;
}

/**
 * `-p --input-format stream-json`: a `-p` (or `--prompt`) whose value would be one of our own long
 * options is `-p` without a prompt (as `claude -p --input-format …` reads), not the prompt
 * "--input-format". Returns argv without that `-p`, and how it was typed.
 */
function barePrompt(argv: string[]): { argv: string[]; rawName: string } | undefined {
  const tok = tokensOf(argv).find((t) => t.kind === 'option' && t.name === 'prompt');
  if (!tok || tok.kind !== 'option' || tok.inlineValue !== false || tok.value === undefined) return undefined;
  const named = /^--([a-z][\w-]*)(=|$)/.exec(tok.value);
  if (!named || !isOption(named[1])) return undefined;
  return { argv: [...argv.slice(0, tok.index), ...argv.slice(tok.index + 1)], rawName: tok.rawName };
}

/** The first of `names` (as typed) that `argv` has, for a message naming it. */
function firstTyped(argv: string[], names: readonly string[]): string | undefined {
  for (const tok of tokensOf(argv)) {
    if (tok.kind === 'option' && names.includes(tok.name)) return tok.rawName;
    if (tok.kind === 'positional' && names.includes('')) return tok.value;
  }
  return undefined;
}

/** `--acp` speaks the protocol on stdin and stdout: a prompt, a session to continue or another output are not for it. */
function checkAcp(out: RunArgs, argv: string[]): ParsedArgs {
  const other = firstTyped(argv, ['prompt', 'interactive', 'json', 'continue', 'image', 'input-format', 'approve-l1', '']);
  if (other !== undefined) return { kind: 'error', key: 'acpWith', vars: { option: other } };
  // The editor's questions are the person's; a mode that asks none is a terminal's choice.
  if (out.runMode === 'yolo') return { kind: 'error', key: 'acpYolo', vars: {} };
  return out;
}

/** `--input-format stream-json` reads every prompt from stdin and answers with JSON lines: one-shot and `--json` by itself. */
function checkStreamJson(out: RunArgs, argv: string[]): ParsedArgs {
  const other = out.interactive
    ? firstTyped(argv, ['interactive'])
    : out.prompt !== undefined
      ? firstTyped(argv, ['prompt', ''])
      : undefined;
  if (other !== undefined) return { kind: 'error', key: 'streamJsonWith', vars: { option: other } };
  return { ...out, oneShot: true, json: true };
}

/** The options as typed (`--mode`, `-p`), for "did you mean" (shared/usage closest). */
export const OPTION_NAMES: readonly string[] = Object.keys(OPTIONS).map((name) => `--${name}`);

/** `ai risk [--json] [--] program args...`: options end at the program. */
function parseRisk(argv: string[]): ParsedArgs {
  let json = false;
  let start = argv.length;
  for (const tok of parseTokens({ args: argv, options: { json: { type: 'boolean' } }, strict: false, allowPositionals: true, tokens: true })
    .tokens ?? []) {
    if (tok.kind === 'option' && tok.name === 'json') json = true;
    else {
      start = tok.kind === 'option-terminator' ? tok.index + 1 : tok.index;
      break;
    }
  }
  const rest = argv.slice(start);
  if (!rest.length || rest[0].startsWith('-')) return { kind: 'error', key: 'riskUsage', vars: {} };
  return { kind: 'risk', json, argv: rest };
}
