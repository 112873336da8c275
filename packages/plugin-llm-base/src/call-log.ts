import * as fs from 'fs';
import * as path from 'path';
import { redactValue } from '@holic512/shared';
import { LlmBaseError } from './errors';
import { Lang, t } from './i18n';
import { callLogPath } from './paths';
import { CallLogSchema, formatIssues } from './config-schema';
import type { CallRecord } from './types';

/** At most this many entries are kept, newest first. */
export const MAX_CALLS = 500;

function parseLog(text: string, file: string, lang: Lang): CallRecord[] {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new LlmBaseError('PROVIDER_ERROR', t(lang, 'logInvalid', { file, issues: (err as Error).message }), 'log_invalid');
  }
  const parsed = CallLogSchema.safeParse(json);
  if (!parsed.success) {
    throw new LlmBaseError('PROVIDER_ERROR', t(lang, 'logInvalid', { file, issues: formatIssues(parsed.error) }), 'log_invalid');
  }
  return parsed.data.calls as CallRecord[];
}

/** All entries, newest first. A missing log is empty; a corrupt one is an error naming the file. */
export function listCalls(env: NodeJS.ProcessEnv, lang: Lang): CallRecord[] {
  const file = callLogPath(env);
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
  return parseLog(text, file, lang);
}

export function getCall(callId: unknown, env: NodeJS.ProcessEnv, lang: Lang): CallRecord | null {
  if (typeof callId !== 'string' || callId === '') return null;
  return listCalls(env, lang).find((c) => c.call_id === callId) ?? null;
}

/**
 * Prepend one entry, keep MAX_CALLS. Holds a lock across read-modify-write and writes
 * atomically, so concurrent callers (threads of one process or several processes) lose nothing.
 * A corrupt log is moved aside to `<file>.corrupt-<time>` (kept for the user) and a new one started.
 */
export async function addCall(record: CallRecord, env: NodeJS.ProcessEnv, lang: Lang, now: () => Date = () => new Date()): Promise<void> {
  const file = callLogPath(env);
  (require('@holic512/shared/lib/private-files') as typeof import('@holic512/shared/lib/private-files')).ensurePrivateDir(path.dirname(file));
  const lockfile = require('proper-lockfile') as typeof import('proper-lockfile');
  const writeFileAtomic = require('write-file-atomic') as typeof import('write-file-atomic');
  const release = await lockfile.lock(file, {
    realpath: false,
    stale: 10000,
    retries: { retries: 200, factor: 1.2, minTimeout: 2, maxTimeout: 50, randomize: true },
  });
  try {
    let calls: CallRecord[] = [];
    let text: string | undefined;
    try {
      text = await fs.promises.readFile(file, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
    if (text !== undefined) {
      try {
        calls = parseLog(text, file, lang);
      } catch (err) {
        if (!LlmBaseError.isInstance(err)) throw err;
        await fs.promises.rename(file, `${file}.corrupt-${now().toISOString().replace(/[:.]/g, '-')}`);
      }
    }
    // Metadata only, but an error message may quote a key: the entry passes the redaction gate.
    const next = [redactValue(record), ...calls].slice(0, MAX_CALLS);
    await writeFileAtomic(file, JSON.stringify({ calls: next }, null, 2) + '\n', { mode: 0o600 });
  } finally {
    await release();
  }
}
