/**
 * Per-program option tables and what their options do. Every program the classifier judges
 * read-only is looked up here: an option that writes asks (L1), one that runs another program is
 * refused (L2), one that reaches the network asks, and one the table does not know asks too.
 */
import { writePathFindings } from '../effects';
import { finding, type Finding, type JudgeCtx } from '../finding';
import { isHarmlessDevice, isOutsideWorkspace, normalisePathArg, secretFindings, slothtoolHomeFindings } from '../paths';
import { compiled, optionName, resolveOptions, type ProgramOptions, type Resolution } from './resolve';
import * as files from './tables-files';
import * as other from './tables-other';
import { GIT_TABLES } from './tables-git';
import { READER_TABLES } from './tables-readers';

export { resolveOptions, compiled, opts, type ProgramOptions, type Resolution, type OptionSpec, type Effect } from './resolve';
export { GIT_TABLES } from './tables-git';

/** Program name → its table (aliases share one). */
export const OPTION_TABLES: Record<string, ProgramOptions> = {
  ls: files.ls,
  dir: files.ls,
  vdir: files.ls,
  cat: files.cat,
  head: files.head,
  tail: files.tail,
  wc: files.wc,
  sort: files.sort,
  uniq: files.uniq,
  cut: files.cut,
  tr: files.tr,
  diff: files.diff,
  cmp: files.cmp,
  file: files.file,
  stat: files.stat,
  du: files.du,
  df: files.df,
  tree: files.tree,
  grep: files.grep,
  egrep: files.grep,
  fgrep: files.grep,
  zgrep: files.grep,
  rg: files.rg,
  fd: files.fd,
  fdfind: files.fd,
  find: files.find,
  jq: other.jq,
  yq: other.yq,
  base64: other.base64,
  od: other.od,
  hexdump: other.hexdump,
  xxd: other.xxd,
  tar: other.tar,
  gtar: other.tar,
  unzip: other.unzip,
  gzip: other.gzip,
  gunzip: other.gzip,
  zcat: other.gzip,
  bzip2: other.bzip2,
  bunzip2: other.bzip2,
  bzcat: other.bzip2,
  xz: other.xz,
  unxz: other.xz,
  xzcat: other.xz,
  zstd: other.zstd,
  unzstd: other.zstd,
  which: other.which,
  date: other.date,
  uname: other.uname,
  ps: other.ps,
  ss: other.ss,
  netstat: other.netstat,
  dig: other.dig,
  host: other.host,
  man: other.man,
  sed: other.sed,
  gsed: other.sed,
  awk: other.awk,
  gawk: other.awk,
  mawk: other.awk,
  nawk: other.awk,
  ...READER_TABLES,
};

/** npm's and pip's sub-commands whose options are checked against NPM / PIP (the others already ask). */
const NPM_READ = new Set([
  'ls',
  'list',
  'll',
  'la',
  'explain',
  'why',
  'query',
  'root',
  'prefix',
  'bin',
  'fund',
  'view',
  'v',
  'info',
  'show',
  'outdated',
  'search',
  'audit',
  'doctor',
  'whoami',
  'ping',
]);
const PIP_READ = new Set(['list', 'show', 'freeze', 'check', 'inspect', 'debug', 'search', 'index']);

const own = <T>(table: Record<string, T>, key: string | undefined): T | undefined =>
  key !== undefined && Object.prototype.hasOwnProperty.call(table, key) ? table[key] : undefined;

/**
 * The table and the arguments it parses for `name args`: sub-command programs (go, cargo) by
 * their sub-command; undefined when the program has none.
 */
export function tableFor(name: string, args: readonly string[]): { table: ProgramOptions; args: readonly string[] } | undefined {
  const t = own(OPTION_TABLES, name);
  if (t) return { table: t, args: name === 'tar' || name === 'gtar' ? tarOldStyle(args, t) : args };
  if (name === 'npm' || name === 'pip' || name === 'pip3') {
    const i = args.findIndex((a) => !a.startsWith('-'));
    const read = name === 'npm' ? NPM_READ : PIP_READ;
    return i >= 0 && read.has(args[i])
      ? { table: name === 'npm' ? other.NPM : other.PIP, args: args.filter((_a, j) => j !== i) }
      : undefined;
  }
  if (name === 'go') {
    const i = args.findIndex((a) => !a.startsWith('-'));
    const sub = own(other.GO_TABLES, args[i]);
    return i >= 0 && sub ? { table: sub, args: args.slice(i + 1) } : undefined;
  }
  if (name === 'cargo') {
    const i = args.findIndex((a) => !a.startsWith('-') && !a.startsWith('+'));
    return { table: other.CARGO, args: args.filter((_a, j) => j !== i && !(j === 0 && args[0].startsWith('+'))) };
  }
  return undefined;
}

/** tar's old style (`tar tvf a.tar`): the first word's letters are options, their values follow in order. */
export function tarOldStyle(args: readonly string[], table: ProgramOptions): readonly string[] {
  const first = args[0];
  if (!first || first.startsWith('-') || !/^[A-Za-z]+$/.test(first)) return args;
  const c = compiled(table);
  const out: string[] = [];
  let next = 1;
  for (const letter of first) {
    out.push('-' + letter);
    if (c.short.get(letter)?.value === 'required' && next < args.length) out.push(args[next++]);
  }
  return [...out, ...args.slice(next)];
}

/** Resolve a command's options against its table; undefined for programs without one. */
export function resolveFor(name: string, args: readonly string[]): Resolution | undefined {
  const t = tableFor(name, args);
  return t ? resolveOptions(t.args, compiled(t.table)) : undefined;
}

/** The paths a read-any option reads (`grep -f F`, `wc --files0-from=F`), judged like the operands. */
function readAnyFindings(name: string, value: string, ctx: JudgeCtx): Finding[] {
  const secret = secretFindings([value], ctx);
  if (secret.length) return secret;
  const p = normalisePathArg(value, ctx);
  if (p === undefined || value === '-' || value === '') return [];
  const own = slothtoolHomeFindings([p], ctx, false);
  if (own.length || !ctx.cwd) return own;
  return !isHarmlessDevice(p) && isOutsideWorkspace(p, ctx.runCwd === undefined ? ctx : { ...ctx, runCwd: undefined })
    ? [finding('read.outside', 'L1', { p: name, a: p })]
    : [];
}

/**
 * What a resolution says about a program judged read-only. `readOnly` false: the program's own
 * rules already ask, so only exec and system effects are added (they are stricter).
 */
export function optionFindings(name: string, r: Resolution, ctx: JudgeCtx, readOnly: boolean): Finding[] {
  const out: Finding[] = [];
  for (const o of r.options) {
    if (o.negated || !o.spec.effect) continue;
    const params = { p: name, a: o.given, o: optionName(o.spec), v: o.value ?? '' };
    // The file a write option names is a write target wherever the program's rules stand (effects.ts).
    if (o.spec.effect === 'write' && o.spec.value === 'required' && o.value !== undefined)
      out.push(...writePathFindings(name, [{ path: o.value, via: o.given }], ctx));
    if (o.spec.effect === 'exec') out.push(finding('opt.exec', 'L2', params));
    else if (o.spec.effect === 'system') out.push(finding('opt.system', 'L2', params));
    else if (!readOnly) continue;
    else if (o.spec.effect === 'write') out.push(finding('opt.write', 'L1', params, { cat: ['write'] }));
    else if (o.spec.effect === 'network') out.push(finding('opt.network', 'L1', params, { cat: ['network'] }));
    else if (o.spec.effect === 'read-any' && o.value !== undefined) out.push(...readAnyFindings(name, o.value, ctx));
  }
  if (!readOnly) return out;
  for (const a of r.unknown) out.push(finding('opt.unknown', 'L1', { p: name, a }));
  for (const a of r.ambiguous) out.push(finding('opt.ambiguous', 'L1', { p: name, a: a.given, c: a.candidates.join(', ') }));
  return out;
}

/** Findings from `name`'s option table for `args` (none when it has no table). */
export function judgeOptions(name: string, args: readonly string[], ctx: JudgeCtx, readOnly: boolean): Finding[] {
  const r = resolveFor(name, args);
  return r ? optionFindings(name, r, ctx, readOnly) : [];
}

/** git's read sub-commands: the same check against the sub-command's table. */
export function judgeGitOptions(sub: string, rest: readonly string[], ctx: JudgeCtx | undefined, readOnly: boolean): Finding[] {
  const t = own(GIT_TABLES, sub);
  if (!t) return [];
  return optionFindings(`git ${sub}`, resolveOptions(rest, compiled(t)), ctx ?? { policy: {}, depth: 0 }, readOnly);
}
