/** Token estimates (DESIGN §6): CJK characters count about one token each, other text about
 * four characters a token. Cheap, deterministic and slightly pessimistic. */

const CJK = /[\u1100-\u11ff\u2e80-\u2fdf\u3000-\u303f\u3040-\u30ff\u3100-\u31ff\u3200-\u9fff\ua960-\ua97f\uac00-\ud7ff\uf900-\ufaff\ufe30-\ufe4f\uff00-\uffef]/;

function charCost(ch: string): number {
  if (ch.length > 1) return 1; // astral plane (emoji, rare CJK): count as a token
  return CJK.test(ch) ? 1 : 0.25;
}

const CJK_ALL = new RegExp(CJK.source, 'g');
const ASTRAL_ALL = /[\ud800-\udbff][\udc00-\udfff]/g;

/** Estimated tokens of a text (the same sum as charCost over its characters, counted with
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

/** Keep the head of `text` within `maxTokens` (marker included). */
export function truncateHead(text: string, maxTokens: number): string {
  if (estimateTokens(text) <= maxTokens) return text;
  const budget = Math.max(0, maxTokens - estimateTokens(MARK));
  let cost = 0;
  let out = '';
  for (const ch of text) {
    cost += charCost(ch);
    if (cost > budget) break;
    out += ch;
  }
  return out + MARK;
}

/** Keep the tail of `text` within `maxTokens` (marker included). */
export function truncateTail(text: string, maxTokens: number): string {
  if (estimateTokens(text) <= maxTokens) return text;
  const budget = Math.max(0, maxTokens - estimateTokens(MARK));
  const chars = Array.from(text);
  let cost = 0;
  let i = chars.length;
  while (i > 0) {
    const c = charCost(chars[i - 1]);
    if (cost + c > budget) break;
    cost += c;
    i--;
  }
  return MARK + chars.slice(i).join('');
}
