import fs = require('fs');
import path = require('path');
import { redactValue } from '@holic512/shared';
import { writeFileAtomicSync } from '@holic512/shared/lib/atomic-write';
import { ensurePrivateDirOnce, readJsonLines } from '@holic512/shared/lib/private-files';
import { LlmBaseError } from './errors';
import { Lang, t } from './i18n';
import { callLogPath, legacyCallLogPath, slothtoolHome } from './paths';
import { configSchemas, formatIssues } from './config-schema';
import type { CallRecord } from './types';

/**
 * The call log: one JSON line per call appended to `llm-base.calls.jsonl` (0600, O_APPEND: no
 * read-modify-write, no lock, no fsync per call), once the caller has its answer (addCall). Past
 * ROTATE_BYTES the file becomes `.1` (the older `.1` goes), so it stays bounded. The 1.0.x `llm-base.logs.json` is moved in once.
 */

/** At most this many entries are listed, newest first. */
export const MAX_CALLS = 500;
/** The log is rotated past this size (well above MAX_CALLS entries between the two files). */
export const ROTATE_BYTES = 512 * 1024;

function parseLegacy(text: string, file: string, lang: Lang): CallRecord[] {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new LlmBaseError('PROVIDER_ERROR', t(lang, 'logInvalid', { file, issues: (err as Error).message }), 'log_invalid');
  }
  const parsed = configSchemas().CallLogSchema.safeParse(json);
  if (!parsed.success) {
    throw new LlmBaseError('PROVIDER_ERROR', t(lang, 'logInvalid', { file, issues: formatIssues(parsed.error) }), 'log_invalid');
  }
  return parsed.data.calls as CallRecord[];
}

/** The entries of one JSON-lines file, oldest first; a line that is not an entry is skipped. */
function readLines(file: string): CallRecord[] {
  return readJsonLines(file).flatMap((value) => {
    const parsed = configSchemas().CallLineSchema.safeParse(value);
    return parsed.success ? [parsed.data as CallRecord] : [];
  });
}

/**
 * Move the 1.0.x log into the JSON-lines one, once: its entries go first (they are older), then
 * it is renamed `.migrated`. A corrupt one is set aside as `.corrupt-<time>` (kept for the user).
 */
function migrateLegacy(env: NodeJS.ProcessEnv, lang: Lang, now: () => Date): void {
  const legacy = legacyCallLogPath(env);
  let text: string;
  try {
    text = fs.readFileSync(legacy, 'utf8');
  } catch {
    return;
  }
  const file = callLogPath(env);
  let calls: CallRecord[];
  try {
    calls = parseLegacy(text, legacy, lang);
  } catch (err) {
    if (!LlmBaseError.isInstance(err)) throw err;
    fs.renameSync(legacy, `${legacy}.corrupt-${now().toISOString().replace(/[:.]/g, '-')}`);
    return;
  }
  const lines = [...calls]
    .reverse()
    .map((c) => JSON.stringify(redactValue(c)) + '\n')
    .join('');
  let current = '';
  try {
    current = fs.readFileSync(file, 'utf8');
  } catch {
    // no new log yet
  }
  writeFileAtomicSync(file, lines + current, { mode: 0o600 });
  fs.renameSync(legacy, `${legacy}.migrated`);
}

/** All entries, newest first (at most MAX_CALLS). A missing log is empty; a corrupt 1.0.x one is an error naming the file. */
export function listCalls(env: NodeJS.ProcessEnv, lang: Lang): CallRecord[] {
  flushCalls();
  const legacy = legacyCallLogPath(env);
  if (fs.existsSync(legacy)) parseLegacy(fs.readFileSync(legacy, 'utf8'), legacy, lang); // says what is wrong with it
  migrateLegacy(env, lang, () => new Date());
  const file = callLogPath(env);
  return [...readLines(`${file}.1`), ...readLines(file)].reverse().slice(0, MAX_CALLS);
}

export function getCall(callId: unknown, env: NodeJS.ProcessEnv, lang: Lang): CallRecord | null {
  if (typeof callId !== 'string' || callId === '') return null;
  return listCalls(env, lang).find((c) => c.call_id === callId) ?? null;
}

/** Call logs whose legacy file this process has looked for. */
const migrated = new Set<string>();

/** Entries not written yet, in order (see {@link addCall}). */
const pending: Array<{ record: CallRecord; env: NodeJS.ProcessEnv; lang: Lang; now: () => Date }> = [];
let flushScheduled = false;
let exitHooked = false;

/**
 * Add one entry. It is written off the call's critical path: queued, then appended when the
 * event loop is next idle (the caller has its answer by then), before the log is read in this
 * process ({@link listCalls}), and at exit. A log that cannot be written never fails a call.
 */
export function addCall(record: CallRecord, env: NodeJS.ProcessEnv, lang: Lang, now: () => Date = () => new Date()): void {
  // The log of the home the call was made in: `env` is often the live process.env, which may name
  // another home (or none) by the time the line is written.
  pending.push({ record, env: { SLOTHTOOL_HOME: slothtoolHome(env) }, lang, now });
  if (flushScheduled) return;
  flushScheduled = true;
  if (!exitHooked) {
    exitHooked = true;
    process.on('exit', flushCalls);
  }
  setImmediate(flushCalls);
}

/** Write the queued entries now (each as its own line); one that cannot be written is dropped. */
export function flushCalls(): void {
  flushScheduled = false;
  for (const { record, env, lang, now } of pending.splice(0)) {
    try {
      appendCall(record, env, lang, now);
    } catch {
      // The call's result mattered more than its log line (disk full, a folder made read-only).
    }
  }
}

/**
 * Append one entry: one write() of one line with O_APPEND, so concurrent callers (threads of one
 * process or several processes) lose nothing and nothing is rewritten. The entry passes the
 * redaction gate (an error message may quote a key).
 */
function appendCall(record: CallRecord, env: NodeJS.ProcessEnv, lang: Lang, now: () => Date): void {
  const file = callLogPath(env);
  ensurePrivateDirOnce(path.dirname(file));
  // A 1.0.x log is moved over on the first call of the process (listCalls checks every time).
  if (!migrated.has(file)) {
    migrateLegacy(env, lang, now);
    migrated.add(file);
  }
  const line = Buffer.from(JSON.stringify(redactValue(record)) + '\n', 'utf8');
  const fd = fs.openSync(
    file,
    fs.constants.O_WRONLY | fs.constants.O_APPEND | fs.constants.O_CREAT | (fs.constants.O_NOFOLLOW ?? 0),
    0o600,
  );
  let size: number;
  try {
    const st = fs.fstatSync(fd);
    if (st.mode & 0o077) fs.fchmodSync(fd, 0o600);
    fs.writeSync(fd, line);
    size = st.size + line.length;
  } finally {
    fs.closeSync(fd);
  }
  if (size > ROTATE_BYTES) {
    try {
      fs.renameSync(file, `${file}.1`);
    } catch {
      // another process rotated it first
    }
  }
}
