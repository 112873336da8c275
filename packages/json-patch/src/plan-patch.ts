import { applyPatch } from './apply-patch';
import { text, type Lang } from './i18n';
import { hasOwn, isPlainObject, jsonEqual, type JsonValue } from './json-value';
import { learnSecretsOf } from '@holic512/shared';
import { isSecretKey, maskValue } from './mask';
import { formatPointer } from './pointer';

/** One difference between the document before and after a patch. Secret values are masked. */
export interface PatchChange {
  /** JSON Pointer of the value that differs. */
  path: string;
  kind: 'added' | 'removed' | 'changed';
  /** The old value (absent for `added`). */
  before?: unknown;
  /** The new value (absent for `removed`). */
  after?: unknown;
}

/** What a patch would do, computed without side effects. */
export interface PatchPlan<T = JsonValue> {
  /** The document after the patch (real values, not masked: this is what would be written). */
  after: T;
  /** Differences, in document order, with secret values masked. */
  changes: PatchChange[];
  /** A short human diff: one line per change (`+` added, `-` removed, `~` changed), masked. */
  summary: string;
}

/** Options of {@link planPatch} and {@link summarizeChanges}. */
export interface SummaryOptions {
  /** At most this many lines are listed; the rest are counted. Default 20. */
  maxLines?: number;
  /** Values longer than this are cut with "...". Default 60 characters. */
  maxValueLength?: number;
  /** Language of the few words in the summary ("no changes", "... and N more"). Default 'en'. */
  lang?: Lang;
}

/**
 * Apply `ops` to `doc` (see {@link applyPatch}; same errors) and describe the result:
 * the new document, the list of changes and a short summary, with secrets masked.
 */
export function planPatch<T = JsonValue>(doc: unknown, ops: unknown, options: SummaryOptions = {}): PatchPlan<T> {
  const after = applyPatch<T>(doc, ops);
  const changes = diffJson(doc, after);
  return { after, changes, summary: summarizeChanges(changes, options) };
}

/** Differences between two JSON documents, in document order, with secret values masked. */
export function diffJson(before: unknown, after: unknown): PatchChange[] {
  const changes: PatchChange[] = [];
  // Secrets of either side become known first, so a copy under an innocent key is masked too.
  learnSecretsOf(before);
  learnSecretsOf(after);
  walk(before, after, [], false, changes);
  return changes;
}

function walk(a: unknown, b: unknown, tokens: string[], secret: boolean, out: PatchChange[]): void {
  if (jsonEqual(a, b)) return;
  const path = formatPointer(tokens);
  if (isPlainObject(a) && isPlainObject(b)) {
    for (const key of Object.keys(a)) {
      const s = secret || isSecretKey(key);
      if (hasOwn(b, key)) walk(a[key], b[key], [...tokens, key], s, out);
      else out.push({ path: formatPointer([...tokens, key]), kind: 'removed', before: maskValue(a[key], s) });
    }
    for (const key of Object.keys(b)) {
      if (!hasOwn(a, key)) {
        out.push({ path: formatPointer([...tokens, key]), kind: 'added', after: maskValue(b[key], secret || isSecretKey(key)) });
      }
    }
    return;
  }
  if (Array.isArray(a) && Array.isArray(b)) {
    // Skip the equal head and tail, so one insertion or removal reads as one change.
    let head = 0;
    while (head < a.length && head < b.length && jsonEqual(a[head], b[head])) head++;
    let tail = 0;
    while (tail < a.length - head && tail < b.length - head && jsonEqual(a[a.length - 1 - tail], b[b.length - 1 - tail])) tail++;
    const aEnd = a.length - tail;
    const bEnd = b.length - tail;
    const paired = Math.min(aEnd - head, bEnd - head);
    for (let k = 0; k < paired; k++) walk(a[head + k], b[head + k], [...tokens, String(head + k)], secret, out);
    for (let i = head + paired; i < aEnd; i++) {
      out.push({ path: formatPointer([...tokens, String(i)]), kind: 'removed', before: maskValue(a[i], secret) });
    }
    for (let i = head + paired; i < bEnd; i++) {
      out.push({ path: formatPointer([...tokens, String(i)]), kind: 'added', after: maskValue(b[i], secret) });
    }
    return;
  }
  out.push({ path, kind: 'changed', before: maskValue(a, secret), after: maskValue(b, secret) });
}

/** Render changes as a short human diff (the `summary` of {@link planPatch}). */
export function summarizeChanges(changes: readonly PatchChange[], options: SummaryOptions = {}): string {
  const maxLines = options.maxLines ?? 20;
  const maxLen = options.maxValueLength ?? 60;
  const lang = options.lang === 'zh' ? 'zh' : 'en';
  if (changes.length === 0) return text('noChanges', lang);
  const show = (v: unknown): string => {
    const text = JSON.stringify(v);
    return text.length > maxLen ? text.slice(0, Math.max(0, maxLen - 3)) + '...' : text;
  };
  const lines = changes.slice(0, maxLines).map((c) => {
    const where = c.path || text('document', lang);
    if (c.kind === 'added') return `+ ${where}: ${show(c.after)}`;
    if (c.kind === 'removed') return `- ${where}: ${show(c.before)}`;
    return `~ ${where}: ${show(c.before)} -> ${show(c.after)}`;
  });
  if (changes.length > maxLines) lines.push(text('more', lang, { n: changes.length - maxLines }));
  return lines.join('\n');
}
