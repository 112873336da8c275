import { yamlModule } from '../lazy-modules';
/** Markdown with YAML front matter (`---` … `---` at the top), as SKILL.md and command files use. */

export interface FrontMatterDoc {
  /** The front matter as an object; `{}` when there is none. */
  data: Record<string, unknown>;
  /** The Markdown after the front matter. */
  body: string;
  /** Why the front matter could not be read (the body is then the whole text). */
  error?: string;
}

const OPEN = /^\uFEFF?---[ \t]*\r?\n/;
const CLOSE = /\r?\n---[ \t]*(?:\r?\n|$)/;

/** Split and parse front matter with the `yaml` library (no custom tags, no aliases beyond 50). */
export function parseFrontMatter(text: string): FrontMatterDoc {
  const open = OPEN.exec(text);
  if (!open) return { data: {}, body: text };
  // A newline in front lets an empty front matter (`---` right after `---`) close too.
  const rest = '\n' + text.slice(open[0].length);
  const close = CLOSE.exec(rest);
  if (!close) return { data: {}, body: text, error: 'the front matter has no closing "---" line' };
  const yamlText = rest.slice(1, Math.max(1, close.index));
  const body = rest.slice(close.index + close[0].length);
  try {
    const data: unknown = yamlModule().parse(yamlText, { maxAliasCount: 50, customTags: [], prettyErrors: false });
    if (data === null || data === undefined) return { data: {}, body };
    if (typeof data !== 'object' || Array.isArray(data))
      return { data: {}, body, error: 'the front matter is not a mapping of keys to values' };
    return { data: data as Record<string, unknown>, body };
  } catch (err) {
    return {
      data: {},
      body,
      error: `the front matter is not valid YAML: ${err instanceof Error ? err.message.split('\n')[0] : String(err)}`,
    };
  }
}

/** The index a prompt carries of extensions named in front matter (skills, agents): `heading`, then
 * one line per extension with its description (never a body); empty when there are none. */
export function frontMatterIndex(heading: string, items: ReadonlyArray<{ name: string; description: string }>): string {
  if (!items.length) return '';
  return [heading, ...items.map((x) => `- ${x.name}: ${x.description}`)].join('\n');
}
