/**
 * Programs that reach another host and copy files to or from it (ssh, scp, sftp, rsync, rclone)
 * or pipe a file or socket to the network (socat, nc / ncat): their options as each reads them
 * (ssh-options.ts), what they send (a local source copied to a remote destination, a file a socat
 * address opens) and where they write, judged by the shared tables (effects.ts).
 */
import { findLong, operands as plainOperands } from '../args';
import { deleteFindings, uploadFindings, writePathFindings } from '../effects';
import { engineUrlFinding, isEngineSocket, isEngineUrl, localSocketFinding } from '../engine-sockets';
import { finding, type Finding, type JudgeCtx } from '../finding';
import { execArg, readOnly } from './common';
import { copyFindings, isRemote, shortOptions, SSH_VALUED, sshOptionFindings } from './ssh-options';

const network = (name: string, write = false): Finding =>
  finding('network', 'L1', { p: name }, { cat: write ? ['network', 'write'] : ['network'] });

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

/** socat's address types that name a local file, and those that only write it. */
const SOCAT_FILE =
  /^(open|file|gopen|create|creat|pipe|unix|unix-connect|unix-client|unix-sendto|unix-recv|unix-recvfrom|unix-listen|abstract|abstract-[a-z-]+)$/i;
/** socat's address types that connect to a Unix socket (`UNIX:` is `UNIX-CLIENT:`, `ABSTRACT:` is `ABSTRACT-CLIENT:`). */
const SOCAT_UNIX_CLIENT = /^(unix|unix-connect|unix-client|unix-sendto|abstract|abstract-connect|abstract-client|abstract-sendto)$/;
const SOCAT_NET =
  /^(tcp|tcp4|tcp6|tcp-connect|tcp-listen|tcp4-listen|tcp6-listen|udp|udp4|udp6|udp-connect|udp-listen|udp-sendto|udp-datagram|openssl|openssl-connect|openssl-listen|ssl|sctp[a-z0-9-]*|socks[a-z0-9-]*|proxy[a-z-]*|vsock[a-z-]*|dccp[a-z0-9-]*|ip[a-z0-9-]*|interface)$/i;

/** The type and the file of a socat address (`OPEN:/x,creat`, a bare `/x` is GOPEN, `-` is stdio). */
function socatAddress(addr: string): { type: string; file?: string } {
  if (addr === '-' || /^stdio$/i.test(addr)) return { type: 'stdio' };
  const colon = addr.indexOf(':');
  const type = colon < 0 ? addr.split(',')[0] : addr.slice(0, colon);
  if (colon < 0 && type.includes('/')) return { type: 'gopen', file: type };
  return SOCAT_FILE.test(type) ? { type: type.toLowerCase(), file: addr.slice(colon + 1).split(',')[0] } : { type: type.toLowerCase() };
}

export function judgeSocat(args: readonly string[], name: string, ctx: JudgeCtx): Finding[] {
  const bad = args.find((a) => /(^|[!,])\s*(EXEC|SYSTEM|SHELL)[:,]/i.test(a));
  if (bad) return [execArg(name, bad)];
  const addrs = args
    .filter((a) => !/^-[a-zA-Z]/.test(a) || a === '-')
    .slice(-2)
    .map(socatAddress);
  const logs = args.flatMap((a, i) => (a === '-lf' ? [{ path: args[i + 1] ?? '', via: '-lf' }] : []));
  const out: Finding[] = [];
  const networked = addrs.some((a) => SOCAT_NET.test(a.type));
  const uni = args.includes('-u') ? 0 : args.includes('-U') ? 1 : -1;
  let local = false;
  addrs.forEach((a, i) => {
    if (a.file === undefined) return;
    if (SOCAT_UNIX_CLIENT.test(a.type)) {
      out.push(localSocketFinding(name, a.file, ctx, a.type.startsWith('abstract')));
      local = true;
      return;
    }
    // A bare path to the engine's socket (GOPEN connects to a socket) or a listener in its place.
    if (isEngineSocket(a.file, ctx.home)) out.push(localSocketFinding(name, a.file, ctx));
    if (a.type.startsWith('unix') || a.type.startsWith('abstract')) return;
    // Read unless only written (`-u`: left to right; `-U`: right to left); written unless only read.
    if (networked && uni !== 1 - i && a.type !== 'create' && a.type !== 'creat')
      out.push(...uploadFindings(name, [{ file: a.file, via: a.type }], ctx));
    if (uni !== i) out.push(...writePathFindings(name, [{ path: a.file, via: a.type }], ctx));
  });
  // Between a local socket and stdio or a file, socat does not use the network.
  return [...out, ...writePathFindings(name, logs, ctx), ...(local && !networked ? [] : [network(name, true)])];
}

/** Short options of nc (OpenBSD, traditional) and ncat that take a value. */
const NC_VALUED_SHORT = 'IiMmOPpsTVwXxgGodq';
/** ncat's long options that take a value (`--x v` as well as `--x=v`). */
const NC_VALUED_LONG =
  /^--(proxy|proxy-type|proxy-auth|proxy-dns|source|source-port|wait|idle-timeout|max-conns|output|hex-dump|allow|allowfile|deny|denyfile|ssl-cert|ssl-key|ssl-trustfile|ssl-ciphers|ssl-servername|ssl-alpn|delay|sctp-port|local)$/;

/** How nc reads its words: its short flags, whether `-U`/`--unixsock` is on, and its operands. */
function netcatWords(args: readonly string[]): { flags: string; unix: boolean; listen: boolean; operands: string[] } {
  let flags = '';
  const operands: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '--') {
      operands.push(...args.slice(i + 1));
      break;
    }
    if (a.startsWith('--')) {
      if (a === '--unixsock') flags += 'U';
      if (a === '--listen') flags += 'l';
      if (NC_VALUED_LONG.test(a)) i++;
    } else if (a.length > 1 && a.startsWith('-')) {
      const k = [...a.slice(1)].findIndex((l) => NC_VALUED_SHORT.includes(l));
      flags += k < 0 ? a.slice(1) : a.slice(1, k + 2);
      if (k >= 0 && k + 2 === a.length) i++;
    } else operands.push(a);
  }
  return { flags, unix: flags.includes('U'), listen: flags.includes('l'), operands };
}

/** nc / ncat / netcat: programs they run (-e, -c, --exec, --sh-exec, --lua-exec), the local socket `-U`
 * connects to (an engine's is the host), files ncat writes. */
export function judgeNetcat(args: readonly string[], name: string, ctx: JudgeCtx): Finding[] {
  const bad = args.find(
    (a) => ['-e', '-c', '--exec', '--sh-exec', '--lua-exec'].some((f) => a === f || a.startsWith(f + '=')) || /^-[a-zA-Z]*e/.test(a),
  );
  if (bad) return [execArg(name, bad)];
  const words = netcatWords(args);
  const sock = args.find((a) => isEngineSocket(a, ctx.home));
  if (sock) return [localSocketFinding(name, sock, ctx)];
  // `nc HOST PORT` where HOST is this machine and PORT the engine's API.
  if (!words.unix && !words.listen && words.operands.length >= 2 && engineTarget(words.operands))
    return [engineUrlFinding(name, words.operands.join(' '))];
  const written =
    name === 'ncat'
      ? args.flatMap((a, i) =>
          ['-o', '--output', '-x', '--hex-dump', '--append-output'].includes(a) && a !== '--append-output'
            ? [{ path: args[i + 1] ?? '', via: a }]
            : /^--(output|hex-dump)=/.test(a)
              ? [{ path: a.slice(a.indexOf('=') + 1), via: a.split('=')[0] }]
              : [],
        )
      : [];
  // `-U PATH` connects to a Unix socket (`@name`: an abstract one, on Linux) instead of the network.
  if (words.unix && !words.listen && words.operands[0] !== undefined) {
    const path = words.operands[0];
    const abstract = path.startsWith('@');
    return [...writePathFindings(name, written, ctx), localSocketFinding(name, abstract ? path.slice(1) : path, ctx, abstract)];
  }
  return [...writePathFindings(name, written, ctx), network(name)];
}

/** Whether `nc HOST PORT…` aims at the engine's API on this machine (ports as `2375`, a range or a list). */
function engineTarget(ops: readonly string[]): boolean {
  const [host, ...ports] = ops;
  return ports.some((p) =>
    p.split(',').some((one) => isEngineUrl(`tcp://${host.includes(':') ? `[${host}]` : host}:${one.split('-')[0]}`)),
  );
}
