/**
 * Programs that pipe a file or a socket to the network or to another socket (socat, nc / ncat /
 * netcat): what they run, the files a socat address opens (read and sent, or written), the Unix
 * socket they connect to and the host they reach, directly or through a proxy (engine-sockets.ts:
 * the engine's socket or API is the host, another socket is named).
 */
import { uploadFindings, writePathFindings } from '../effects';
import { engineUrlFinding, isEngineSocket, isEngineUrl, localSocketFinding, proxyFindings } from '../engine-sockets';
import { type Finding, type JudgeCtx } from '../finding';
import { execArg, network } from './common';

/** socat's address types that name a local file, and those that only write it. */
const SOCAT_FILE =
  /^(open|file|gopen|create|creat|pipe|unix|unix-connect|unix-client|unix-sendto|unix-recv|unix-recvfrom|unix-listen|abstract|abstract-[a-z-]+)$/i;
/** socat's address types that connect to a Unix socket (`UNIX:` is `UNIX-CLIENT:`, `ABSTRACT:` is `ABSTRACT-CLIENT:`). */
const SOCAT_UNIX_CLIENT = /^(unix|unix-connect|unix-client|unix-sendto|abstract|abstract-connect|abstract-client|abstract-sendto)$/;
const SOCAT_NET =
  /^(tcp|tcp4|tcp6|tcp-connect|tcp-listen|tcp4-listen|tcp6-listen|udp|udp4|udp6|udp-connect|udp-listen|udp-sendto|udp-datagram|openssl|openssl-connect|openssl-listen|ssl|sctp[a-z0-9-]*|socks[a-z0-9-]*|proxy[a-z-]*|vsock[a-z-]*|dccp[a-z0-9-]*|ip[a-z0-9-]*|interface)$/i;

/**
 * The host and port a socat address connects to over TCP, as a URL: the first field is the host;
 * the port is the next field (TCP, OPENSSL, SOCKS5-CONNECT `<server>:<port>:<target>:<port>`) or
 * an option (PROXY's `proxyport=`, default 8080; SOCKS4's `socksport=`, default 1080).
 */
function socatTcpPeer(addr: string): string | undefined {
  const m = /^(tcp[46]?(?:-connect)?|openssl(?:-connect)?|ssl|socks4a?|socks|socks5(?:-connect)?|proxy(?:-connect)?):(.*)$/i.exec(addr);
  if (!m) return undefined;
  const type = m[1].toLowerCase();
  const [main, ...options] = m[2].split(',');
  const fields = main.match(/\[[^\]]*\]|[^:]+/g) ?? [];
  const opt = (k: string) => options.find((o) => o.toLowerCase().startsWith(`${k}=`))?.slice(k.length + 1);
  const port = type.startsWith('proxy')
    ? (opt('proxyport') ?? '8080')
    : /^socks(4a?)?$/.test(type)
      ? (opt('socksport') ?? '1080')
      : fields[1];
  return fields[0] && port ? `tcp://${fields[0]}:${port}` : undefined;
}

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
  const raw = args.filter((a) => !/^-[a-zA-Z]/.test(a) || a === '-').slice(-2);
  const addrs = raw.map(socatAddress);
  const logs = args.flatMap((a, i) => (a === '-lf' ? [{ path: args[i + 1] ?? '', via: '-lf' }] : []));
  const out: Finding[] = [];
  const networked = addrs.some((a) => SOCAT_NET.test(a.type));
  const uni = args.includes('-u') ? 0 : args.includes('-U') ? 1 : -1;
  let local = false;
  // TCP to the engine's API on this machine, directly or through a proxy there.
  for (const r of raw) if (isEngineUrl(socatTcpPeer(r) ?? '')) out.push(engineUrlFinding(name, r));
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

/** How nc reads its words: its short flags, whether `-U`/`--unixsock` is on, the proxies it goes through (`-x` of OpenBSD nc, ncat's `--proxy`) and its operands. */
function netcatWords(args: readonly string[]): {
  flags: string;
  unix: boolean;
  listen: boolean;
  operands: string[];
  proxies: Array<{ value: string; said: string }>;
} {
  let flags = '';
  const operands: string[] = [];
  const proxies: Array<{ value: string; said: string }> = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '--') {
      operands.push(...args.slice(i + 1));
      break;
    }
    if (a.startsWith('--')) {
      if (a === '--unixsock') flags += 'U';
      if (a === '--listen') flags += 'l';
      if (a === '--proxy') proxies.push({ value: args[i + 1] ?? '', said: `${a} ${args[i + 1] ?? ''}` });
      if (a.startsWith('--proxy=')) proxies.push({ value: a.slice(8), said: a });
      if (NC_VALUED_LONG.test(a)) i++;
    } else if (a.length > 1 && a.startsWith('-')) {
      const k = [...a.slice(1)].findIndex((l) => NC_VALUED_SHORT.includes(l));
      flags += k < 0 ? a.slice(1) : a.slice(1, k + 2);
      const value = k < 0 ? undefined : k + 2 === a.length ? (args[i + 1] ?? '') : a.slice(k + 2);
      // OpenBSD nc's `-x proxy[:port]` (ncat's `-x` is a hex dump file: read as a proxy too, which only asks more).
      if (k >= 0 && a[k + 1] === 'x') proxies.push({ value: value ?? '', said: k + 2 === a.length ? `${a} ${value}` : a });
      if (k >= 0 && k + 2 === a.length) i++;
    } else operands.push(a);
  }
  return { flags, unix: flags.includes('U'), listen: flags.includes('l'), operands, proxies };
}

/** nc / ncat / netcat: programs they run (-e, -c, --exec, --sh-exec, --lua-exec), the local socket `-U`
 * connects to and the proxy `-x` / `--proxy` goes through (an engine's is the host), files ncat writes. */
export function judgeNetcat(args: readonly string[], name: string, ctx: JudgeCtx): Finding[] {
  const bad = args.find(
    (a) => ['-e', '-c', '--exec', '--sh-exec', '--lua-exec'].some((f) => a === f || a.startsWith(f + '=')) || /^-[a-zA-Z]*e/.test(a),
  );
  if (bad) return [execArg(name, bad)];
  const words = netcatWords(args);
  const sock = args.find((a) => isEngineSocket(a, ctx.home));
  if (sock) return [localSocketFinding(name, sock, ctx)];
  const proxied = words.proxies.flatMap((p) => proxyFindings(name, p.value, p.said, ctx));
  if (proxied.length) return proxied;
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
