import path = require('path');
import { finding, type Finding } from './finding';
import { SYSTEM_BIN_DIRS } from './paths';

/** Invisible and direction-changing characters. */
// Combining marks (U+034F, the variation selectors) are listed on their own on purpose: each is a hiding place.
export const INVISIBLE_RE =
  // eslint-disable-next-line no-misleading-character-class
  /[\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u202a-\u202e\u2060-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0]/u;

/** Common Latin look-alikes (Cyrillic, Greek, IPA, Armenian) mapped to what they imitate. */
const CONFUSABLES: Record<string, string> = {
  а: 'a',
  в: 'b',
  е: 'e',
  ё: 'e',
  к: 'k',
  м: 'm',
  н: 'h',
  о: 'o',
  р: 'p',
  с: 'c',
  т: 't',
  у: 'y',
  х: 'x',
  ѕ: 's',
  і: 'i',
  ї: 'i',
  ј: 'j',
  ԁ: 'd',
  ԛ: 'q',
  ԝ: 'w',
  һ: 'h',
  ӏ: 'l',
  ɡ: 'g',
  ɑ: 'a',
  ο: 'o',
  α: 'a',
  ν: 'v',
  ι: 'i',
  κ: 'k',
  ρ: 'p',
  τ: 't',
  υ: 'u',
  χ: 'x',
  ε: 'e',
  η: 'n',
  ω: 'w',
  ʏ: 'y',
  ɪ: 'i',
  ᴄ: 'c',
  ᴅ: 'd',
  ᴇ: 'e',
  ʜ: 'h',
  ᴊ: 'j',
  ᴋ: 'k',
  ʟ: 'l',
  ᴍ: 'm',
  ɴ: 'n',
  ᴏ: 'o',
  ᴘ: 'p',
  ʀ: 'r',
  ᴛ: 't',
  ᴜ: 'u',
  ᴠ: 'v',
  ᴡ: 'w',
  ᴢ: 'z',
  օ: 'o',
  ս: 'u',
  ց: 'g',
  ք: 'p',
  ⅼ: 'l',
  ℓ: 'l',
  '‐': '-',
  '‑': '-',
  '−': '-',
};

// eslint-disable-next-line no-misleading-character-class -- the same list as INVISIBLE_RE
const INVISIBLE_ALL = new RegExp(INVISIBLE_RE.source, 'gu');

/** Whether every character of `s` is printable ASCII (a space to `~`): then it holds no invisible or control character. */
export function printableAscii(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || c > 0x7e) return false;
  }
  return true;
}

/** The plain-ASCII name a look-alike string imitates (best effort, for the message). */
export function skeleton(s: string): string {
  const stripped = s.normalize('NFKC').replace(INVISIBLE_ALL, '');
  return [...stripped].map((ch) => CONFUSABLES[ch.toLowerCase()] ?? CONFUSABLES[ch] ?? ch).join('');
}

/** How a requested program resolves: the table name to judge it as, or a blocking finding. */
export type Resolved = { name: string } | { block: Finding };

/**
 * Judge a program by what it resolves to. Only printable ASCII names are programs we know;
 * a path counts as the named program only inside a system program folder.
 */
export function resolveProgram(raw: string): Resolved {
  if (raw.trim() === '') return { block: finding('program.empty', 'L2') };
  if (!/^[\x21-\x7e]+$/.test(raw)) {
    return { block: finding('program.lookalike', 'L2', { p: JSON.stringify(raw).slice(1, -1), like: skeleton(raw) }) };
  }
  if (raw.includes('/') || raw.includes('\\')) {
    const n = path.posix.normalize(raw.replace(/\\/g, '/'));
    const dir = path.posix.dirname(n);
    if (n.startsWith('/') && SYSTEM_BIN_DIRS.has(dir)) return { name: path.posix.basename(n) };
    return { block: finding('program.path', 'L2', { p: raw }, { allowable: true }) };
  }
  return { name: raw };
}
