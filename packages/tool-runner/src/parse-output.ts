import type { Step } from './types';

/** A match of rg / grep -n / git grep. */
export interface SearchMatch {
  file: string;
  line?: number;
  text: string;
}

/** One entry of git status. `status` is the two-letter porcelain code (`M `, `??`, `UU`). */
export interface GitStatusEntry {
  status: string;
  path: string;
  from?: string;
}

export interface GitLogEntry {
  hash: string;
  subject: string;
  author?: string;
  date?: string;
}

/** Structure parsed locally from a command's output, bounded in size. */
export type Parsed =
  | { kind: 'search_matches'; total: number; files: number; items: SearchMatch[]; partial?: boolean }
  | { kind: 'file_list'; total: number; items: string[]; partial?: boolean }
  | {
      kind: 'git_status';
      branch?: string;
      upstream?: string;
      ahead?: number;
      behind?: number;
      clean: boolean;
      total: number;
      items: GitStatusEntry[];
    }
  | { kind: 'git_log'; total: number; items: GitLogEntry[]; partial?: boolean }
  | { kind: 'json'; value?: unknown; type: string; size: number; keys?: string[]; length?: number };

/** The part of an exec result parsers look at. */
export interface ParseInput {
  exitCode: number | null;
  stdoutTail: string;
  truncated?: boolean;
  binary?: boolean;
}

/** Options of {@link parseOutput}. */
export interface ParseOptions {
  /** Items kept per list; default 50. */
  maxItems?: number;
  /** Largest JSON text passed through whole; bigger JSON is summarised. Default 4000. */
  maxJsonChars?: number;
}

const OMITTED_RE = /^\u2026\[\d+ bytes omitted\]\u2026$/;
const TEXT_MAX = 300;

function lines(text: string): { lines: string[]; partial: boolean } {
  const all = text.split('\n');
  if (all.length && all[all.length - 1] === '') all.pop();
  const partial = all.some((l) => OMITTED_RE.test(l));
  return { lines: all.filter((l) => !OMITTED_RE.test(l)), partial };
}

const clip = (s: string): string => (s.length > TEXT_MAX ? s.slice(0, TEXT_MAX - 1) + '…' : s);

function unwrap(program: string, args: readonly string[]): { program: string; args: readonly string[] } {
  // env/timeout/nice wrappers: parse what they run.
  let p = program.split('/').pop() ?? program;
  let a = args;
  for (let guard = 0; guard < 4 && ['env', 'timeout', 'nice', 'nohup', 'stdbuf', 'time'].includes(p); guard++) {
    let i = 0;
    while (i < a.length && (a[i].startsWith('-') || /^[A-Za-z_][A-Za-z0-9_]*=/.test(a[i]) || (p === 'timeout' && /^\d/.test(a[i])))) {
      i += ['-n', '-s', '-k', '-u', '-C'].includes(a[i]) ? 2 : 1;
    }
    if (i >= a.length) break;
    p = a[i].split('/').pop() ?? a[i];
    a = a.slice(i + 1);
  }
  return { program: p, args: a };
}

function gitSub(args: readonly string[]): { sub: string; rest: readonly string[] } {
  let i = 0;
  while (i < args.length && args[i].startsWith('-')) i += ['-C', '-c', '--git-dir', '--work-tree'].includes(args[i]) ? 2 : 1;
  return { sub: args[i] ?? '', rest: args.slice(i + 1) };
}

function parseSearch(text: string, max: number, withLineNumbers: boolean): Parsed | undefined {
  const { lines: ls, partial } = lines(text);
  const items: SearchMatch[] = [];
  const files = new Set<string>();
  let total = 0;
  for (const l of ls) {
    if (l === '--') continue;
    const m = withLineNumbers ? /^(.+?)[:-](\d+)[:-](.*)$/.exec(l) : /^(.+?):(.*)$/.exec(l);
    if (!m) continue;
    total++;
    files.add(m[1]);
    if (items.length < max) {
      items.push(withLineNumbers ? { file: m[1], line: Number(m[2]), text: clip(m[3]) } : { file: m[1], text: clip(m[2]) });
    }
  }
  if (total === 0) return ls.length === 0 ? { kind: 'search_matches', total: 0, files: 0, items: [] } : undefined;
  return { kind: 'search_matches', total, files: files.size, items, ...(partial ? { partial } : {}) };
}

function parseFileList(text: string, max: number, long: boolean): Parsed {
  const { lines: ls, partial } = lines(text);
  const names: string[] = [];
  for (const l of ls) {
    if (!l.trim() || /^total \d+/.test(l) || /^.+:$/.test(l)) continue;
    if (long) {
      const m = /^[-dlcbpsD][rwxsStT-]{9}[@+.]?\s+\S+\s+\S+\s+\S+\s+\S+\s+\S+\s+\S+\s+\S+\s+(.*)$/.exec(l);
      names.push(m ? m[1] : l);
    } else {
      names.push(l);
    }
  }
  return { kind: 'file_list', total: names.length, items: names.slice(0, max).map(clip), ...(partial ? { partial } : {}) };
}

const HUMAN_STATUS: Record<string, string> = {
  'new file': 'A',
  modified: 'M',
  deleted: 'D',
  renamed: 'R',
  copied: 'C',
  typechange: 'T',
  'both modified': 'U',
  'both added': 'U',
  'both deleted': 'U',
  'added by us': 'U',
  'added by them': 'U',
  'deleted by us': 'U',
  'deleted by them': 'U',
};

/** What `git status` said so far: the branch and its upstream, and the first `max` entries of all. */
class GitStatusSummary {
  branch: string | undefined;
  upstream: string | undefined;
  ahead: number | undefined;
  behind: number | undefined;
  total = 0;
  readonly items: GitStatusEntry[] = [];

  constructor(private readonly max: number) {}

  add(e: GitStatusEntry): void {
    this.total++;
    if (this.items.length < this.max) this.items.push(e);
  }

  result(): Parsed {
    const { branch, upstream, ahead, behind, total, items } = this;
    return {
      kind: 'git_status',
      ...(branch ? { branch } : {}),
      ...(upstream ? { upstream } : {}),
      ...(ahead !== undefined ? { ahead } : {}),
      ...(behind !== undefined ? { behind } : {}),
      clean: total === 0,
      total,
      items,
    };
  }
}

/** `git status` as people read it (On branch …, Changes to be committed: …). */
function readHumanStatus(ls: string[], st: GitStatusSummary): void {
  let section = '';
  for (const l of ls) {
    let m: RegExpExecArray | null;
    if ((m = /^On branch (.+)$/.exec(l))) st.branch = m[1];
    else if ((m = /^Your branch is ahead of '(.+?)' by (\d+) commit/.exec(l))) [st.upstream, st.ahead] = [m[1], Number(m[2])];
    else if ((m = /^Your branch is behind '(.+?)' by (\d+) commit/.exec(l))) [st.upstream, st.behind] = [m[1], Number(m[2])];
    else if ((m = /^Your branch and '(.+?)' have diverged/.exec(l))) st.upstream = m[1];
    else if ((m = /^and have (\d+) and (\d+) different commits/.exec(l))) [st.ahead, st.behind] = [Number(m[1]), Number(m[2])];
    else if ((m = /^Your branch is up to date with '(.+?)'/.exec(l))) [st.upstream, st.ahead, st.behind] = [m[1], 0, 0];
    else if (/^Changes to be committed/.test(l)) section = 'staged';
    else if (/^Changes not staged/.test(l)) section = 'unstaged';
    else if (/^Untracked files/.test(l)) section = 'untracked';
    else if (/^Unmerged paths/.test(l)) section = 'unmerged';
    else if (/^\t/.test(l) && section) {
      const body = l.slice(1);
      const sm = /^([a-z ]+):\s+(.*)$/.exec(body);
      if (section === 'untracked' || !sm) {
        st.add({ status: '??', path: body });
      } else {
        const code = HUMAN_STATUS[sm[1]] ?? '?';
        const [from, to] = sm[2].includes(' -> ') ? sm[2].split(' -> ') : [undefined, sm[2]];
        const status = section === 'staged' ? `${code} ` : section === 'unmerged' ? 'UU' : ` ${code}`;
        st.add({ status, path: to, ...(from ? { from } : {}) });
      }
    }
  }
}

/** `git status --short`, `--porcelain` (v1 or v2) and `-b`; false on a line of none of them. */
function readPorcelainStatus(ls: string[], st: GitStatusSummary): boolean {
  for (const l of ls) {
    let m: RegExpExecArray | null;
    if ((m = /^## (?:No commits yet on )?([^. ]+?)(?:\.\.\.(\S+))?(?: \[(.*)\])?$/.exec(l))) {
      st.branch = m[1];
      st.upstream = m[2];
      const a = /ahead (\d+)/.exec(m[3] ?? '');
      const b = /behind (\d+)/.exec(m[3] ?? '');
      if (a) st.ahead = Number(a[1]);
      if (b) st.behind = Number(b[1]);
    } else if ((m = /^# branch\.head (.+)$/.exec(l))) st.branch = m[1];
    else if ((m = /^# branch\.upstream (.+)$/.exec(l))) st.upstream = m[1];
    else if ((m = /^# branch\.ab \+(\d+) -(\d+)$/.exec(l))) [st.ahead, st.behind] = [Number(m[1]), Number(m[2])];
    else if ((m = /^1 (..) \S+ \S+ \S+ \S+ \S+ \S+ (.+)$/.exec(l))) st.add({ status: m[1].replace(/\./g, ' '), path: m[2] });
    else if ((m = /^2 (..) \S+ \S+ \S+ \S+ \S+ \S+ \S+ (.+)\t(.+)$/.exec(l)))
      st.add({ status: m[1].replace(/\./g, ' '), path: m[2], from: m[3] });
    else if ((m = /^u (..) (?:\S+ ){8}(.+)$/.exec(l))) st.add({ status: m[1], path: m[2] });
    else if ((m = /^\? (.+)$/.exec(l))) st.add({ status: '??', path: m[1] });
    else if ((m = /^([ MADRCUT?!]{2}) (.+)$/.exec(l))) {
      const [from, to] = m[2].includes(' -> ') ? m[2].split(' -> ') : [undefined, m[2]];
      st.add({ status: m[1], path: to, ...(from ? { from } : {}) });
    } else if (l.trim() && !l.startsWith('# ')) return false;
  }
  return true;
}

function parseGitStatus(text: string, max: number): Parsed | undefined {
  const { lines: ls } = lines(text);
  const st = new GitStatusSummary(max);
  const human = ls.some((l) => /^On branch |^HEAD detached |^Not currently on any branch|^nothing to commit|^Changes /.test(l));
  if (human) readHumanStatus(ls, st);
  else if (!readPorcelainStatus(ls, st)) return undefined;
  return st.result();
}

function parseGitLog(text: string, max: number): Parsed | undefined {
  const { lines: ls, partial } = lines(text);
  const items: GitLogEntry[] = [];
  let total = 0;
  if (ls.some((l) => /^commit [0-9a-f]{7,40}/.test(l))) {
    let cur: GitLogEntry | undefined;
    for (const l of ls) {
      let m: RegExpExecArray | null;
      if ((m = /^commit ([0-9a-f]{7,40})/.exec(l))) {
        total++;
        cur = { hash: m[1], subject: '' };
        if (items.length < max) items.push(cur);
        else cur = undefined;
      } else if (cur && (m = /^Author:\s+(.*)$/.exec(l))) cur.author = m[1];
      else if (cur && (m = /^Date:\s+(.*)$/.exec(l))) cur.date = m[1];
      else if (cur && !cur.subject && /^ {4}\S/.test(l)) cur.subject = clip(l.trim());
    }
  } else {
    for (const l of ls) {
      const m = /^[*|\\/ ]*([0-9a-f]{7,40}) (.*)$/.exec(l);
      if (!m) continue;
      total++;
      if (items.length < max) items.push({ hash: m[1], subject: clip(m[2].replace(/^\([^)]*\) /, '')) });
    }
    if (total === 0 && ls.length > 0) return undefined;
  }
  return { kind: 'git_log', total, items, ...(partial ? { partial } : {}) };
}

function parseJson(text: string, maxChars: number): Parsed | undefined {
  const t = text.trim();
  if (!t || !/^[[{]/.test(t)) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(t);
  } catch {
    return undefined;
  }
  const type = Array.isArray(value) ? 'array' : value === null ? 'null' : typeof value;
  if (t.length <= maxChars) return { kind: 'json', type, size: t.length, value };
  return {
    kind: 'json',
    type,
    size: t.length,
    ...(Array.isArray(value)
      ? { length: value.length }
      : value && typeof value === 'object'
        ? { keys: Object.keys(value).slice(0, 50) }
        : {}),
  };
}

/**
 * Turn a finished step's output into a small structure the model can use without reading the
 * raw text: search matches, file lists, git status, git log or JSON. Undefined when nothing fits.
 */
export function parseOutput(step: Step, result: ParseInput, options: ParseOptions = {}): Parsed | undefined {
  const max = options.maxItems ?? 50;
  const maxJson = options.maxJsonChars ?? 4000;
  if (result.binary) return undefined;
  const text = result.stdoutTail ?? '';
  if (step.tool !== 'exec') return step.tool === 'plugin.run' && !result.truncated ? parseJson(text, maxJson) : undefined;
  const { program, args } = unwrap(step.program, step.args ?? []);
  const has = (...flags: string[]): boolean =>
    args.some((a) => flags.includes(a) || flags.some((f) => f.length === 2 && /^-[a-zA-Z]+$/.test(a) && a.includes(f[1])));
  const json = !result.truncated ? parseJson(text, maxJson) : undefined;
  if (json) return json;
  switch (program) {
    case 'rg':
    case 'grep':
    case 'egrep':
    case 'fgrep': {
      if (has('-l', '--files-with-matches', '--files', '-L', '--files-without-match')) return parseFileList(text, max, false);
      if (has('-c', '--count', '--json')) return undefined;
      const numbered =
        program === 'rg'
          ? !args.includes('-N') && !args.includes('--no-line-number') && has('-n', '--line-number')
          : has('-n', '--line-number');
      if (result.exitCode !== 0 && result.exitCode !== 1) return undefined;
      return parseSearch(text, max, numbered);
    }
    case 'ls':
    case 'dir':
      return result.exitCode === 0 ? parseFileList(text, max, has('-l', '-g', '-o', '-n')) : undefined;
    case 'find':
    case 'fd':
    case 'fdfind':
      return parseFileList(text, max, false);
    case 'git': {
      const { sub, rest } = gitSub(args);
      if (result.exitCode !== 0 && !(sub === 'grep' && result.exitCode === 1)) return undefined;
      if (sub === 'status') return parseGitStatus(text, max);
      if (sub === 'log') return parseGitLog(text, max);
      if (sub === 'grep')
        return parseSearch(
          text,
          max,
          rest.some((a) => a === '-n' || a === '--line-number' || (/^-[a-zA-Z]+$/.test(a) && a.includes('n'))),
        );
      if (sub === 'ls-files' || (sub === 'diff' && rest.some((a) => a === '--name-only'))) return parseFileList(text, max, false);
      return undefined;
    }
    default:
      return undefined;
  }
}
