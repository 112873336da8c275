import { promises as fs } from 'fs';
import path = require('path');
import { readCheckedFile, writeFileAtomicSync } from '@holic512/shared/lib/atomic-write';
import { ioError, resolveAllowedFile } from './allowed-roots';
import { checkKeepBackups, createBackup, listBackupsOf, type BackupOptions } from './backups';
import { JsonPatchError } from './errors';
import { withFileLock } from './file-lock';
import { DEFAULT_JSON_FORMAT, detectJsonFormat, formatJson, parseJsonFile } from './json-format';
import type { Lang } from './i18n';
import type { JsonValue } from './json-value';
import { planPatch, type PatchChange, type PatchPlan } from './plan-patch';

/** What `confirm` is shown before a file is written. */
export interface FilePatchPlan extends PatchPlan<JsonValue> {
  /** Real path of the file that would be written. */
  file: string;
  /** True when the file does not exist yet and would be created. */
  created: boolean;
}

/** Options of {@link patchFile}. */
export interface PatchFileOptions extends BackupOptions {
  /**
   * Files that may be changed: exact paths or patterns such as `~/.slothtool/plugin-configs/*.json`
   * (`*` and `?` match inside one path segment). Use {@link defaultAllowedRoots} for SlothTool.
   */
  allowedRoots: readonly string[];
  /**
   * Called with the plan (masked `changes` and `summary`) before anything is written;
   * return false (or a promise of false) to write nothing. Runs while the file is locked.
   * Not called when the patch changes nothing. Without it, the patch is applied.
   */
  confirm?: (plan: FilePatchPlan) => boolean | Promise<boolean>;
  /** How many backups of this file to keep (oldest removed first). Default 10; 0 keeps none. */
  keepBackups?: number;
  /** Create a missing file (from `{}`) when it lies inside an allowed root. Default true. */
  create?: boolean;
  /** Mode of a newly created file. Default 0o600 (config files often hold API keys). */
  createMode?: number;
  /** Retries while another writer holds the file's lock (at most 100 ms apart); 0 fails at once with LOCKED. Default 200. */
  lockRetries?: number;
  /** Language of the summary's few words. Default 'en'. */
  lang?: Lang;
  /** Clock for backup names, for tests. Default `() => new Date()`. */
  now?: () => Date;
}

/** Result of {@link patchFile}. */
export interface PatchFileResult {
  /** Real path of the file. */
  file: string;
  /** `applied`: written; `unchanged`: the patch changed nothing; `declined`: confirm said no. */
  status: 'applied' | 'unchanged' | 'declined';
  /** True only when the file was written. */
  changed: boolean;
  /** The backup of the previous content, or null (nothing written, file was new, or keepBackups 0). */
  backupPath: string | null;
  /** Masked list of changes (also filled when declined). */
  changes: PatchChange[];
  /** Masked short diff. */
  summary: string;
  /** True when the file did not exist and was created. */
  created: boolean;
}

/**
 * Patch a JSON file safely: the path must resolve (after `~`, `..` and symlinks) into
 * `allowedRoots`; the file must hold valid JSON; `confirm(plan)` is asked first; writers
 * are serialized by a lock; the old content is backed up; the new content is written to a
 * temp file, fsynced and renamed over the old one, keeping mode, indentation and final newline.
 */
export async function patchFile(file: string, ops: unknown, options: PatchFileOptions): Promise<PatchFileResult> {
  if (typeof options !== 'object' || options === null) {
    throw new JsonPatchError(
      'INVALID_OPTIONS',
      'Expected options with allowedRoots, found none. Pass {allowedRoots: defaultAllowedRoots()}.',
    );
  }
  if (options.confirm !== undefined && typeof options.confirm !== 'function') {
    throw new JsonPatchError(
      'INVALID_OPTIONS',
      `Expected confirm to be a function (plan) => boolean, found ${typeof options.confirm}. Pass a function or leave it out.`,
    );
  }
  const keep = checkKeepBackups(options.keepBackups);
  if (options.lockRetries !== undefined && !(Number.isInteger(options.lockRetries) && options.lockRetries >= 0)) {
    throw new JsonPatchError(
      'INVALID_OPTIONS',
      `Expected lockRetries to be a whole number of at least 0, found ${JSON.stringify(options.lockRetries)}. Leave it out for the default.`,
    );
  }
  const real = await resolveAllowedFile(file, options.allowedRoots, options);
  await ensureDir(path.dirname(real), options.create !== false);

  return withFileLock(
    real,
    async (lock) => {
      const current = await readCurrent(real);
      if (!current && options.create === false) {
        throw new JsonPatchError(
          'IO_ERROR',
          `Expected ${real} to exist, found no file. Create it first or call patchFile with create: true.`,
          { file: real },
        );
      }
      const before: JsonValue = current ? parseJsonFile(current.text, real) : {};
      const plan = planPatch<JsonValue>(before, ops, { lang: options.lang });
      const base = { file: real, changes: plan.changes, summary: plan.summary, created: !current };
      if (plan.changes.length === 0) {
        return { ...base, status: 'unchanged', changed: false, backupPath: null, created: false };
      }
      if (options.confirm && !(await options.confirm({ ...plan, file: real, created: !current }))) {
        return { ...base, status: 'declined', changed: false, backupPath: null, created: false };
      }
      const format = current ? detectJsonFormat(current.text, before) : DEFAULT_JSON_FORMAT;
      const mode = current ? current.mode : (options.createMode ?? 0o600);
      lock.assertHeld();
      const backupPath =
        current && keep > 0
          ? await createBackup(real, current.bytes, current.mode, (options.now ?? (() => new Date()))(), keep, options)
          : null;
      lock.assertHeld();
      await writeAtomic(real, formatJson(plan.after, format), mode);
      return { ...base, status: 'applied', changed: true, backupPath };
    },
    options.lockRetries,
  );
}

/** Options of {@link rollbackFile}. */
export interface RollbackOptions extends BackupOptions {
  /** As in {@link PatchFileOptions.lockRetries}. */
  lockRetries?: number;
  /** When given, the file must lie inside these roots (as in patchFile). */
  allowedRoots?: readonly string[];
}

/** Result of {@link rollbackFile}. */
export interface RollbackResult {
  /** Real path of the restored file. */
  file: string;
  /** The backup that was restored (it is removed afterwards). */
  restoredFrom: string;
  /** How many older backups remain. */
  remaining: number;
}

/**
 * Restore the newest backup of `file`, atomically and under the file's lock. The restored
 * backup is then removed, so calling rollbackFile again steps one change further back.
 */
export async function rollbackFile(file: string, options: RollbackOptions = {}): Promise<RollbackResult> {
  const real = await resolveAllowedFile(file, options.allowedRoots ?? [file], options);
  await ensureDir(path.dirname(real), false);
  return withFileLock(
    real,
    async (lock) => {
      const [newest, ...older] = await listBackupsOf(real, options);
      if (!newest) {
        throw new JsonPatchError(
          'NO_BACKUP',
          `Expected a backup of ${real} in ${options.backupDir ?? 'the SlothTool backups folder'}, found none. ` +
            'There is nothing to roll back to (a file created by patchFile has no earlier version).',
          { file: real },
        );
      }
      let bytes: Buffer;
      let mode: number;
      try {
        bytes = await fs.readFile(newest.path);
        mode = (await readCurrent(real))?.mode ?? (await fs.stat(newest.path)).mode & 0o7777;
      } catch (err) {
        throw ioError(newest.path, 'read the backup', err);
      }
      lock.assertHeld();
      await writeAtomic(real, bytes, mode);
      await fs.rm(newest.path, { force: true });
      return { file: real, restoredFrom: newest.path, remaining: older.length };
    },
    options.lockRetries,
  );
}

interface Current {
  bytes: Buffer;
  text: string;
  mode: number;
}

async function readCurrent(real: string): Promise<Current | null> {
  try {
    // Through the folder held open, never following a link in the last part: the file read is
    // the file that was checked (a swap meanwhile is MOVED).
    const found = readCheckedFile(real);
    if (!found) return null;
    return { bytes: found.bytes, text: found.bytes.toString('utf8'), mode: found.mode };
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EISDIR' || code === 'NOT_A_FILE') {
      throw new JsonPatchError(
        'IO_ERROR',
        `Expected ${real} to be a regular file, found ${code === 'EISDIR' ? 'a directory' : 'a special file'}. Name a JSON file instead.`,
        { file: real },
      );
    }
    if (code === 'ENOENT') return null;
    throw ioError(real, 'read', err);
  }
}

async function ensureDir(dir: string, create: boolean): Promise<void> {
  try {
    if (create) await fs.mkdir(dir, { recursive: true, mode: 0o700 });
    else await fs.access(dir);
  } catch (err) {
    throw ioError(dir, create ? 'create the folder' : 'find the folder', err);
  }
}

async function writeAtomic(real: string, data: string | Buffer, mode: number): Promise<void> {
  try {
    writeFileAtomicSync(real, data, { mode });
  } catch (err) {
    throw ioError(real, 'write', err);
  }
}
