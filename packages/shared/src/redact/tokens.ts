import { TOKEN_RULES, type TokenRule } from './rules';
import { count } from './work';

/**
 * The scan for token rules: one pass of a prefilter (the literals of every rule, as one
 * alternation) over the text; at each hit, the rules of that literal are tried with a sticky
 * expression at that one place. A hit inside a token already masked is skipped, so each
 * character is read by the prefilter once and by the sticky expressions a bounded number of
 * times (a hit needs a word boundary before it, and a rule's body either is bounded or ends
 * in a class run that takes the rest of the run).
 */

/** How a masked value reads: `PREFIX[redacted KIND, N chars]`, N the length of the whole value. */
export function mask(kind: string, value: string, keep = ''): string {
  return `${keep}[redacted ${kind}, ${value.length} chars]`;
}

/**
 * A found value, for the gate to learn it as a known secret. `sure`: the syntax says it is one
 * (an option's value, a credential document's field), so it is learned even when it reads as a
 * word or a number (`--password=letmein`, a `client_id`); otherwise only secret-looking values are.
 */
export type Learn = (value: string, sure?: boolean) => void;

const esc = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const END = '(?![A-Za-z0-9])';

/** One rule at one literal; its sticky expression is compiled when the prefilter first hits the
 * literal (most texts hit few of the 196: a start builds none of them). */
class Candidate {
  #re: RegExp | undefined;
  constructor(
    readonly rule: TokenRule,
    readonly literal: string,
  ) {}
  get re(): RegExp {
    return (this.#re ??= new RegExp(`${esc(this.literal)}(?:${this.rule.body})${END}`, this.rule.i ? 'yi' : 'y'));
  }
}

function compile(rule: TokenRule, literal: string): Candidate {
  return new Candidate(rule, literal);
}

/**
 * For each literal, the rules whose literal is a prefix of it (longest first; rules of the same
 * literal in their order). Each literal's own prefixes are looked up, not every other literal
 * (this runs at every start: the pairwise way took 4–6 ms), and one rule's literal is compiled
 * once, shared by every list it is in.
 */
function candidates(rules: readonly TokenRule[]): Map<string, Candidate[]> {
  const byLiteral = new Map<string, Candidate[]>();
  for (const r of rules) {
    for (const p of r.prefix) {
      const list = byLiteral.get(p);
      if (list) list.push(compile(r, p));
      else byLiteral.set(p, [compile(r, p)]);
    }
  }
  const map = new Map<string, Candidate[]>();
  for (const lit of byLiteral.keys()) {
    const list: Candidate[] = [];
    for (let n = lit.length; n > 0; n--) list.push(...(byLiteral.get(lit.slice(0, n)) ?? []));
    map.set(lit, list);
  }
  return map;
}

const HEAD_RULES = TOKEN_RULES.filter((r) => !r.lead);
const LEAD_RULES = TOKEN_RULES.filter((r) => r.lead);
const HEAD = candidates(HEAD_RULES);
const LEAD = candidates(LEAD_RULES);
const alternation = (lits: Iterable<string>): string =>
  [...lits]
    .sort((a, b) => b.length - a.length)
    .map(esc)
    .join('|');
/** A literal not glued to a letter before it (`ghp_`, `MY_sk-…`, `AKIA`; secretlint: `(?<!\\p{L})`). */
const HEAD_RE = new RegExp(`(?<![A-Za-z\\]])(?:${alternation(HEAD.keys())})`, 'g');
/** A literal inside a token (`:AA` of a Telegram bot token, `Q~` of an Azure client secret). */
const LEAD_RE = new RegExp(alternation(LEAD.keys()), 'g');
/** Each lead rule's class as a table of the ASCII characters in it. */
const LEAD_CLS = new Map(
  LEAD_RULES.map((r) => {
    const re = new RegExp(`[${r.lead!.cls}]`);
    const table = new Uint8Array(128);
    for (let c = 0; c < 128; c++) table[c] = re.test(String.fromCharCode(c)) ? 1 : 0;
    return [r, table] as const;
  }),
);

/** Words after an authorization scheme that are prose, not a credential (`Basic authentication`). */
const PROSE = /^(?:Bearer|Basic|Token|Digest)[ \t]+[a-z][a-z-]*[.,;:!?)]*$/i;

function tryAt(list: Candidate[], text: string, at: number): { c: Candidate; end: number } | undefined {
  for (const c of list) {
    c.re.lastIndex = at;
    // `test` on a sticky expression leaves `lastIndex` at the end of the match, with no array to build.
    if (!c.re.test(text)) {
      count(0, 0, c.literal.length + 16);
      continue;
    }
    const end = c.re.lastIndex;
    count(0, 0, end - at);
    if (c.rule.kind === 'authorization' && PROSE.test(text.slice(at, end))) continue;
    return { c, end };
  }
  return undefined;
}

/** Mask every token of the rules in `text`. */
export function maskTokens(text: string, learn: Learn): string {
  count(text.length * 2);
  const parts: string[] = [];
  let at = 0;
  const emit = (start: number, end: number, c: Candidate): void => {
    const value = text.slice(start, end);
    const keep = c.rule.keep === false ? '' : c.literal;
    learn(value.slice(keep.length).trim());
    parts.push(text.slice(at, start), mask(c.rule.kind, value, keep));
    at = end;
  };
  // Both prefilters in one walk, in text order: whichever hit comes first is looked at first.
  HEAD_RE.lastIndex = 0;
  LEAD_RE.lastIndex = 0;
  let head = HEAD_RE.exec(text);
  let lead = LEAD_RE.exec(text);
  while (head || lead) {
    const useHead = head !== null && (lead === null || head.index <= lead.index);
    const m = (useHead ? head : lead) as RegExpExecArray;
    count(0, 1);
    if (m.index >= at) {
      if (useHead) {
        const hit = tryAt(HEAD.get(m[0]) ?? [], text, m.index);
        if (hit) emit(m.index, hit.end, hit.c);
      } else {
        for (const c of LEAD.get(m[0]) ?? []) {
          const { min, max } = c.rule.lead!;
          const cls = LEAD_CLS.get(c.rule)!;
          let q = m.index;
          while (q > at && m.index - q <= max && cls[text.charCodeAt(q - 1)] === 1) q--;
          count(0, 0, m.index - q);
          const run = m.index - q;
          if (run < min || run > max) continue;
          const hit = tryAt([c], text, m.index);
          if (hit) {
            emit(q, hit.end, c);
            break;
          }
        }
      }
    }
    // Move each prefilter past what was consumed.
    if (useHead) {
      if (HEAD_RE.lastIndex < at) HEAD_RE.lastIndex = at;
      head = HEAD_RE.exec(text);
    } else {
      if (LEAD_RE.lastIndex < at) LEAD_RE.lastIndex = at;
      lead = LEAD_RE.exec(text);
    }
    if (head && head.index < at) {
      HEAD_RE.lastIndex = at;
      head = HEAD_RE.exec(text);
    }
    if (lead && lead.index < at) {
      LEAD_RE.lastIndex = at;
      lead = LEAD_RE.exec(text);
    }
  }
  if (parts.length === 0) return text;
  parts.push(text.slice(at));
  return parts.join('');
}

/** The token rule `value` matches as a whole, with the prefix it keeps. */
export function tokenShape(value: string): { kind: string; keep: string } | undefined {
  if (value.length > 8192) return undefined;
  HEAD_RE.lastIndex = 0;
  const m = HEAD_RE.exec(value);
  if (!m || m.index !== 0) return undefined;
  const hit = tryAt(HEAD.get(m[0]) ?? [], value, 0);
  if (!hit || hit.end !== value.length) return undefined;
  return { kind: hit.c.rule.kind, keep: hit.c.rule.keep === false ? '' : hit.c.literal };
}
