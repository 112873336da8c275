/**
 * What a question shows of its step: the tool's own registry summary (tool-runner's
 * `ToolDefinition.summary`), every value through the redaction gate and cut with a count of
 * what was cut, so a long argument never fills the screen and a short one is shown whole.
 * Pure: the same lines for the live screen and the plain (non-terminal) prompt.
 */
import type { StepSummary, SummaryField } from '@holic512/tool-runner';
import type { Lang } from '../i18n';
import { redactionGate } from '../lazy-modules';
import { t } from '../i18n';

/** Characters of one value shown on its line before it is cut. */
export const VALUE_CHARS = 80;
/** First lines of a long text (file contents, old/new text) shown. */
export const TEXT_LINES = 4;
/** Fields shown; more are counted. */
export const MAX_FIELDS = 12;

/** The redaction gate, loaded when a question is first shown (not before the prompt is drawn). */
const gate = redactionGate;

/** A question's title as shown: through the redaction gate, control characters as escapes. */
export function shownTitle(title: string): string {
  return visible(gate().redact(title));
}

/** `1,234`: counts are read at a glance. */
function count(n: number): string {
  return n.toLocaleString('en-US');
}

/** Control characters (a terminal escape in a file or an argument name) shown as escapes, never sent to the terminal. */
export function visible(text: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are what this shows as escapes
  return text.replace(/[\x00-\x1f\x7f-\x9f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}

/** A field's name as shown: plain names as they are, others quoted. */
function fieldName(name: string): string {
  return /^[\w.@$-]+$/.test(name) ? name : JSON.stringify(name);
}

/** Cut `text` to `max` characters (not in the middle of a surrogate pair), with the count of the rest. */
function cut(text: string, max: number, lang: Lang): { text: string; note: string } {
  const chars = Array.from(text);
  if (chars.length <= max) return { text, note: '' };
  return { text: `${chars.slice(0, max).join('')}…`, note: ` ${t(lang, 'summaryCut', { n: count(chars.length - max) })}` };
}

/** A value on one line: strings as a quoted JSON string, others as JSON; cut with a count. */
export function valueLine(value: unknown, lang: Lang): string {
  if (typeof value === 'string') {
    const quoted = visible(JSON.stringify(value).slice(1, -1));
    const { text, note } = cut(quoted, VALUE_CHARS, lang);
    return `"${text}"${note}`;
  }
  const json = visible(JSON.stringify(value) ?? String(value));
  const { text, note } = cut(json, VALUE_CHARS, lang);
  return `${text}${note}`;
}

/** A long text: its size, then its first lines, each cut. */
function textLines(field: SummaryField, value: string, lang: Lang): string[] {
  const lines = value.split('\n');
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  const size = t(lang, 'summaryTextSize', { chars: count(Array.from(value).length), lines: count(value === '' ? 0 : lines.length) });
  const out = [`${fieldName(field.name)} (${size})`];
  for (const line of lines.slice(0, TEXT_LINES)) {
    const { text, note } = cut(visible(line.replace(/\t/g, '  ')), VALUE_CHARS, lang);
    out.push(`│ ${text}${note}`);
  }
  if (lines.length > TEXT_LINES) out.push(`│ ${t(lang, 'summaryMoreLines', { n: count(lines.length - TEXT_LINES) })}`);
  return out;
}

/** What the server says of its tool (MCP annotations), in words; '' when it says nothing. */
export function hintsLine(hints: StepSummary['hints'], lang: Lang): string {
  if (!hints) return '';
  const words: string[] = [];
  const say = (value: boolean | undefined, yes: Parameters<typeof t>[1], no: Parameters<typeof t>[1]) => {
    if (value !== undefined) words.push(t(lang, value ? yes : no));
  };
  say(hints.readOnly, 'hintReadOnly', 'hintNotReadOnly');
  say(hints.destructive, 'hintDestructive', 'hintNotDestructive');
  say(hints.idempotent, 'hintIdempotent', 'hintNotIdempotent');
  say(hints.openWorld, 'hintOpenWorld', 'hintClosedWorld');
  return t(lang, words.length ? 'summaryHints' : 'summaryNoHints', { hints: words.join(' · ') });
}

/**
 * The lines under a question's title: where it runs (an MCP server and tool), each field
 * (`name: value`, long texts as their first lines), what the server says of the tool. Every
 * value is redacted under its own name first (a `token` argument is masked whatever it holds).
 */
export function summaryLines(summary: StepSummary, lang: Lang): string[] {
  const lines: string[] = [];
  if (summary.origin) lines.push(t(lang, 'summaryOrigin', { server: visible(summary.origin.server), tool: visible(summary.origin.tool) }));
  const shown = summary.fields.slice(0, MAX_FIELDS);
  for (const field of shown) {
    const value = (gate().redactValue({ [field.name]: field.value }) as Record<string, unknown>)[field.name];
    if (field.text && typeof value === 'string') lines.push(...textLines(field, value, lang));
    else lines.push(`${fieldName(field.name)}: ${valueLine(value, lang)}`);
  }
  if (summary.fields.length > shown.length) lines.push(t(lang, 'summaryMoreFields', { n: summary.fields.length - shown.length }));
  if (summary.origin) lines.push(hintsLine(summary.hints, lang));
  return lines;
}
