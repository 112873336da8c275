/** Render markdown for a terminal with marked + marked-terminal, loaded on first use (they
 * are only needed when a markdown answer goes to a TTY). Returns the text unchanged when
 * rendering fails: the answer matters more than its styling. */
export function renderMarkdown(text: string): string {
  try {
    const { Marked } = require('marked') as typeof import('marked');
    const { markedTerminal } = require('marked-terminal') as { markedTerminal: (options?: object) => object };
    const marked = new Marked();
    marked.use(markedTerminal() as Parameters<typeof marked.use>[0]);
    const out = marked.parse(text, { async: false });
    return typeof out === 'string' ? out.replace(/\n+$/, '') : text;
  } catch {
    return text;
  }
}
