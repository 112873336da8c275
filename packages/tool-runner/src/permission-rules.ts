/**
 * Permission rules: lasting allow / ask / deny decisions a user writes (or accepts from the
 * question dialog), per tool, in one syntax:
 *
 *     exec(git log *)              a command: words, `*` alone = any further words (zero or more),
 *                                  `*` inside a word = any characters within that word
 *     exec(npm run test)           exactly that command line
 *     fs.edit(src/**)              a path relative to the workspace: `**` any folders, `*` within a name
 *     http.get(domain:api.github.com)   a host, `*.github.com` for its subdomains
 *     plugin.run(weather)          a name (plugin alias)
 *     mcp.github.*                 a tool name pattern without parentheses: any input
 *
 * Precedence: deny > ask > allow > the classifier's level; an allow rule lowers only L1 to L0 and
 * never lets an L2 step run. Pure: matching and deciding, no file access.
 */

/** What a rule is matched against, as the tool describes its input. */
export type PermissionSubject =
  | { kind: 'command'; words: string[] }
  | { kind: 'path'; path: string }
  | { kind: 'url'; host: string }
  | { kind: 'name'; name: string }
  | { kind: 'none' };

export type PermissionEffect = 'allow' | 'ask' | 'deny';

/** A rule as parsed from its text. */
export interface PermissionRule {
  /** The text as written, e.g. `exec(git log *)`. */
  text: string;
  effect: PermissionEffect;
  /** Where it was written (a file path), for `/permissions` and for reasons. */
  source: string;
  /** Tool name pattern (`*` within the dotted name). */
  tool: string;
  /** The argument pattern; undefined when the rule has no parentheses (any input). */
  arg?: { kind: 'words'; words: string[] } | { kind: 'path'; pattern: string } | { kind: 'domain'; pattern: string };
}

/** A rule text that could not be read, with why. */
export interface RuleProblem {
  text: string;
  source: string;
  error: string;
}

const TOOL_NAME = /^[A-Za-z*][A-Za-z0-9_*-]*(?:\.[A-Za-z0-9_*-]+)*$/;

/** Tools whose argument is a path, a host or a name; every other tool's argument is a command. */
export type ArgKind = 'words' | 'path' | 'domain' | 'name';

/**
 * Parse one rule. `argKind` tells how the tool's argument is written (the registry knows it);
 * it defaults to words (commands, names).
 */
export function parseRule(
  text: string,
  effect: PermissionEffect,
  source: string,
  argKind: (tool: string) => ArgKind = () => 'words',
): PermissionRule | RuleProblem {
  const trimmed = text.trim();
  const open = trimmed.indexOf('(');
  const tool = (open < 0 ? trimmed : trimmed.slice(0, open)).trim();
  if (!TOOL_NAME.test(tool)) return { text, source, error: `"${tool}" is not a tool name (expected e.g. exec, fs.edit, mcp.github.*)` };
  if (open < 0) return { text: trimmed, effect, source, tool };
  if (!trimmed.endsWith(')')) return { text, source, error: 'the argument must end with ")"' };
  const inner = trimmed.slice(open + 1, -1).trim();
  if (!inner) return { text, source, error: 'the parentheses are empty (leave them out to match any input)' };
  const kind = argKind(tool);
  if (kind === 'domain') {
    const pattern = inner.startsWith('domain:') ? inner.slice('domain:'.length).trim().toLowerCase() : '';
    if (!/^(\*\.)?[a-z0-9-]+(\.[a-z0-9-]+)*$/.test(pattern)) return { text, source, error: 'expected domain:<host> or domain:*.<host>' };
    return { text: trimmed, effect, source, tool, arg: { kind: 'domain', pattern } };
  }
  if (kind === 'path') {
    if (inner.split('/').includes('..')) return { text, source, error: 'a path pattern may not contain ".."' };
    return { text: trimmed, effect, source, tool, arg: { kind: 'path', pattern: inner.replace(/^\.\//, '') } };
  }
  return { text: trimmed, effect, source, tool, arg: { kind: 'words', words: inner.split(/\s+/) } };
}

export function isRuleProblem(r: PermissionRule | RuleProblem): r is RuleProblem {
  return (r as RuleProblem).error !== undefined;
}

/** `*` within one segment (no `/` and no `.` boundaries are special here: a plain glob). */
function globToRegExp(glob: string, segment: string): RegExp {
  let re = '';
  for (let i = 0; i < glob.length; i++) {
    const ch = glob[i];
    if (ch === '*') re += `[^${segment}]*`;
    else if (ch === '?') re += `[^${segment}]`;
    else re += ch.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${re}$`, 's');
}

function matchToolName(pattern: string, name: string): boolean {
  return pattern === name || globToRegExp(pattern, '').test(name);
}

/** Words with `*` alone = any run of words; linear-time two-pointer glob over words. */
function matchWords(pattern: string[], words: string[]): boolean {
  let p = 0;
  let w = 0;
  let star = -1;
  let mark = 0;
  const wordMatches = (pat: string, word: string): boolean =>
    pat.includes('*') || pat.includes('?') ? globToRegExp(pat, '').test(word) : pat === word;
  while (w < words.length) {
    if (p < pattern.length && pattern[p] === '*') {
      star = p++;
      mark = w;
    } else if (p < pattern.length && wordMatches(pattern[p], words[w])) {
      p++;
      w++;
    } else if (star >= 0) {
      p = star + 1;
      w = ++mark;
    } else return false;
  }
  while (p < pattern.length && pattern[p] === '*') p++;
  return p === pattern.length;
}

/** gitignore-like: `**` any number of folders, `*` and `?` within one name. */
function matchPath(pattern: string, file: string): boolean {
  const parts = pattern.split('/').filter((s, i) => s !== '' || i === 0);
  const segs = file.split('/').filter(Boolean);
  const memo = new Map<string, boolean>();
  const go = (i: number, j: number): boolean => {
    const key = `${i},${j}`;
    const known = memo.get(key);
    if (known !== undefined) return known;
    let out: boolean;
    if (i === parts.length) out = j === segs.length;
    else if (parts[i] === '**') out = go(i + 1, j) || (j < segs.length && go(i, j + 1));
    else out = j < segs.length && globToRegExp(parts[i], '/').test(segs[j]) && go(i + 1, j + 1);
    memo.set(key, out);
    return out;
  };
  return go(0, 0);
}

function matchDomain(pattern: string, host: string): boolean {
  const h = host.toLowerCase().replace(/\.$/, '');
  if (pattern.startsWith('*.')) return h.endsWith(pattern.slice(1));
  return h === pattern;
}

/** Whether `rule` covers a step of `tool` whose input reads as `subject`. */
export function ruleMatches(rule: PermissionRule, tool: string, subject: PermissionSubject): boolean {
  if (!matchToolName(rule.tool, tool)) return false;
  const arg = rule.arg;
  if (!arg) return true;
  switch (subject.kind) {
    case 'command':
      return arg.kind === 'words' && matchWords(arg.words, subject.words);
    case 'name':
      return arg.kind === 'words' && matchWords(arg.words, [subject.name]);
    case 'path':
      return arg.kind === 'path' && !subject.path.split('/').includes('..') && matchPath(arg.pattern, subject.path);
    case 'url':
      return arg.kind === 'domain' && matchDomain(arg.pattern, subject.host);
    default:
      return false;
  }
}

/** The rule that decides a step, by precedence deny > ask > allow; undefined when none matches. */
export function decideByRules(rules: readonly PermissionRule[], tool: string, subject: PermissionSubject): PermissionRule | undefined {
  for (const effect of ['deny', 'ask', 'allow'] as const) {
    const hit = rules.find((r) => r.effect === effect && ruleMatches(r, tool, subject));
    if (hit) return hit;
  }
  return undefined;
}

/** The exact rule the question dialog offers for "don't ask again": never wider than the step shown. */
export function exactRuleFor(tool: string, subject: PermissionSubject): string | undefined {
  const quoteSafe = (w: string): boolean => w !== '' && !/[\s()*?]/.test(w);
  switch (subject.kind) {
    case 'command':
      return subject.words.length && subject.words.every(quoteSafe) ? `${tool}(${subject.words.join(' ')})` : undefined;
    case 'name':
      return quoteSafe(subject.name) ? `${tool}(${subject.name})` : undefined;
    case 'path':
      return subject.path && !/[()*?\s]/.test(subject.path) && !subject.path.split('/').includes('..')
        ? `${tool}(${subject.path})`
        : undefined;
    case 'url':
      return /^[a-z0-9.-]+$/i.test(subject.host) ? `${tool}(domain:${subject.host.toLowerCase()})` : undefined;
    case 'none':
      // A tool whose input rules cannot tell apart (an MCP tool): the rule names the tool itself.
      return tool;
    default:
      return undefined;
  }
}
