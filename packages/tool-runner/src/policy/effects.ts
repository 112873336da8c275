/**
 * What a command sends, where it writes and what it deletes, judged by one set of tables for
 * every program (and, for writes, every tool): a file named as an upload is read and sent (a
 * secret store there is refused, any other file asked about by name); a write target is judged by
 * where it lands (SlothTool's home, what runs later, a system folder, outside the workspace); a
 * delete hidden in a subcommand is a delete. Program rules (programs/transfer.ts, remote-copy.ts,
 * build-deletes.ts) say which words are which; this file says what each one means.
 */
import { finding, type Finding, type JudgeCtx } from './finding';
import { HOME_SECRET_STORES } from './secret-stores';
import {
  BLOCK_DEVICE_RE,
  isHarmlessDevice,
  isOutsideWorkspace,
  isSystemPath,
  normalisePathArg,
  runsLaterFindings,
  secretFindings,
  slothtoolHomeFindings,
} from './paths';

/** A word of a command that names a local file it reads and sends, and the option (or form) that says so. */
export interface Upload {
  file: string;
  via: string;
}

/** A path a command writes (a file, or a folder it writes into), and the option (or operand) that says so. */
export interface WriteTarget {
  path: string;
  via: string;
}

/** Standard input and output, which a step never has (stdin is closed, stdout is captured). */
const STDIO = new Set(['-', '', '/dev/stdin', '/dev/stdout', '/dev/stderr']);

/** A folder that holds secret stores of the home (the home itself, a folder above it, `~/.config`, `~/.local/share`): sending it sends them. */
function holdsSecretStores(p: string, home: string | undefined): boolean {
  if (p === '/') return true;
  const h = home?.replace(/\/+$/, '');
  if (!h) return false;
  if (p === h || h.startsWith(p + '/')) return true;
  if (!p.startsWith(h + '/')) return false;
  const rel = p.slice(h.length + 1).toLowerCase() + '/';
  return HOME_SECRET_STORES.some((s) => s.toLowerCase().startsWith(rel));
}

/**
 * Each file a command uploads: a secret store (by the secret table: keys, credentials, .env,
 * keyrings, password stores, browser profiles, the assistant's own keys) is refused
 * (`upload.secret`, L2); any other file is asked about each time, named (`upload.file`, L1).
 */
export function uploadFindings(program: string, uploads: readonly Upload[], ctx: JudgeCtx): Finding[] {
  const out: Finding[] = [];
  for (const u of uploads) {
    if (STDIO.has(u.file)) continue;
    const p = normalisePathArg(u.file, ctx);
    if (p !== undefined && isHarmlessDevice(p)) continue;
    const own = p === undefined ? [] : slothtoolHomeFindings([p], ctx, false);
    const secret = own.length ? own : secretFindings([u.file], ctx);
    if (secret.length) out.push(finding('upload.secret', 'L2', { p: program, f: u.file, o: u.via }));
    else if (p !== undefined && holdsSecretStores(p, ctx.home))
      out.push(finding('upload.secret', 'L2', { p: program, f: u.file, o: u.via }, { msg: 'upload.secret_folder' }));
    else out.push(finding('upload.file', 'L1', { p: program, f: u.file, o: u.via }));
  }
  return out;
}

/**
 * Where each written path lands: SlothTool's home (L2), a file or folder whose contents decide
 * what runs later (L2 `write.persistence`), a system folder (L2), a raw disk (L2), or outside
 * the workspace (L1 `write.outside`, asked every time).
 */
export function writePathFindings(program: string, targets: readonly WriteTarget[], ctx: JudgeCtx): Finding[] {
  const out: Finding[] = [];
  if (!targets.length) return out;
  // The paths below are already resolved where the step runs: judged against the workspace alone.
  const ws = ctx.runCwd === undefined ? ctx : { ...ctx, runCwd: undefined };
  for (const t of targets) {
    if (STDIO.has(t.path)) continue;
    const p = normalisePathArg(t.path, ctx);
    if (p !== undefined && isHarmlessDevice(p)) continue;
    const said = t.via === t.path ? t.path : `${t.via} ${t.path}`;
    const own = p === undefined ? [] : slothtoolHomeFindings([p], ctx, true);
    if (own.length) {
      out.push(...own);
      continue;
    }
    const later = runsLaterFindings(p === undefined ? [t.path] : [t.path, p], ctx, said);
    if (later.length) out.push(...later);
    else if (p !== undefined && BLOCK_DEVICE_RE.test(p)) out.push(finding('system.change', 'L2', { p: said }));
    else if (p !== undefined && isSystemPath(p, ws)) out.push(finding('write.system_path', 'L2', { a: said }));
    else if (p === undefined || (ctx.cwd !== undefined && isOutsideWorkspace(p, ws)))
      out.push(finding('write.outside', 'L1', { p: program, a: said }));
  }
  return out;
}

/**
 * A delete a subcommand does (`cmake -E rm -rf x`, `cargo clean --target-dir x`): of a tree it
 * is a recursive delete (L2, as `rm -r`); of files, a write of those paths (asked; refused where
 * a write would be).
 */
export function deleteFindings(program: string, targets: readonly string[], recursive: boolean, via: string, ctx: JudgeCtx): Finding[] {
  if (recursive) return [finding('delete.recursive', 'L2', { p: program, a: [via, ...targets].join(' ') })];
  return [
    finding('delete.files', 'L1', { p: program, a: [via, ...targets].join(' ') }, { cat: ['write'] }),
    ...writePathFindings(
      program,
      targets.map((path) => ({ path, via })),
      ctx,
    ),
  ];
}
