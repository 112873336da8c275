import fs = require('fs');
import path = require('path');
import { message } from '../i18n';
import type { FsGrepStep } from '../tool-steps';
import { decodeText, isBinary, readJudgedFile, redactLines } from './fs-common';
import { searchRoot, shownPath, stopNote } from './fs-glob';
import { GREP_MAX_FILE_BYTES, HitCollector, type GrepOutcome, type GrepQuery } from './grep-hits';
import { toolError, type SessionToolContext, type ToolErrorResult } from './session';
import type { ResultDecision } from './types';
import { grepNodeModule, grepRgModule } from '../lazy-modules';

/** One matching line, redacted, with its context lines when asked. */
export interface GrepMatch {
  file: string;
  line: number;
  text: string;
  /** The `context` lines before it (fewer at the top of the file). */
  before?: string[];
  after?: string[];
}

/** fs.grep result. */
export interface FsGrepResult {
  _event: 'tool_result';
  id: string;
  tool: 'fs.grep';
  pattern: string;
  path: string;
  /** Which engine searched: ripgrep, or the Node fallback (a JavaScript regular expression). */
  engine: 'rg' | 'node';
  matches: GrepMatch[];
  /** Matching lines found (a lower bound when `note` says the count stopped). */
  total: number;
  truncated: boolean;
  /** Files not searched because they hold secrets (.env, keys, credential stores). */
  skipped: string[];
  note?: string;
  summary: string;
  decision: ResultDecision;
}

export const GREP_DEFAULT_RESULTS = 50;
export const GREP_MAX_RESULTS = 500;
/** Characters of a shown line at most. */
const LINE_CHARS = 500;
/** Whole search time limit. */
export const GREP_TIME_MS = 20_000;
/** Skipped files named at most. */
const SKIPPED_SHOWN = 20;

const cut = (s: string): string => (s.length > LINE_CHARS ? `${s.slice(0, LINE_CHARS)} …` : s);

/** The redacted lines of a shown file (the gate masks a key block over the whole text, so it reads the whole file). */
function fileLines(abs: string): string[] | undefined {
  try {
    const st = fs.lstatSync(abs);
    if (!st.isFile() || st.size > GREP_MAX_FILE_BYTES) return undefined;
    const buf = readJudgedFile(abs);
    return isBinary(buf) ? undefined : redactLines(decodeText(buf));
  } catch {
    return undefined;
  }
}

/** The shown matches: each file read once more, redacted whole, its lines and context taken from that. */
function buildMatches(hits: HitCollector, q: GrepQuery, stepPath: string | undefined, context: number): GrepMatch[] {
  const out: GrepMatch[] = [];
  for (const [rel, lines] of hits.files) {
    const abs = rel ? path.join(q.root, ...rel.split('/')) : q.root;
    const text = fileLines(abs);
    if (!text) continue;
    const file = rel ? shownPath(stepPath, rel) : (stepPath ?? path.basename(q.root));
    for (const n of lines) {
      if (n < 1 || n > text.length) continue;
      const m: GrepMatch = { file, line: n, text: cut(text[n - 1]) };
      if (context > 0) {
        m.before = text.slice(Math.max(0, n - 1 - context), n - 1).map(cut);
        m.after = text.slice(n, n + context).map(cut);
      }
      out.push(m);
    }
  }
  return out;
}

/**
 * fs.grep: lines matching `pattern` under `path` (a folder or one file), with ripgrep when it is
 * on PATH (outside the workspace) and the Node fallback otherwise (`SLOTHTOOL_GREP=node` forces
 * it). `.gitignore` respected, `.git` and binary files skipped, secret files skipped and named,
 * every shown line redacted, at most `maxResults` shown.
 */
export async function runFsGrep(step: FsGrepStep, ctx: SessionToolContext): Promise<FsGrepResult | ToolErrorResult> {
  const { lang, session } = ctx;
  const stepPath = step.path ?? '.';
  const root = searchRoot('fs.grep', stepPath, ctx);
  if ('status' in root) return root;
  const limitMs = Math.min(GREP_TIME_MS, ctx.timeoutMs);
  const max = Math.min(GREP_MAX_RESULTS, step.maxResults ?? GREP_DEFAULT_RESULTS);
  const q: GrepQuery = {
    workspace: session.workspace,
    root: root.real,
    kind: root.kind,
    pattern: step.pattern,
    ignoreCase: step.ignoreCase === true,
    ...(step.glob ? { glob: step.glob } : {}),
    deadline: ctx.deps.now() + limitMs,
    now: ctx.deps.now,
    ...(ctx.signal ? { signal: ctx.signal } : {}),
  };
  const forced = ctx.env.SLOTHTOOL_GREP;
  const rg = forced === 'node' ? undefined : grepRgModule().findRipgrep(ctx.env, session.workspace);
  let hits = new HitCollector(max);
  let outcome: GrepOutcome = rg ? await grepRgModule().grepWithRg(rg, q, hits) : grepNodeModule().grepWithNode(q, hits);
  if (outcome.tooManySkipped) outcome = grepNodeModule().grepWithNode(q, hits);
  const notes: string[] = [];
  if (outcome.patternError && outcome.engine === 'rg') {
    // Rust's syntax refused it (look-around, back-references): JavaScript's may take it.
    const again = new HitCollector(max);
    const viaNode = grepNodeModule().grepWithNode(q, again);
    if (!viaNode.patternError) {
      notes.push(message('grep.note.js_fallback', lang).reason);
      hits = again;
      outcome = viaNode;
    }
  }
  if (outcome.globError) {
    return toolError(ctx, 'fs.grep', 'INVALID_GLOB', message('grep.err.glob', lang, { g: step.glob ?? '', e: outcome.globError }).reason, {
      pattern: step.pattern,
    });
  }
  if (outcome.patternError) {
    return toolError(
      ctx,
      'fs.grep',
      'INVALID_PATTERN',
      message('grep.err.pattern', lang, { p: step.pattern, e: outcome.patternError }).reason,
      { pattern: step.pattern },
    );
  }
  const matches = buildMatches(hits, q, step.path, Math.max(0, Math.min(10, step.context ?? 0)));
  const stop = outcome.stopped;
  if (stop === 'count') notes.push(message('grep.note.count', lang, { n: hits.total }).reason);
  else if (stop === 'time') notes.push(message('grep.note.time', lang, { s: Math.round(limitMs / 100) / 10 }).reason);
  else notes.push(stopNote(stop, lang) ?? '');
  if (hits.total > matches.length) notes.push(message('grep.note.more', lang, { n: hits.total, shown: matches.length }).reason);
  if (outcome.skipped.length) notes.push(message('grep.note.skipped', lang, { n: outcome.skipped.length }).reason);
  const skipped = outcome.skipped.slice(0, SKIPPED_SHOWN).map((rel) => (root.kind === 'dir' ? shownPath(step.path, rel) : stepPath));
  const files = new Set(matches.map((m) => m.file)).size;
  return {
    _event: 'tool_result',
    id: ctx.id,
    tool: 'fs.grep',
    pattern: step.pattern,
    path: stepPath,
    engine: outcome.engine,
    matches,
    total: hits.total,
    truncated: hits.total > matches.length || !!stop,
    skipped,
    ...(notes.filter(Boolean).length ? { note: notes.filter(Boolean).join('; ') } : {}),
    summary: message('grep.summary', lang, { n: hits.total, files, e: outcome.engine }).reason,
    decision: ctx.decision,
  };
}
