import { stripColor } from './theme';
import { markedModule, markedTerminalModule, picocolorsModule } from '../lazy-modules';

/** Render a markdown reply for the terminal. marked and marked-terminal load on the first
 * markdown reply, never at start-up. Without colour the SGR sequences are removed. */
export type MarkdownRenderer = (text: string) => string;

export function createMarkdownRenderer(options: { color: boolean; width: number }): MarkdownRenderer {
  let render: ((text: string) => string) | undefined;
  return (text) => {
    if (!render) {
      const { Marked } = markedModule();
      const { markedTerminal } = markedTerminalModule();
      // Styles from picocolors with our own colour decision (NO_COLOR, TTY, FORCE_COLOR): left to
      // itself marked-terminal asks chalk, which turns colour off under CI=true even on a TTY.
      const c = picocolorsModule().createColors(options.color);
      const styles = {
        code: c.yellow,
        blockquote: (s: string) => c.gray(c.italic(s)),
        html: c.gray,
        heading: (s: string) => c.green(c.bold(s)),
        firstHeading: (s: string) => c.magenta(c.underline(c.bold(s))),
        strong: c.bold,
        em: c.italic,
        codespan: c.yellow,
        del: (s: string) => c.dim(c.gray(c.strikethrough(s))),
        link: c.blue,
        href: (s: string) => c.blue(c.underline(s)),
      };
      const marked = new Marked(markedTerminal({ ...styles, width: Math.max(20, options.width), reflowText: false, tab: 2, emoji: false }));
      // marked-terminal leaves inline markdown in list items raw with marked ≥ 13
      // (mikaelbr/marked-terminal#304, #371): render a text token's inline tokens ourselves;
      // `false` hands every other text back to marked-terminal.
      marked.use({
        renderer: {
          text(token) {
            return 'tokens' in token && Array.isArray(token.tokens) ? this.parser.parseInline(token.tokens) : false;
          },
        },
      });
      render = (src) => String(marked.parse(src, { async: false }));
    }
    const out = render(text).replace(/\n+$/, '');
    return options.color ? out : stripColor(out);
  };
}

/** Whether a chat reply should be rendered as markdown: the model said so, or (when it did
 * not say) the text has unmistakable markdown (a fence, a heading, a list, a table). */
export function looksLikeMarkdown(text: string, format?: string): boolean {
  if (format === 'markdown') return true;
  if (format === 'plain') return false;
  return /(^|\n)(```|#{1,6} |\s*[-*] \S|\s*\d+\. \S|\|.+\|)/.test(text) || /\*\*[^*\n]+\*\*|`[^`\n]+`/.test(text);
}
