/** File tools whose options can write, delete or run programs: find, fd, rg, sort, rm, cp, tar, ... */
import { findLong, findShort, operands, shortCluster } from '../args';
import { writePathFindings } from '../effects';
import { finding, type Finding, type JudgeCtx } from '../finding';
import { isOutsideWorkspace, isSystemPath } from '../paths';
import { execArg, readOnly, writeArg, writeBlock, writeFile, type Handler } from './common';

export function judgeFind(args: readonly string[], name: string): Finding[] {
  const out: Finding[] = [];
  for (const a of args) {
    if (['-delete', '-exec', '-execdir', '-ok', '-okdir'].includes(a))
      out.push(a === '-delete' ? finding('delete.recursive', 'L2', { p: name, a }) : execArg(name, a));
    else if (['-fprint', '-fprint0', '-fprintf', '-fls'].includes(a)) out.push(writeBlock(name, a));
  }
  return out.length ? out : [readOnly(name)];
}

export function judgeFd(args: readonly string[], name: string): Finding[] {
  const bad = findLong(args, ['--exec', '--exec-batch']) ?? args.find((a) => /^-[a-zA-Z]*[xX]/.test(a) && !a.startsWith('--'));
  return bad ? [execArg(name, bad)] : [readOnly(name)];
}

export function judgeRg(args: readonly string[], name: string): Finding[] {
  const bad = findLong(args, ['--pre', '--hostname-bin']);
  return bad ? [execArg(name, bad)] : [readOnly(name)];
}

export function judgeSort(args: readonly string[], name: string): Finding[] {
  const comp = findLong(args, ['--compress-program']);
  if (comp) return [execArg(name, comp)];
  const end = args.indexOf('--');
  const o =
    findLong(args, ['--output']) ?? (end < 0 ? args : args.slice(0, end)).find((a) => /^-[a-zA-Z]*o/.test(a) && !a.startsWith('--'));
  return o ? [writeArg(name, o)] : [readOnly(name)];
}

/** `prog [in [out]]` style writers: uniq, xxd, iconv -o. */
export function judgePositionalOut(max: number, valued: string[] = [], writes: string[] = []): Handler {
  return (args, name) => {
    const w = args.find((a) => writes.some((x) => a === x || a.startsWith(x + '=') || (x.length === 2 && a.startsWith(x))));
    if (w) return [writeArg(name, w)];
    return operands(args, valued).length > max ? [writeArg(name, args[args.length - 1])] : [readOnly(name)];
  };
}

export function judgeTree(args: readonly string[], name: string): Finding[] {
  const o = args.find((a) => a === '-o' || a === '-R' || a.startsWith('--output'));
  return o ? [writeArg(name, o)] : [readOnly(name)];
}

/** A write of exactly these paths (effects.ts): what refuses it alone, else the write asked with what is said of where it lands. */
function writesTo(name: string, targets: readonly string[], ctx: JudgeCtx): Finding[] {
  const where = writePathFindings(
    name,
    targets.map((t) => ({ path: t, via: t })),
    ctx,
  );
  const refused = where.filter((f) => f.level === 'L2');
  return refused.length ? refused : [writeFile(name), ...where];
}

export function judgeRm(args: readonly string[], name: string, ctx: JudgeCtx): Finding[] {
  const rec = findShort(args, 'rR') ?? findLong(args, ['--recursive', '--no-preserve-root']);
  const sys = operands(args).find((p) => isSystemPath(p, ctx));
  const out: Finding[] = [];
  if (rec) out.push(finding('delete.recursive', 'L2', { p: name, a: rec }));
  if (sys) out.push(finding('write.system_path', 'L2', { a: sys }));
  return out.length ? out : writesTo(name, operands(args), ctx);
}

/** Programs that create, change or remove the files they name, and nothing else: judged by judgeWriter(false). */
// prettier-ignore
export const OPERAND_WRITERS = [
  'touch', 'mkdir', 'rmdir', 'unlink', 'truncate', 'mktemp', 'split', 'csplit', 'patch', 'dos2unix', 'unix2dos', 'mkfifo', 'link',
] as const;

/** Programs whose rules know the paths they write (their other words are sources): judged by those paths, not by every word. */
export const PRECISE_WRITERS = new Set<string>(['cp', 'ln', 'install', 'mv', 'tee', ...OPERAND_WRITERS, 'rm']);

export function judgeWriter(destOnly: boolean): Handler {
  return (args, name, ctx) => {
    const ops = operands(args, ['-t', '--target-directory', '-S', '--suffix', '-m', '--mode', '-o', '--owner', '-g', '--group']);
    const targets = destOnly ? ops.slice(-1) : ops;
    const t = findLong(args, ['--target-directory']) ?? (args.includes('-t') ? args[args.indexOf('-t') + 1] : undefined);
    if (t) targets.push(t.replace(/^--target-directory=/, ''));
    const sys = targets.find((p) => isSystemPath(p, ctx));
    return sys ? [finding('write.system_path', 'L2', { a: sys })] : writesTo(name, targets, ctx);
  };
}

export function judgePerm(args: readonly string[], name: string, ctx: JudgeCtx): Finding[] {
  const out: Finding[] = [];
  const rec = findShort(args, 'R') ?? findLong(args, ['--recursive']);
  const ops = operands(args, ['--reference']);
  const targets = name === 'chmod' || name === 'chown' || name === 'chgrp' ? ops.slice(1) : ops;
  if (name === 'chmod' && ops[0] && (/^[0-7]?[2-7][0-7]{3}$/.test(ops[0]) || /[ugoa]*[+=][rwxXt]*s/.test(ops[0])))
    out.push(finding('perm.setuid', 'L2', { a: ops[0] }));
  const sys = targets.find((p) => isSystemPath(p, ctx));
  if (sys) out.push(finding('write.system_path', 'L2', { a: sys }));
  const outside = targets.find((p) => isOutsideWorkspace(p, ctx));
  if (rec && outside) out.push(finding('perm.recursive_outside', 'L2', { p: name, a: outside }));
  return out.length ? out : [writeFile(name)];
}

export function judgeDd(args: readonly string[], name: string): Finding[] {
  const of = args.find((a) => a.startsWith('of='));
  return of ? [finding('system.change', 'L2', { p: `${name} ${of}` })] : [finding('write.file', 'L1', { p: name })];
}

export function judgeKill(args: readonly string[], name: string): Finding[] {
  if (args.some((a) => a === '-l' || a === '-L' || a === '--list' || a === '--table')) return [readOnly(name)];
  const targets = args.filter(
    (a, i) =>
      !(a.startsWith('-') && /^-([A-Za-z0-9]+|s|n)$/.test(a)) && !(i > 0 && (args[i - 1] === '-s' || args[i - 1] === '-n')) && a !== '--',
  );
  const all =
    args.find((a, i) => (a === '-1' && i > 0) || (/^-\d+$/.test(a) && targets.length === 0 && a === '-1')) ??
    targets.find((t) => /^-\d+$/.test(t) || t === '0' || t === '1');
  if (all || (args.includes('--') && args[args.indexOf('--') + 1]?.startsWith('-')))
    return [finding('system.kill_all', 'L2', { a: args.join(' ') })];
  return [finding('kill.pid', 'L1', { p: name })];
}

/** Where tar extracts: `-C dir` / `--directory=dir` (the old style's letters included), else the step's folder. */
function tarDirectory(args: readonly string[]): string | undefined {
  let dir: string | undefined;
  args.forEach((a, i) => {
    if (a === '-C' || a === '--directory') dir = args[i + 1];
    else if (a.startsWith('--directory=')) dir = a.slice('--directory='.length);
    else if (/^-[A-Za-z]*C$/.test(a)) dir = args[i + 1];
  });
  return dir;
}

export function judgeTar(args: readonly string[], name: string, ctx?: JudgeCtx): Finding[] {
  const out: Finding[] = [];
  const bad = findLong(args, [
    '--checkpoint-action',
    '--to-command',
    '--use-compress-program',
    '--rsh-command',
    '--info-script',
    '--new-volume-script',
    '--index-file',
  ]);
  if (bad) out.push(execArg(name, bad));
  const absolute = findLong(args, ['--absolute-names']) ?? args.find((a) => /^-[a-zA-Z]*P/.test(a) && !a.startsWith('--'));
  if (absolute) out.push(finding('write.system_path', 'L2', { a: absolute }));
  // It deletes what it packs: `rm -r` of every operand.
  const removes = findLong(args, ['--remove-files']);
  if (removes) out.push(finding('delete.recursive', 'L2', { p: name, a: removes }));
  const ioIdx = args.findIndex((a) => a === '-I' || a === '-F');
  if (ioIdx >= 0) out.push(execArg(name, args[ioIdx]));
  let mode = '';
  const first = args[0] ?? '';
  if (first && !first.startsWith('-')) mode += first;
  for (const a of args) {
    const c = shortCluster(a);
    if (c) mode += c;
    if (a === '--list') mode += 't';
    if (['--extract', '--get', '--create', '--append', '--update', '--delete', '--concatenate'].includes(a)) mode += 'x';
  }
  if (out.length) return out;
  if (/x/.test(mode) && ctx) {
    const dir = tarDirectory(args);
    if (dir !== undefined) return writesTo(name, [dir], ctx);
  }
  if (/[xcruA]/.test(mode) || args.includes('--delete')) return [writeFile(name)];
  return [readOnly(name)];
}

export function judgeArchiver(listFlags: string[]): Handler {
  return (args, name, ctx) => {
    const listing = args.some(
      (a) =>
        listFlags.includes(a) ||
        (listFlags.some((f) => f.length === 2) && (shortCluster(a) ?? '').split('').some((l) => listFlags.includes('-' + l))),
    );
    if (listing) return [readOnly(name)];
    // unzip -d <dir>: where it extracts.
    const d = name === 'unzip' ? args.indexOf('-d') : -1;
    return d >= 0 && args[d + 1] !== undefined ? writesTo(name, [args[d + 1]], ctx) : [writeFile(name)];
  };
}
