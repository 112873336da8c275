import { decodeHTML } from 'entities';

/** Elements whose content is never text for a reader. */
const DROPPED = ['script', 'style', 'noscript', 'template', 'svg', 'iframe', 'object', 'canvas', 'head', 'math'];

/** Elements that start a new line. */
const BLOCK_RE =
  /^(p|div|section|article|main|header|footer|nav|aside|br|hr|tr|table|thead|tbody|tfoot|ul|ol|dl|dt|dd|pre|blockquote|figure|figcaption|form|fieldset|address|details|summary|h[1-6]|li|td|th|caption)$/;

/** A tag: name and attributes, quoted values may hold `>`. Linear: the alternatives start with different characters. */
const TAG_RE = /<(\/?)([a-zA-Z][a-zA-Z0-9-]*)((?:[^>"']|"[^"]*"|'[^']*')*)>/g;

/**
 * Remove comments and the content of `DROPPED` elements with plain index scans (no
 * backtracking regex, so a page full of unclosed `<script` tags stays linear).
 */
function dropRaw(html: string): string {
  const lower = html.toLowerCase();
  let out = '';
  let i = 0;
  while (i < html.length) {
    const lt = html.indexOf('<', i);
    if (lt < 0) {
      out += html.slice(i);
      break;
    }
    out += html.slice(i, lt);
    if (lower.startsWith('<!--', lt)) {
      const end = html.indexOf('-->', lt + 4);
      i = end < 0 ? html.length : end + 3;
      continue;
    }
    if (lower.startsWith('<!', lt) || lower.startsWith('<?', lt)) {
      // <!doctype …>, <![CDATA[…]]>, <?xml …?>: declarations, not text.
      const end = html.indexOf('>', lt + 2);
      i = end < 0 ? html.length : end + 1;
      continue;
    }
    const name = DROPPED.find((n) => lower.startsWith(n, lt + 1) && /[\s>/]/.test(lower[lt + 1 + n.length] ?? '>'));
    if (name) {
      const close = lower.indexOf(`</${name}`, lt + 1);
      if (close < 0) {
        i = html.length;
        continue;
      }
      const gt = html.indexOf('>', close);
      i = gt < 0 ? html.length : gt + 1;
      out += ' ';
      continue;
    }
    out += '<';
    i = lt + 1;
  }
  return out;
}

function attr(attrs: string, name: string): string | undefined {
  const m = new RegExp(`(?:^|\\s)${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s"'>]+))`, 'i').exec(attrs);
  return m ? (m[1] ?? m[2] ?? m[3]) : undefined;
}

/** The page title, decoded. */
export function htmlTitle(html: string): string | undefined {
  const m = /<title\b[^>]*>([\s\S]{0,2000}?)<\/title\s*>/i.exec(html.slice(0, 200_000));
  const t = m ? decodeHTML(m[1]).replace(/\s+/g, ' ').trim() : '';
  return t || undefined;
}

/**
 * Readable text of an HTML page: scripts, styles and comments dropped, block elements on
 * their own lines, list items as `- `, headings as `# `, links as `text (url)` with the URL
 * made absolute against `base`, entities decoded, whitespace collapsed.
 */
export function htmlToText(html: string, base?: string): string {
  const body = dropRaw(html);
  let href: string | undefined;
  const text = body.replace(TAG_RE, (_m, slash: string, rawName: string, attrs: string) => {
    const name = rawName.toLowerCase();
    if (name === 'a') {
      if (!slash) {
        const h = attr(attrs, 'href');
        href = h && !/^\s*(javascript|data|vbscript):/i.test(h) && !h.startsWith('#') ? absolute(decodeHTML(h), base) : undefined;
        return '';
      }
      const link = href ? ` (${href})` : '';
      href = undefined;
      return link;
    }
    if (name === 'li') return slash ? '' : '\n- ';
    if (/^h[1-6]$/.test(name) && !slash) return '\n\n' + '#'.repeat(Number(name[1])) + ' ';
    if (name === 'td' || name === 'th') return slash ? ' | ' : '';
    if (name === 'img' && !slash) {
      const alt = attr(attrs, 'alt');
      return alt ? ` [${decodeHTML(alt)}] ` : '';
    }
    if (BLOCK_RE.test(name)) return name === 'p' || name === 'pre' || name === 'table' || name === 'blockquote' ? '\n\n' : '\n';
    return '';
  });
  return decodeHTML(text)
    .split('\n')
    .map((l) => l.replace(/[ \t\f\v\u00a0\r]+/g, ' ').trim())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

function absolute(href: string, base?: string): string {
  try {
    return new URL(href, base).href;
  } catch {
    return href;
  }
}
