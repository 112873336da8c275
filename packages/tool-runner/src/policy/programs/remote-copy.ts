/**
 * Programs that reach another host and copy files to or from it (ssh, scp, sftp, rsync, rclone):
 * their options as each reads them (ssh-options.ts), what they send (a local source copied to a
 * remote destination) and where they write, judged by the shared tables (effects.ts). socat and
 * nc are in socket-clients.ts.
 */
import { findLong, operands as plainOperands } from '../args';
import { deleteFindings, uploadFindings, writePathFindings } from '../effects';
import { finding, type Finding, type JudgeCtx } from '../finding';
import { execArg, network, readOnly } from './common';
import { copyFindings, isRemote, shortOptions, SSH_VALUED, sshOptionFindings } from './ssh-options';

export function judgeSsh(args: readonly string[], name: string, ctx: JudgeCtx): Finding[] {
  // ssh reads options before and right after the destination; what follows is the remote command.
  const first = shortOptions(args, SSH_VALUED.ssh);
  const [dest, ...after] = first.operands;
  const again = dest === undefined ? { opts: [], operands: [] } : shortOptions(after, SSH_VALUED.ssh);
  const opts = [...first.opts, ...again.opts];
  const out = sshOptionFindings('ssh', opts, ctx);
  const forwards = opts.find((o) => 'LRDWw'.includes(o.letter));
  if (forwards) out.push(execArg(name, forwards.given));
  if (again.operands.length) out.push(execArg(name, again.operands.join(' ')));
  return [...out, network(name)];
}

export function judgeScp(args: readonly string[], name: string, ctx: JudgeCtx): Finding[] {
  const { opts, operands } = shortOptions(args, SSH_VALUED.scp);
  return [...sshOptionFindings('scp', opts, ctx), ...copyFindings(name, operands, ctx, name), network(name, true)];
}

export function judgeSftp(args: readonly string[], name: string, ctx: JudgeCtx): Finding[] {
  const { opts, operands } = shortOptions(args, SSH_VALUED.sftp);
  // `sftp host:file [local]` fetches into the local folder (the step's, by default).
  const local = operands.length > 1 && !isRemote(operands[operands.length - 1]) ? operands[operands.length - 1] : undefined;
  const writes = local !== undefined ? writePathFindings(name, [{ path: local, via: name }], ctx) : [];
  return [...sshOptionFindings('sftp', opts, ctx), ...writes, network(name, true)];
}

/** rsync's options that take a value (popt reads long names exactly). */
const RSYNC_VALUED_LONG = [
  '--rsh',
  '--rsync-path',
  '--remote-option',
  '--out-format',
  '--log-file',
  '--log-file-format',
  '--password-file',
  '--early-input',
  '--bwlimit',
  '--stop-after',
  '--stop-at',
  '--write-batch',
  '--only-write-batch',
  '--read-batch',
  '--protocol',
  '--iconv',
  '--checksum-seed',
  '--info',
  '--debug',
  '--usermap',
  '--groupmap',
  '--chown',
  '--timeout',
  '--contimeout',
  '--port',
  '--sockopts',
  '--outbuf',
  '--max-delete',
  '--max-size',
  '--min-size',
  '--max-alloc',
  '--block-size',
  '--backup-dir',
  '--suffix',
  '--chmod',
  '--temp-dir',
  '--partial-dir',
  '--compare-dest',
  '--copy-dest',
  '--link-dest',
  '--compress-choice',
  '--zc',
  '--compress-level',
  '--zl',
  '--skip-compress',
  '--checksum-choice',
  '--cc',
  '--filter',
  '--exclude',
  '--exclude-from',
  '--include',
  '--include-from',
  '--files-from',
  '--address',
  '--modify-window',
  '--config',
  '--dparam',
  '--copy-as',
  '--new-compress-level',
];

/** rsync's operands: the words that are no option and no option's value. */
function rsyncOperands(args: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '--') return [...out, ...args.slice(i + 1)];
    if (a.startsWith('--')) {
      if (!a.includes('=') && RSYNC_VALUED_LONG.includes(a)) i++;
    } else if (a.length > 1 && a.startsWith('-')) {
      const k = [...a.slice(1)].findIndex((l) => 'eBTfM@'.includes(l));
      if (k >= 0 && k + 2 === a.length) i++;
    } else out.push(a);
  }
  return out;
}

/** The value of an rsync long option (`--x=v` or `--x v`). */
function rsyncValues(args: readonly string[], names: readonly string[]): Array<{ v: string; via: string }> {
  const out: Array<{ v: string; via: string }> = [];
  args.forEach((a, i) => {
    const n = names.find((x) => a === x || a.startsWith(`${x}=`));
    if (n) out.push({ v: a === n ? (args[i + 1] ?? '') : a.slice(n.length + 1), via: n });
  });
  return out;
}

export function judgeRsync(args: readonly string[], name: string, ctx: JudgeCtx): Finding[] {
  const bad = findLong(args, ['--rsh', '--rsync-path', '--info-script']) ?? args.find((a) => /^-[a-zA-Z]*e/.test(a) && !a.startsWith('--'));
  if (bad) return [execArg(name, bad)];
  const del = findLong(args, [
    '--delete',
    '--delete-before',
    '--delete-during',
    '--delete-after',
    '--delete-excluded',
    '--remove-source-files',
    '--del',
  ]);
  if (del) return [finding('delete.recursive', 'L2', { p: name, a: del })];
  const ops = rsyncOperands(args);
  const remoteDest = ops.length > 1 && isRemote(ops[ops.length - 1]);
  // Files it reads and sends: credentials for the daemon, its early input, and the list of files to send.
  const sent =
    remoteDest || ops.some(isRemote)
      ? rsyncValues(args, ['--password-file', '--early-input', '--files-from']).map(({ v, via }) => ({ file: v, via }))
      : [];
  const written = rsyncValues(args, ['--log-file', '--write-batch', '--only-write-batch', '--backup-dir', '--temp-dir', '--partial-dir'])
    .filter(({ via }) => !remoteDest || via !== '--backup-dir')
    .map(({ v, via }) => ({ path: v, via }));
  return [
    ...copyFindings(name, ops, ctx, name),
    ...uploadFindings(name, sent, ctx),
    ...writePathFindings(name, written, ctx),
    network(name, true),
  ];
}

/** rclone's sub-commands by what they do. */
const RCLONE = {
  read: new Set(['version', 'help', 'listremotes', 'config-file', 'config-paths', 'genautocomplete', 'completion', 'obscure-none']),
  list: new Set([
    'ls',
    'lsd',
    'lsl',
    'lsf',
    'lsjson',
    'tree',
    'size',
    'about',
    'cat',
    'check',
    'cryptcheck',
    'hashsum',
    'md5sum',
    'sha1sum',
    'checksum',
    'backend',
    'ncdu',
    'test',
  ]),
  copy: new Set(['copy', 'copyto', 'copyurl', 'rcat']),
  moveOrSync: new Set(['sync', 'move', 'moveto', 'bisync']),
  delete: new Set(['delete', 'purge', 'rmdirs', 'cleanup', 'dedupe']),
  deleteOne: new Set(['deletefile', 'rmdir']),
  serve: new Set(['serve', 'rcd', 'mount', 'nfsmount', 'cmount', 'link', 'selfupdate', 'authorize']),
};

/** rclone's options (pflag: long names exactly) that run a program, read another configuration or start a control server. */
const RCLONE_EXEC = ['--password-command', '--rc', '--rc-serve', '--metadata-mapper', '--config'];

export function judgeRclone(args: readonly string[], name: string, ctx: JudgeCtx): Finding[] {
  const bad = args.find((a) => RCLONE_EXEC.some((x) => a === x || a.startsWith(`${x}=`)));
  if (bad) return [bad.startsWith('--config') ? finding('upload.config', 'L2', { p: name, f: bad, o: '--config' }) : execArg(name, bad)];
  const ops = plainOperands(args);
  const [sub = '', ...rest] = ops;
  if (sub === '' || RCLONE.read.has(sub) || (sub === 'config' && ['file', 'paths'].includes(rest[0] ?? '')))
    return [readOnly(`${name} ${sub}`.trim())];
  if (sub === 'config') return [finding('secret.tool_config', 'L2', { p: `${name} config ${rest[0] ?? ''}`.trim() })];
  if (RCLONE.list.has(sub)) return [network(`${name} ${sub}`)];
  if (RCLONE.copy.has(sub)) return [...copyFindings(name, rest, ctx, `${name} ${sub}`), network(`${name} ${sub}`, true)];
  if (RCLONE.moveOrSync.has(sub))
    return [...copyFindings(name, rest, ctx, `${name} ${sub}`), finding('delete.recursive', 'L2', { p: name, a: sub })];
  if (RCLONE.delete.has(sub)) return [finding('delete.recursive', 'L2', { p: name, a: [sub, ...rest].join(' ') })];
  if (RCLONE.deleteOne.has(sub))
    return [
      ...deleteFindings(
        name,
        rest.filter((r) => !isRemote(r)),
        false,
        sub,
        ctx,
      ),
      network(`${name} ${sub}`, true),
    ];
  if (RCLONE.serve.has(sub)) return [execArg(name, sub)];
  return [finding('arg.unparsed', 'L2', { p: name, a: sub })];
}
