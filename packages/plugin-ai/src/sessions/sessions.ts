import { createHash } from 'crypto';
import fs = require('fs');
import path = require('path');
import { redactedJson } from '@holic512/shared';
import { z } from 'zod';
import { appendPrivate, ensurePrivateDir, ensurePrivateDirOnce } from '@holic512/shared/lib/private-files';
import { writeFileAtomicSync } from '@holic512/shared/lib/atomic-write';
import { summarySchema } from '../context/protocol';
import { lazy } from '@holic512/shared/lib/lazy';

/** A record as one JSON line; every string of it (keys too) passes the redaction gate. */
export function sessionLine(record: unknown): string {
  return redactedJson(record) + '\n';
}

/**
 * A folder's pointer file name: the first half of the SHA-256 of its path, 32 hex digits. (For a
 * while it was a 64-bit FNV-1a; such a pointer is not read: the first `--continue` in that folder
 * looks at every session once, as without a pointer, and writes this one.)
 */
export function pointerName(folder: string): string {
  return createHash('sha256').update(folder).digest('hex').slice(0, 32);
}

/** A fold: these messages shortened, the first `folded` replaced by `head` (the summary, pinned results), as sent. */
function buildFoldRecordSchema() {
  return z.object({
    t: z.literal('fold'),
    at: z.string(),
    method: z.enum(['shortened', 'model', 'rules']),
    shortened: z.array(z.number().int().min(0)),
    folded: z.number().int().min(0),
    head: z.array(
      z.object({
        role: z.enum(['system', 'user']),
        kind: z.enum(['summary', 'pinned']),
        content: z.string(),
        tool: z.string().optional(),
      }),
    ),
    summary: summarySchema().optional(),
  });
}

/**
 * Sessions are append-only JSONL files `<home>/ai/sessions/<id>.jsonl`. The first line is
 * the `meta` record; each later line is one record: the system prompts once, then each message as
 * it was sent, and each fold as what it did. Replaying the records rebuilds the exact messages
 * of the last request (see Agent.resume, docs/context.md).
 */
function buildRecordSchema() {
  const short = z.string().optional();
  return z.discriminatedUnion('t', [
    z.object({
      t: z.literal('meta'),
      /** 1: sessions of the versions with a digest of recent results (converted when resumed); 2: messages as sent. */
      v: z.union([z.literal(1), z.literal(2)]),
      id: z.string(),
      cwd: z.string(),
      createdAt: z.string(),
      mode: z.enum(['low', 'high']).optional(),
      profile: z.string().nullable().optional(),
    }),
    /** The system prompts the session's first request went out with (they stay for the session). */
    z.object({ t: z.literal('system'), at: z.string(), json: z.string(), tools: z.string().optional(), toolsKey: z.string().optional() }),
    z.object({
      t: z.literal('user'),
      at: z.string(),
      content: z.string(),
      /** Images sent with the message: what they were, never their bytes. */
      images: z.array(z.object({ name: z.string(), mime: z.string(), bytes: z.number(), sha256: z.string() })).optional(),
      short,
    }),
    z.object({
      t: z.literal('assistant'),
      at: z.string(),
      content: z.string(),
      /** Native tool calls of the reply, as the model made them. */
      calls: z.array(z.object({ id: z.string(), name: z.string(), arguments: z.string() })).optional(),
      /** The same reply in the JSON protocol. */
      alt: z.string().optional(),
      short,
    }),
    /** `toolsKey`: an event that said which tools joined (agent-extensions syncTools). */
    z.object({ t: z.literal('event'), at: z.string(), content: z.string(), toolsKey: z.string().optional() }),
    z.object({
      t: z.literal('tool'),
      at: z.string(),
      content: z.string(),
      /** Version 1: the result as the digest of recent results held it. */
      digest: z.string().optional(),
      short,
      tool: z.string().optional(),
      /** The native tool call it answers. */
      call_id: z.string().optional(),
    }),
    buildFoldRecordSchema(),
    /** Version 1: the oldest `folded` messages were replaced by this summary. */
    z.object({
      t: z.literal('summary'),
      at: z.string(),
      summary: summarySchema(),
      folded: z.number().int().min(0),
      method: z.enum(['model', 'rules']),
    }),
    z.object({ t: z.literal('log'), at: z.string(), code: z.string(), message: z.string() }),
    /** `/rewind`: the conversation went back to before user message `turn` (1-based). */
    z.object({ t: z.literal('rewind'), at: z.string(), turn: z.number().int().positive() }),
    z.object({
      t: z.literal('usage'),
      at: z.string(),
      input_tokens: z.number(),
      output_tokens: z.number(),
      cached_tokens: z.number().optional(),
    }),
  ]);
}

/** Built on the first read: a turn writes its session without parsing one. */
const sessionRecordSchema = lazy(buildRecordSchema);

export type SessionRecord = z.infer<ReturnType<typeof buildRecordSchema>>;
export type SessionMeta = Extract<SessionRecord, { t: 'meta' }>;

/** A line of `ai/sessions/*.jsonl` as listed by `/sessions`. */
export interface SessionInfo {
  id: string;
  cwd: string;
  createdAt: string;
  updatedAt: string;
  /** The first user message, shortened. */
  title: string;
  file: string;
}

/** Creates, appends to, lists and reads session files under one folder. */
export class SessionStore {
  constructor(readonly dir: string) {}

  fileOf(id: string): string {
    if (!/^[\w.-]+$/.test(id)) throw new Error(`invalid session id: ${id}`);
    return path.join(this.dir, `${id}.jsonl`);
  }

  /** Append one record as one line (one write call in append mode). */
  append(id: string, record: SessionRecord): void {
    this.appendText(id, sessionLine(record));
  }

  /** Append lines made by {@link sessionLine} (one write call in append mode). */
  appendText(id: string, text: string): void {
    ensurePrivateDirOnce(path.dirname(this.dir));
    appendPrivate(this.fileOf(id), text);
  }

  /** Every valid record of a session; lines that fail validation are skipped and counted. */
  read(id: string): { records: SessionRecord[]; skipped: number } {
    const text = fs.readFileSync(this.fileOf(id), 'utf8');
    const records: SessionRecord[] = [];
    let skipped = 0;
    for (const line of text.split('\n')) {
      if (!line.trim()) continue;
      let json: unknown;
      try {
        json = JSON.parse(line);
      } catch {
        skipped++;
        continue;
      }
      const parsed = sessionRecordSchema().safeParse(json);
      if (parsed.success) records.push(parsed.data);
      else skipped++;
    }
    return { records, skipped };
  }

  /** Sessions, newest first. */
  list(): SessionInfo[] {
    let names: string[];
    try {
      names = fs.readdirSync(this.dir);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw err;
    }
    const out: SessionInfo[] = [];
    for (const name of names) {
      if (!name.endsWith('.jsonl')) continue;
      const file = path.join(this.dir, name);
      const info = this.peek(file);
      if (info) out.push(info);
    }
    return out.sort((a, b) => (a.updatedAt < b.updatedAt ? 1 : a.updatedAt > b.updatedAt ? -1 : 0));
  }

  /**
   * The session last started or resumed in `cwd`, through a small pointer per folder
   * (`../sessions-last/<hash of the folder>`): one file read however many sessions there are. Without a
   * valid pointer (sessions of an older version) every session is looked at once and the
   * pointer written.
   */
  lastFor(cwd: string): SessionInfo | undefined {
    const want = path.resolve(cwd);
    const pointer = this.pointerOf(want);
    let id: string | undefined;
    try {
      id = fs.readFileSync(pointer, 'utf8').trim();
    } catch {
      id = undefined;
    }
    if (id && /^[\w.-]+$/.test(id)) {
      const info = this.peek(this.fileOf(id));
      if (info && path.resolve(info.cwd) === want) return info;
    }
    const found = this.list().find((s) => path.resolve(s.cwd) === want);
    if (found) this.markLast(want, found.id);
    return found;
  }

  /** Remember `id` as the session of `cwd` for {@link lastFor}. Best effort: a failure only costs a scan later. */
  markLast(cwd: string, id: string): void {
    try {
      const file = this.pointerOf(path.resolve(cwd));
      ensurePrivateDir(path.dirname(file));
      // Not flushed to disk: the pointer is only a shortcut, not worth a wait on the disk in every
      // session. After a crash it may be old or empty, and lastFor then looks at every session.
      writeFileAtomicSync(file, id, { mode: 0o600, fsync: false });
    } catch {
      // a full disk or a read-only home: lastFor falls back to looking at every session
    }
  }

  private pointerOf(cwd: string): string {
    // Beside the sessions folder, so it holds nothing but sessions.
    return path.join(path.dirname(this.dir), 'sessions-last', pointerName(cwd));
  }

  /** Meta, title and last time of a session from its first and last few KB only: listing
   * stays cheap however many and however long the sessions are. */
  private peek(file: string): SessionInfo | undefined {
    let head: string;
    let tail: string;
    try {
      // Non-blocking and without following a link: a FIFO or a device named *.jsonl is skipped, never waited on.
      const fd = fs.openSync(file, fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0) | (fs.constants.O_NOFOLLOW ?? 0));
      try {
        const st = fs.fstatSync(fd);
        if (!st.isFile()) return undefined;
        const size = st.size;
        head = readAt(fd, 0, Math.min(size, PEEK_HEAD));
        tail = size > PEEK_HEAD ? readAt(fd, Math.max(0, size - PEEK_TAIL), Math.min(size, PEEK_TAIL)) : head;
      } finally {
        fs.closeSync(fd);
      }
    } catch {
      return undefined; // vanished between readdir and read
    }
    const lines = head.split('\n');
    let meta: SessionMeta | undefined;
    let title = '';
    for (const line of lines) {
      const r = parseLine(line);
      if (!r) continue;
      if (r.t === 'meta') meta ??= r;
      else if (r.t === 'user' && !title) title = r.content.replace(/\s+/g, ' ').slice(0, 60);
      if (meta && title) break;
    }
    if (!meta) return undefined;
    // Order by the last record's own time (from the injected clock), not by mtime.
    const last = lastRecordTime(tail.split('\n')) ?? meta.createdAt;
    return { id: meta.id, cwd: meta.cwd, createdAt: meta.createdAt, updatedAt: last, title, file };
  }
}

const PEEK_HEAD = 64 * 1024;
const PEEK_TAIL = 4 * 1024;

function readAt(fd: number, position: number, length: number): string {
  const buf = Buffer.alloc(length);
  const n = fs.readSync(fd, buf, 0, length, position);
  return buf.subarray(0, n).toString('utf8');
}

function parseLine(line: string): SessionRecord | undefined {
  if (!line.trim()) return undefined;
  let json: unknown;
  try {
    json = JSON.parse(line);
  } catch {
    return undefined; // a cut line at the edge of a peek window, or a corrupt one
  }
  const parsed = sessionRecordSchema().safeParse(json);
  return parsed.success ? parsed.data : undefined;
}

function lastRecordTime(lines: string[]): string | undefined {
  for (let i = lines.length - 1; i >= 0; i--) {
    const m = /"(?:at|createdAt)":"([^"]+)"/.exec(lines[i]);
    if (m) return m[1];
  }
  return undefined;
}

/** A new session id: sortable time plus randomness, e.g. `20261122-053012-a1b2c3`. */
export function newSessionId(now: Date, random: () => number = Math.random): string {
  const iso = now.toISOString();
  const stamp = `${iso.slice(0, 10).replace(/-/g, '')}-${iso.slice(11, 19).replace(/:/g, '')}`;
  const suffix = Math.floor(random() * 0xffffff)
    .toString(16)
    .padStart(6, '0');
  return `${stamp}-${suffix}`;
}

/** One audit line per judged step: what, the decision, who approved and what happened. */
export interface AuditEntry {
  at: string;
  sessionId: string;
  id: string;
  step: unknown;
  level: string;
  /** The rule ids that decided it (language-free). */
  rules: string[];
  /** The same rules' reasons, as the model read them (the session's language), redacted like the whole line. */
  reasons?: string[];
  /** `policy` (L0 or L2 by rule), `user` (confirmed by a person), `flag` (--approve-l1), `none`. */
  approvedBy: 'policy' | 'user' | 'flag' | 'hook' | 'command' | 'none';
  answer?: string;
  /** `exit N`, `declined`, `blocked` (refused by the runner), `blocked_by_hook`, `applied`, …; `exit N (sandbox_stopped)` when the OS sandbox stopped part of it. */
  outcome: string;
}
