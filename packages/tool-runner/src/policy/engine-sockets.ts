/**
 * Where container engines listen, and what a client that connects to a local socket is judged.
 * A connection to an engine (its Unix socket, or its API on this machine's loopback at the
 * Docker API's registered ports 2375/2376) can start a container that mounts `/`: it is the
 * host (L2 `container.host_mount`). Any other local socket reaches the service listening on it,
 * which the sandbox does not stop (a pathname socket stays reachable with the network off):
 * asked about naming that socket (L1 `socket.local`), never merely "uses the network".
 */
import path = require('path');
import * as ipaddr from 'ipaddr.js';
import { finding, type Finding, type JudgeCtx } from './finding';

/** The names engines give their sockets: docker (and Docker Desktop's raw one), podman,
 * containerd (and its shims'), CRI-O, cri-dockerd, buildkitd. */
const ENGINE_SOCKET_NAME = /^(?:docker(?:\.raw)?|podman|containerd|crio|cri-dockerd|dockershim|buildkitd)\.sock$/;

/** The same names anywhere in an argument (`-v/var/run/docker.sock:/s`, `src=…/podman.sock,…`). */
const ENGINE_SOCKET_MENTION =
  /(?:^|[/=:,@])(?:docker(?:\.raw)?|podman|containerd|crio|cri-dockerd|dockershim|buildkitd)\.sock(?:$|[:,])|(?:lxd|incus)\/unix\.socket(?:$|[:,])|containerd-shim/;

/** Engines whose socket has a generic name: LXD (deb and snap) and Incus. */
const ENGINE_SOCKET_TAIL = /(?:^|\/)(?:lxd|incus)\/unix\.socket$/;

/** Where engines put their sockets: a folder holding one of these hands the socket over with it
 * (`-v /run:/r`). `~` is the user's home; rootless engines listen below /run/user/<uid>. */
const ENGINE_SOCKET_PLACES = [
  '/var/run/docker.sock',
  '/run/docker.sock',
  '/run/podman/podman.sock',
  '/var/run/podman/podman.sock',
  '/run/containerd/containerd.sock',
  '/var/run/containerd/containerd.sock',
  '/run/k3s/containerd/containerd.sock',
  '/var/run/crio/crio.sock',
  '/run/buildkit/buildkitd.sock',
  '/var/lib/lxd/unix.socket',
  '/var/snap/lxd/common/lxd/unix.socket',
  '/var/lib/incus/unix.socket',
  '/run/user/',
  '~/.docker/run/docker.sock',
  '~/.colima/default/docker.sock',
  '~/.rd/docker.sock',
  '~/.orbstack/run/docker.sock',
  '~/.lima/docker/sock/docker.sock',
  '~/.local/share/containers/podman/machine/podman.sock',
];

/**
 * The sockets engines listen on as files to look at (`~` put in; a rootless engine's below
 * `/run/user/<uid>`): the runner compares a socket a step names with these by device and inode,
 * so a hard link or bind mount of one under another name is known as the engine's.
 */
export function engineSocketFiles(home?: string, uid?: number): string[] {
  const out: string[] = [];
  for (const place of ENGINE_SOCKET_PLACES) {
    if (place.endsWith('/')) continue;
    if (place.startsWith('~/')) {
      if (home) out.push(path.posix.join(home, place.slice(2)));
    } else out.push(place);
  }
  if (uid !== undefined) out.push(`/run/user/${uid}/docker.sock`, `/run/user/${uid}/podman/podman.sock`);
  return out;
}

/** The Docker API's registered TCP ports (plain and TLS). */
const ENGINE_PORTS = new Set(['2375', '2376']);

/** A socket path as written (`unix:///x`, `unix:/x`, `~/x`, `$HOME/x`), as a path with `~` for the home. */
function socketPath(raw: string, home?: string): string {
  let p = raw.replace(/^unix:(?:\/\/)?/i, '').replace(/^(?:\$HOME|\$\{HOME\})(?=\/|$)/, '~');
  if (home) {
    const h = path.posix.normalize(home).replace(/(.)\/+$/, '$1');
    if (p === h || p.startsWith(h + '/')) p = '~' + p.slice(h.length);
  }
  return p.startsWith('~') || p.startsWith('/') ? path.posix.normalize(p) : p;
}

/** Whether a socket (a path, a `unix://` URL, or an abstract name) is a container engine's. */
export function isEngineSocket(raw: string, home?: string): boolean {
  const p = socketPath(raw, home);
  return ENGINE_SOCKET_NAME.test(path.posix.basename(p)) || ENGINE_SOCKET_TAIL.test(p) || /containerd-shim/.test(p);
}

/** Whether an argument names an engine socket anywhere in it (a mount value, a copy source). */
export function mentionsEngineSocket(arg: string): boolean {
  return ENGINE_SOCKET_MENTION.test(arg);
}

/** Whether a folder (absolute, normalised; `~` for the home) holds a place an engine listens. */
export function holdsEngineSocket(dir: string, home?: string): boolean {
  const d = socketPath(dir, home);
  return ENGINE_SOCKET_PLACES.some((place) => place.startsWith(d === '/' ? '/' : d + '/'));
}

/** Whether a host (a URL's hostname) is this machine: loopback, unspecified (`0.0.0.0` connects
 * here), `localhost` and `*.localhost` (curl and browsers resolve them to loopback themselves). */
export function isThisMachine(host: string): boolean {
  const h = host
    .toLowerCase()
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '');
  if (h === 'localhost' || h.endsWith('.localhost')) return true;
  if (!ipaddr.isValid(h)) return false;
  const range = ipaddr.process(h).range();
  return range === 'loopback' || range === 'unspecified';
}

/** A URL as the HTTP clients read one (no scheme: http), or undefined. */
export function parseUrl(raw: string): URL | undefined {
  try {
    return new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(raw) ? raw : `http://${raw}`);
  } catch {
    return undefined;
  }
}

/** Whether a URL (scheme optional, as curl reads one) reaches the engine's API on this machine. */
export function isEngineUrl(raw: string): boolean {
  const u = parseUrl(raw);
  return u !== undefined && ['http:', 'https:', 'tcp:'].includes(u.protocol) && ENGINE_PORTS.has(u.port) && isThisMachine(u.hostname);
}

/** The finding of `program` connecting to a local socket: the engine's is the host (L2), any
 * other is the service listening there (L1, naming it). `abstract`: a Linux abstract name. */
export function localSocketFinding(program: string, socket: string, ctx: Pick<JudgeCtx, 'home'>, abstract = false): Finding {
  if (isEngineSocket(socket, ctx.home))
    return finding('container.host_mount', 'L2', { p: `${program} ${socket}` }, { msg: 'container.engine_api' });
  return finding('socket.local', 'L1', { p: program, s: abstract ? `@${socket}` : socket });
}

/** The finding of `program` sending requests to the engine's API over TCP on this machine. */
export function engineUrlFinding(program: string, url: string): Finding {
  return finding('container.host_mount', 'L2', { p: `${program} ${url}` }, { msg: 'container.engine_api' });
}

/** A percent-encoded URL part, decoded (as written when it does not decode). */
export function safeDecode(v: string): string {
  try {
    return decodeURIComponent(v);
  } catch {
    return v;
  }
}

/**
 * Where a proxy setting leads (`[scheme://][user@]host[:port]`, as curl, wget, HTTPie, xh, aria2c,
 * nc and the `*_proxy` variables take one): a Unix socket, or a host and port as a URL. curl
 * reads `socks5h://localhost/path/to.sock` (host `localhost` and a path) as a SOCKS proxy on that
 * Unix socket; it is read so whatever the scheme, and `unix:/path` too, so no spelling of a
 * socket passes for a host. Undefined for an empty value (no proxy).
 */
export function proxyTarget(raw: string): { socket: string } | { url: string } | undefined {
  const v = raw.trim();
  if (v === '') return undefined;
  const unix = /^unix:(?:\/\/)?(.+)$/i.exec(v);
  if (unix) return { socket: unix[1] };
  const u = parseUrl(`http://${v.replace(/^[a-z][a-z0-9+.-]*:\/\//i, '')}`);
  if (!u) return undefined;
  if (u.hostname === 'localhost' && u.pathname !== '/' && u.pathname !== '') return { socket: safeDecode(u.pathname) };
  return { url: `http://${u.host}` };
}

/**
 * The finding of `program` sending its requests through the proxy `value` (`said`: the option
 * and value as written): one on the engine's socket or at its API on this machine is the host
 * (L2), one on another Unix socket is that socket (L1, naming it); none for a proxy elsewhere
 * (the network, judged as such).
 */
export function proxyFindings(program: string, value: string, said: string, ctx: Pick<JudgeCtx, 'home'>): Finding[] {
  const t = proxyTarget(value);
  if (!t) return [];
  const p = `${program} ${said}`.trim();
  if ('socket' in t) return [isEngineSocket(t.socket, ctx.home) ? engineUrlFinding(program, said) : localSocketFinding(p, t.socket, ctx)];
  return isEngineUrl(t.url) ? [engineUrlFinding(program, said)] : [];
}
