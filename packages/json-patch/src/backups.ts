import { createHash } from 'crypto';
import { promises as fs } from 'fs';
import path = require('path');
import { JsonPatchError } from './errors';
import { slothtoolHome } from './home';
import { ioError, resolveRealPath, type ResolveOptions } from './allowed-roots';

/** One backup of a file. */
export interface BackupInfo {
  /** Absolute path of the backup file. */
  path: string;
  /** When the backup was taken (from its name). */
  createdAt: Date;
}

/** Where backups live and which file they belong to. */
export interface BackupOptions extends ResolveOptions {
  /** Folder of backups. Default `<SlothTool home>/backups` (SLOTHTOOL_HOME honoured). */
  backupDir?: string;
}

/** Default number of backups kept per file. */
export const DEFAULT_KEEP_BACKUPS = 10;

export function backupDirOf(options: BackupOptions): string {
  return options.backupDir
    ? path.resolve(options.cwd ?? process.cwd(), options.backupDir)
    : path.join(slothtoolHome(options.env), 'backups');
}

/** Backups of different files share a folder: the name carries a hash of the file's real path. */
function backupPrefix(realFile: string): string {
  const hash = createHash('sha256').update(realFile).digest('hex').slice(0, 10);
  return `${path.basename(realFile)}.${hash}.`;
}

function stamp(date: Date): string {
  return date.toISOString().replace(/[:.]/g, '-');
}

const NAME_TAIL = /^(\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-\d{3}Z)-(\d+)\.bak$/;

function parseStamp(text: string): Date {
  const [, d, h, m, s, ms] = /^(.*)T(\d\d)-(\d\d)-(\d\d)-(\d{3})Z$/.exec(text) ?? [];
  return new Date(`${d}T${h}:${m}:${s}.${ms}Z`);
}

/** Backups of the file whose real path is `realFile`, newest first. */
export async function listBackupsOf(realFile: string, options: BackupOptions): Promise<BackupInfo[]> {
  const dir = backupDirOf(options);
  const prefix = backupPrefix(realFile);
  let names: string[];
  try {
    names = await fs.readdir(dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw ioError(dir, 'read the backup folder', err);
  }
  return names
    .filter((n) => n.startsWith(prefix) && NAME_TAIL.test(n.slice(prefix.length)))
    .sort()
    .reverse()
    .map((n) => ({ path: path.join(dir, n), createdAt: parseStamp(NAME_TAIL.exec(n.slice(prefix.length))![1]) }));
}

/**
 * Backups of `file`, newest first. `file` is resolved like patchFile resolves it
 * (`~`, `..`, symlinks), so a backup is found under any name of the same file.
 */
export async function listBackups(file: string, options: BackupOptions = {}): Promise<BackupInfo[]> {
  return listBackupsOf(await resolveRealPath(file, options), options);
}

/** Copy the current bytes of `realFile` into the backup folder; keep only `keep` backups. */
export async function createBackup(
  realFile: string,
  content: Buffer,
  mode: number,
  now: Date,
  keep: number,
  options: BackupOptions,
): Promise<string> {
  const dir = backupDirOf(options);
  try {
    await fs.mkdir(dir, { recursive: true, mode: 0o700 });
  } catch (err) {
    throw ioError(dir, 'create the backup folder', err);
  }
  const base = path.join(dir, backupPrefix(realFile) + stamp(now));
  for (let seq = 0; ; seq++) {
    const candidate = `${base}-${String(seq).padStart(3, '0')}.bak`;
    try {
      // 'wx' never overwrites an older backup taken in the same millisecond.
      await fs.writeFile(candidate, content, { flag: 'wx', mode });
      await fs.chmod(candidate, mode);
      await pruneBackups(realFile, keep, options);
      return candidate;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EEXIST') continue;
      throw ioError(candidate, 'write the backup', err);
    }
  }
}

async function pruneBackups(realFile: string, keep: number, options: BackupOptions): Promise<void> {
  const all = await listBackupsOf(realFile, options);
  for (const old of all.slice(keep)) await fs.rm(old.path, { force: true });
}

export function checkKeepBackups(keep: unknown): number {
  if (keep === undefined) return DEFAULT_KEEP_BACKUPS;
  if (typeof keep !== 'number' || !Number.isInteger(keep) || keep < 0) {
    throw new JsonPatchError(
      'INVALID_OPTIONS',
      `Expected keepBackups to be a whole number of at least 0, found ${JSON.stringify(keep)}. Pass e.g. 10 (0 keeps no backups).`,
    );
  }
  return keep;
}
