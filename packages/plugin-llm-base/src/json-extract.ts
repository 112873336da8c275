/**
 * Getting one JSON object out of what real models send: reasoning blocks, code fences, prose
 * around the object, near-JSON (single quotes, trailing commas, Python literals, comments, raw
 * newlines). Pure; `jsonrepair` is loaded only when strict parsing fails.
 */

import { jsonrepair } from './lazy-modules';

/** `data` when the model's text holds no recoverable object (DESIGN §3, key order included). */
export type FallbackData = {
  result: string;
  _fallback: true;
  _reason: 'model_output_was_not_valid_json';
};

/** How the object was found, for tests and the call log. */
export type ExtractMethod = 'strict' | 'string' | 'fence' | 'scan' | 'repair' | 'value' | 'fallback';

export interface ExtractResult {
  data: Record<string, unknown>;
  method: ExtractMethod;
}

const MAX_CANDIDATES = 64;

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function tryParse(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

/**
 * Keep backslashes that do not start a JSON escape (`C:\Users`, `\d+`) as literal backslashes,
 * and turn `\'` into `'`. jsonrepair would drop such backslashes and change the text.
 */
export function fixInvalidEscapes(text: string): string {
  let out = '';
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (!inString) {
      if (c === '"') inString = true;
      out += c;
      continue;
    }
    if (c === '"') {
      inString = false;
      out += c;
      continue;
    }
    if (c !== '\\') {
      out += c;
      continue;
    }
    const next = text[i + 1];
    if (next !== undefined && '"\\/bfnrt'.includes(next)) {
      out += c + next;
      i++;
    } else if (next === 'u' && /^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) {
      out += text.slice(i, i + 6);
      i += 5;
    } else if (next === "'") {
      out += "'";
      i++;
    } else {
      out += '\\\\';
    }
  }
  return out;
}

function repair(text: string): unknown | undefined {
  const fixed = fixInvalidEscapes(text);
  if (fixed !== text) {
    const p = tryParse(fixed);
    if (p.ok) return p.value;
  }
  try {
    return JSON.parse(jsonrepair().jsonrepair(fixed));
  } catch {
    return undefined;
  }
}

/** Drop a BOM and reasoning blocks (`<think>`, `<thinking>`, `<reasoning>`), including a
 * block whose opening tag the server already stripped (text up to a lone closing tag). */
export function stripReasoning(text: string): string {
  let out = text.replace(/^\uFEFF/, '');
  out = out.replace(/<(think|thinking|reasoning)>[\s\S]*?<\/\1>/gi, '');
  const lone = /<\/(think|thinking|reasoning)>/i.exec(out);
  if (lone) out = out.slice(lone.index + lone[0].length);
  // An opening tag that never closes (the output was cut inside the reasoning).
  out = out.replace(/<(think|thinking|reasoning)>[\s\S]*$/i, '');
  return out.replace(/^\uFEFF/, '').trim();
}

/** Bodies of markdown code fences, with or without a language tag. */
export function codeFences(text: string): string[] {
  const out: string[] = [];
  const re = /```[^\n`]*\n?([\s\S]*?)```/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(text)) !== null) out.push(m[1].trim());
  // A fence that opens and never closes (cut-off output).
  const opens = text.split('```').length - 1;
  if (opens % 2 === 1) {
    const last = text.lastIndexOf('```');
    out.push(
      text
        .slice(last + 3)
        .replace(/^[^\n]*\n/, '')
        .trim(),
    );
  }
  return out;
}

/**
 * Balanced `{…}` spans in order, string- and comment-aware. Returns complete spans and, for a
 * `{` that never closes, the tail from it (a cut-off object that repair may finish).
 */
export function balancedObjects(text: string): { spans: string[]; tails: string[] } {
  const spans: string[] = [];
  const tails: string[] = [];
  let from = 0;
  while (spans.length + tails.length < MAX_CANDIDATES) {
    const start = text.indexOf('{', from);
    if (start < 0) break;
    const end = matchBrace(text, start);
    if (end >= 0) {
      spans.push(text.slice(start, end + 1));
      from = end + 1;
    } else {
      tails.push(text.slice(start));
      from = start + 1;
    }
  }
  return { spans, tails };
}

/** Index of the `}` closing the `{` at `start`, or -1. */
function matchBrace(text: string, start: number): number {
  let depth = 0;
  let quote: '"' | "'" | null = null;
  let lastSignificant = '';
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (quote) {
      if (c === '\\') {
        i++;
        continue;
      }
      if (c === quote) {
        quote = null;
        lastSignificant = c;
      }
      continue;
    }
    if (c === '"') {
      quote = '"';
      continue;
    }
    // A single quote opens a string only where a JSON value or key may start, so an
    // apostrophe in unquoted text does not swallow the rest.
    if (c === "'" && '{[,:'.includes(lastSignificant)) {
      quote = "'";
      continue;
    }
    if (c === '/' && text[i + 1] === '/') {
      const nl = text.indexOf('\n', i);
      if (nl < 0) return -1;
      i = nl;
      continue;
    }
    if (c === '/' && text[i + 1] === '*') {
      const close = text.indexOf('*/', i + 2);
      if (close < 0) return -1;
      i = close + 1;
      continue;
    }
    if (c === '{') depth++;
    else if (c === '}') {
      depth--;
      if (depth === 0) return i;
    }
    if (!/\s/.test(c)) lastSignificant = c;
  }
  return -1;
}

/** A repaired candidate must look like key/value data, so prose such as `{curly}` is not turned into an object. */
function looksLikeObject(candidate: string): boolean {
  return /^\{\s*\}$/.test(candidate) || candidate.includes(':');
}

/** A string value that itself encodes an object (`"{\"a\":1}"`). */
function objectFromString(value: string, depth: number): Record<string, unknown> | undefined {
  if (depth > 2) return undefined;
  const inner = value.trim();
  if (!inner.startsWith('{') && !inner.startsWith('"')) return undefined;
  const parsed = tryParse(inner);
  if (parsed.ok && isPlainObject(parsed.value)) return parsed.value;
  if (parsed.ok && typeof parsed.value === 'string') return objectFromString(parsed.value, depth + 1);
  return undefined;
}

/**
 * The first JSON object in a model's text. A text that is exactly a JSON non-object value
 * becomes `{result: value}` (as the original llm-base did); text with no recoverable object
 * becomes the fallback shape with the raw text (trimmed).
 */
export function extractJsonObject(raw: unknown): ExtractResult {
  if (isPlainObject(raw)) return { data: raw, method: 'strict' };
  if (typeof raw !== 'string') {
    return raw === undefined || raw === null ? { data: { result: null }, method: 'value' } : { data: { result: raw }, method: 'value' };
  }
  const text = stripReasoning(raw);

  // 1. The whole text is JSON.
  const whole = tryParse(text);
  if (whole.ok) {
    if (isPlainObject(whole.value)) return { data: whole.value, method: 'strict' };
    if (typeof whole.value === 'string') {
      const inner = objectFromString(whole.value, 1);
      if (inner) return { data: inner, method: 'string' };
    }
    if (text !== '') return { data: { result: whole.value }, method: 'value' };
  }

  // 2. Code fences, then balanced objects in the prose — strict first, then repaired.
  const fences = codeFences(text);
  for (const f of fences) {
    const p = tryParse(f);
    if (p.ok && isPlainObject(p.value)) return { data: p.value, method: 'fence' };
    if (p.ok && typeof p.value === 'string') {
      const inner = objectFromString(p.value, 1);
      if (inner) return { data: inner, method: 'string' };
    }
  }
  const sources = [...fences, text];
  const scans = sources.map((s) => balancedObjects(s));
  for (const { spans } of scans) {
    for (const span of spans) {
      const p = tryParse(span);
      if (p.ok && isPlainObject(p.value)) return { data: p.value, method: 'scan' };
    }
  }
  for (const { spans } of scans) {
    for (const span of spans) {
      if (!looksLikeObject(span)) continue;
      const v = repair(span);
      if (isPlainObject(v)) return { data: v, method: 'repair' };
    }
  }
  // 3. An object that never closes (output cut off): let repair finish it.
  for (const { spans, tails } of scans) {
    if (spans.length > 0) continue;
    for (const tail of tails) {
      if (!looksLikeObject(tail)) continue;
      const v = repair(tail);
      if (isPlainObject(v) && Object.keys(v).length > 0) return { data: v, method: 'repair' };
    }
  }
  return { data: fallbackData(raw), method: 'fallback' };
}

/** The fallback object, byte for byte as DESIGN §3 gives it. */
export function fallbackData(raw: string): FallbackData {
  return { result: raw.trim(), _fallback: true, _reason: 'model_output_was_not_valid_json' };
}
