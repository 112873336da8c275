/** The slash commands of `ai -i`, and parsing what was typed. Pure. */
import { editDistance } from '@holic512/shared/lib/usage';

export const COMMANDS = [
  'help',
  'clear',
  'compact',
  'context',
  'cost',
  'mode',
  'profile',
  'sessions',
  'resume',
  'steer',
  'next',
  'undo',
  'rewind',
  'model',
  'ps',
  'memory',
  'permissions',
  'trust',
  'skills',
  'hooks',
  'agents',
  'checks',
  'review',
  'mcp',
  'pull',
  'init',
  'diff',
  'export',
  'edit',
  'exit',
] as const;

export type CommandName = (typeof COMMANDS)[number];

/** Built-in commands a custom command of the same name replaces (a team's own `/init`, a `review.md`). */
export const OVERRIDABLE: readonly CommandName[] = ['init', 'review'];

/** What a typed line means. */
export type Parsed =
  | { kind: 'empty' }
  | { kind: 'message'; text: string }
  /** `!cmd`: a command the person runs (`line` empty for a lone `!`, which toggles shell mode). */
  | { kind: 'shell'; line: string }
  /** `# text` alone on one line: a line for a memory file. */
  | { kind: 'remember'; text: string }
  | { kind: 'command'; name: CommandName; arg: string }
  | { kind: 'unknown'; name: string; suggestion?: CommandName };

const ALIASES: Record<string, CommandName> = { quit: 'exit', '?': 'help', q: 'exit' };

/**
 * Parse a submitted input. A line starting with `//` is a message starting with `/`; one line
 * starting with `!` is a command to run, `# text` a line for memory (several lines are a message:
 * a pasted Markdown heading or shell snippet goes to the model).
 */
export function parseInput(input: string): Parsed {
  const text = input.trim();
  if (!text) return { kind: 'empty' };
  if (!text.includes('\n') && text.startsWith('!')) return { kind: 'shell', line: text.slice(1).trim() };
  if (!text.includes('\n') && /^#\s+\S/.test(text)) return { kind: 'remember', text: text.replace(/^#\s+/, '') };
  if (!text.startsWith('/') || text.startsWith('//')) {
    return { kind: 'message', text: text.startsWith('//') ? text.slice(1) : input.replace(/^\s+|\s+$/g, '') };
  }
  const match = /^\/(\S*)\s*([\s\S]*)$/.exec(text)!;
  const word = match[1].toLowerCase();
  const arg = match[2].trim();
  const name = (COMMANDS as readonly string[]).includes(word) ? (word as CommandName) : ALIASES[word];
  if (name) return { kind: 'command', name, arg };
  return { kind: 'unknown', name: `/${match[1]}`, suggestion: closest(word) };
}

/** What can complete the input: whole replacement texts and the short forms to show. */
export interface Completion {
  candidates: string[];
  display: string[];
}

/** Complete a command name, or the argument of /mode, /profile and /resume. Pure. */
export function completeInput(
  input: string,
  sources: { profiles: string[]; sessions: () => string[]; custom?: readonly string[] },
): Completion {
  const none = { candidates: [], display: [] };
  if (!input.startsWith('/') || input.includes('\n')) return none;
  const word = input.slice(1).toLowerCase();
  const names = [...completions(input), ...(/^\/\S*$/.test(input) ? (sources.custom ?? []).filter((c) => c.startsWith(word)) : [])];
  if (names.length) return { candidates: names.map((c) => `/${c} `), display: names.map((c) => `/${c}`) };
  const m = /^\/(mode|profile|resume) +(\S*)$/.exec(input);
  if (!m) return none;
  const pool = m[1] === 'mode' ? ['low', 'high'] : m[1] === 'profile' ? sources.profiles : sources.sessions();
  const found = pool.filter((v) => v.startsWith(m[2]) && v !== m[2]);
  return { candidates: found.map((v) => `/${m[1]} ${v}`), display: found };
}

/** The longest common start of the candidates. */
export function commonPrefix(values: string[]): string {
  if (!values.length) return '';
  let prefix = values[0];
  for (const v of values.slice(1)) while (!v.startsWith(prefix)) prefix = prefix.slice(0, -1);
  return prefix;
}

/** Commands whose name starts with what was typed (for the hint under the prompt). */
export function completions(input: string): CommandName[] {
  if (!/^\/\S*$/.test(input)) return [];
  const word = input.slice(1).toLowerCase();
  return COMMANDS.filter((c) => c.startsWith(word));
}

function closest(word: string): CommandName | undefined {
  let best: CommandName | undefined;
  let bestDistance = 3;
  for (const c of COMMANDS) {
    const d = editDistance(word, c);
    if (d < bestDistance) {
      best = c;
      bestDistance = d;
    }
  }
  return best;
}
