/** Token estimates (DESIGN §6): CJK characters count about one token each, other text about
 * four characters a token. Cheap, deterministic and slightly pessimistic. */

export const CJK =
  /[\u1100-\u11ff\u2e80-\u2fdf\u3000-\u303f\u3040-\u30ff\u3100-\u31ff\u3200-\u9fff\ua960-\ua97f\uac00-\ud7ff\uf900-\ufaff\ufe30-\ufe4f\uff00-\uffef]/;

/** Whether a UTF-16 code unit is one of CJK's ranges (the same ranges as CJK: tokens.test.ts
 * holds them equal over every code unit). */
export function isCjkUnit(c: number): boolean {
  return (
    (c >= 0x3000 && c <= 0x9fff) ||
    (c >= 0xac00 && c <= 0xd7ff) ||
    (c >= 0x1100 && c <= 0x11ff) ||
    (c >= 0x2e80 && c <= 0x2fdf) ||
    (c >= 0xa960 && c <= 0xa97f) ||
    (c >= 0xf900 && c <= 0xfaff) ||
    (c >= 0xfe30 && c <= 0xfe4f) ||
    (c >= 0xff00 && c <= 0xffef)
  );
}

const isHigh = (c: number): boolean => c >= 0xd800 && c <= 0xdbff;
const isLow = (c: number): boolean => c >= 0xdc00 && c <= 0xdfff;
/** The cost of a character that is one code unit (a lone surrogate included). */
const unitCost = (c: number): number => (isCjkUnit(c) ? 1 : 0.25);

const CJK_ALL = new RegExp(CJK.source, 'g');
const ASTRAL_ALL = /[\ud800-\udbff][\udc00-\udfff]/g;

/** Estimated tokens of a text (the same sum as the truncations count character by character, counted with
 * two regex scans instead of a loop: this runs on every request assembly). */
export function estimateTokens(text: string): number {
  // The window's messages and the system prompt are estimated again for every request (the
  // compaction check, the request's assembly): a long text's answer is kept.
  if (text.length < MEMO_MIN_CHARS) return countTokens(text);
  let n = memo.get(text);
  if (n === undefined) {
    n = countTokens(text);
    if (text.length > MEMO_MAX_CHARS) return n;
    if (memoChars + text.length > MEMO_MAX_CHARS) {
      memo.clear();
      memoChars = 0;
    }
    memo.set(text, n);
    memoChars += text.length;
  }
  return n;
}

/** Estimates of long texts (a text is its own key: the same characters, the same estimate),
 * holding at most MEMO_MAX_CHARS characters of texts (then it starts again). */
const memo = new Map<string, number>();
let memoChars = 0;
const MEMO_MIN_CHARS = 128;
const MEMO_MAX_CHARS = 1 << 21;

function countTokens(text: string): number {
  const cjk = text.match(CJK_ALL)?.length ?? 0;
  const astral = text.match(ASTRAL_ALL)?.length ?? 0;
  const other = text.length - cjk - 2 * astral;
  return Math.ceil(cjk + astral + other * 0.25);
}

/** Estimated tokens of chat messages, with a small per-message overhead; attached images count
 * with their own estimate (images.ts imageTokens). */
export function estimateMessagesTokens(messages: ReadonlyArray<{ content: string; images?: ReadonlyArray<{ tokens: number }> }>): number {
  let total = 0;
  for (const m of messages) {
    total += estimateTokens(m.content) + 4;
    if (m.images) for (const image of m.images) total += image.tokens;
  }
  return total;
}

const MARK = '…[truncated]…';

/**
 * Keep the head of `text` within `maxTokens` (marker included). Characters are read by code
 * point (an astral character counts one token, as a whole) and only as far as the budget goes:
 * a 64 KiB output cut to a few thousand tokens is not split into characters first.
 */
export function truncateHead(text: string, maxTokens: number): string {
  if (estimateTokens(text) <= maxTokens) return text;
  const budget = Math.max(0, maxTokens - estimateTokens(MARK));
  let cost = 0;
  let i = 0;
  while (i < text.length) {
    const pair = isHigh(text.charCodeAt(i)) && i + 1 < text.length && isLow(text.charCodeAt(i + 1));
    cost += pair ? 1 : unitCost(text.charCodeAt(i));
    if (cost > budget) break;
    i += pair ? 2 : 1;
  }
  return text.slice(0, i) + MARK;
}

/** Keep the tail of `text` within `maxTokens` (marker included), read from the end as {@link truncateHead} reads from the start. */
export function truncateTail(text: string, maxTokens: number): string {
  if (estimateTokens(text) <= maxTokens) return text;
  const budget = Math.max(0, maxTokens - estimateTokens(MARK));
  let cost = 0;
  let i = text.length;
  while (i > 0) {
    const pair = isLow(text.charCodeAt(i - 1)) && i > 1 && isHigh(text.charCodeAt(i - 2));
    const c = pair ? 1 : unitCost(text.charCodeAt(i - 1));
    if (cost + c > budget) break;
    cost += c;
    i -= pair ? 2 : 1;
  }
  return MARK + text.slice(i);
}
