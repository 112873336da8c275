/**
 * docker / podman: a container that mounts the host's root, the home folder (or a folder above
 * it) or the container engine's socket, or that runs privileged or in the host's process,
 * network or user namespaces, is the host with extra steps: refused (L2), saying which.
 * Options are read the way docker's flag parser (pflag) reads them: `-v X`, `-vX`, `-v=X`,
 * `--volume X`, `--volume=X`, short clusters (`-itv/:/h`), `--mount type=bind,source=/,…`; a
 * service's `--mount-add` and `--network-add`; a local volume that binds a host folder
 * (`--mount …,volume-opt=device=/`, `volume create --opt device=/`).
 */
import path = require('path');
import { isInfoOnly, operands } from '../args';
import { finding, type Finding, type JudgeCtx } from '../finding';
import { holdsEngineSocket, isEngineSocket, localSocketFinding, mentionsEngineSocket } from '../engine-sockets';
import { isSystemPath, secretFindings } from '../paths';
import { readOnly } from './common';

/** Global options of docker/podman that take a value. */
const GLOBAL_VALUED = [
  '-H',
  '--host',
  '--context',
  '-c',
  '--config',
  '-l',
  '--log-level',
  '--tlscacert',
  '--tlscert',
  '--tlskey',
  '--url',
  '--connection',
  '--root',
  '--runroot',
  '--storage-driver',
];

/** Long options of `run`/`create`/`exec` that take no value (everything else long takes one). */
const BOOL_LONG = new Set([
  '--detach',
  '--interactive',
  '--tty',
  '--rm',
  '--privileged',
  '--init',
  '--read-only',
  '--publish-all',
  '--no-healthcheck',
  '--oom-kill-disable',
  '--sig-proxy',
  '--disable-content-trust',
  '--quiet',
  '--help',
  '--replace',
  '--systemd',
  '--tls-verify',
  '--http-proxy',
]);
/** Short options of `run`/`create`/`exec` that take no value. */
const BOOL_SHORT = new Set(['d', 'i', 't', 'P', 'q']);

/** Namespace options whose value `host` shares the host's. */
const HOST_NAMESPACES = new Set(['--pid', '--network', '--net', '--network-add', '--ipc', '--uts', '--userns', '--cgroupns']);

const READ_SUBS = new Set(['ps', 'images', 'version', 'info', 'inspect', 'logs', 'top', 'port', 'diff', 'history', 'search']);

/** One option of a run/create/exec command line: its name and value. */
interface Opt {
  name: string;
  value?: string;
  raw: string;
}

/** The options before the image (run/create) or container (exec): pflag's reading of them. */
function runOptions(args: readonly string[]): Opt[] {
  const out: Opt[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '--' || !a.startsWith('-') || a === '-') break;
    if (a.startsWith('--')) {
      const eq = a.indexOf('=');
      const name = eq >= 0 ? a.slice(0, eq) : a;
      if (eq >= 0) out.push({ name, value: a.slice(eq + 1), raw: a });
      else if (BOOL_LONG.has(name)) out.push({ name, raw: a });
      else out.push({ name, value: args[++i], raw: `${a} ${args[i] ?? ''}` });
      continue;
    }
    for (let k = 1; k < a.length; k++) {
      const letter = a[k];
      if (BOOL_SHORT.has(letter)) {
        out.push({ name: `-${letter}`, raw: a });
        continue;
      }
      let value = a.slice(k + 1);
      if (value.startsWith('=')) value = value.slice(1);
      else if (value === '') value = args[++i] ?? '';
      out.push({ name: `-${letter}`, value, raw: a });
      break;
    }
  }
  return out;
}

/** Options whose value is `--mount` syntax (`type=bind,source=/src,…`): run/create's, and a
 * service's (`service create --mount`, `service update --mount-add`). */
const MOUNT_SYNTAX = new Set(['--mount', '--mount-add']);

/** The fields of a `--mount` value (docker reads it as one CSV record, so a field may be quoted);
 * `volume-opt` may repeat. */
function mountFields(v: string): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (const m of v.matchAll(/(?:^|,)("(?:[^"]|"")*"|[^,]*)/g)) {
    const field = m[1].startsWith('"') ? m[1].slice(1, -1).replace(/""/g, '"') : m[1];
    const eq = field.indexOf('=');
    out.push([(eq < 0 ? field : field.slice(0, eq)).trim().toLowerCase(), eq < 0 ? '' : field.slice(eq + 1)]);
  }
  return out;
}

/** The host folder a local volume binds (`device=<dir>` with `o=bind`): `volume-opt=device=/` in a
 * `--mount`, `--opt device=/` of `volume create`. */
function boundDevice(opts: readonly string[]): string | undefined {
  const device = opts.map((o) => /^device=(.*)$/s.exec(o)?.[1]).find((d) => d !== undefined);
  return device !== undefined && /^[/~.$]/.test(device) ? device : undefined;
}

/** The host side of a `-v` value (`/src:/dst:ro`) or of a `--mount` value (`type=bind,source=/src,…`,
 * or a local volume that binds a host folder); undefined for a named volume. */
function mountSource(opt: Opt): string | undefined {
  const v = opt.value ?? '';
  if (MOUNT_SYNTAX.has(opt.name)) {
    const fields = mountFields(v);
    const get = (k: string) => fields.find(([name]) => name === k)?.[1];
    const src = get('source') ?? get('src');
    if (get('type') === 'bind' || (src !== undefined && /^[/~.$]/.test(src))) return src;
    return boundDevice(fields.filter(([name]) => name === 'volume-opt').map(([, value]) => value));
  }
  const src = v.split(':')[0];
  return /^[/~.$]/.test(src) ? src : undefined;
}

/** Why a host folder must not be mounted: the root, a system folder, the home or a folder holding it, the engine's socket, a secret store. */
function hostMountReason(src: string, ctx: JudgeCtx): string | undefined {
  let p = src.replace(/^(?:~|\$HOME|\$\{HOME\})(?=\/|$)/, ctx.home ?? '~');
  if (isEngineSocket(p, ctx.home) || mentionsEngineSocket(p)) return 'socket';
  if (p.startsWith('~')) return 'home';
  if (!p.startsWith('/')) p = path.posix.join(ctx.runCwd ?? ctx.cwd ?? '/', p);
  p = path.posix.normalize(p).replace(/(.)\/+$/, '$1');
  if (p === '/') return 'root';
  if (ctx.home) {
    const home = path.posix.normalize(ctx.home).replace(/(.)\/+$/, '$1');
    if (p === home || home.startsWith(p + '/')) return 'home';
  } else if (/^\/(home|Users|root)(\/[^/]+)?$/.test(p)) return 'home';
  // A folder holding the engine's socket hands it over too (`-v /run:/r`, `-v /var:/v`, `-v ~/.docker:/d`).
  if (holdsEngineSocket(p, ctx.home)) return 'socket';
  if (secretFindings([p]).some((f) => f.level === 'L2')) return 'secret';
  if (isSystemPath(p, { ...ctx, runCwd: undefined })) return 'system';
  return undefined;
}

/** What makes this run/create/exec the host: an L2 finding per cause. */
function hostAccess(name: string, opts: readonly Opt[], ctx: JudgeCtx): Finding[] {
  const out: Finding[] = [];
  for (const o of opts) {
    const said = `${name} ${o.raw}`.trim();
    if (o.name === '--privileged') out.push(finding('container.host', 'L2', { p: said }, { msg: 'container.privileged' }));
    else if (HOST_NAMESPACES.has(o.name) && o.value === 'host')
      out.push(finding('container.host', 'L2', { p: said }, { msg: 'container.namespace' }));
    else if (o.name === '--cap-add' || o.name === '--device' || o.name === '--device-cgroup-rule')
      out.push(finding('container.host', 'L2', { p: said }, { msg: 'container.device' }));
    else if (o.name === '--rootfs')
      out.push(
        finding('container.host_mount', 'L2', { p: said }, { msg: `container.mount_${hostMountReason(o.value ?? '', ctx) ?? 'system'}` }),
      );
    else if (o.name === '--security-opt' && /unconfined|disable|no-new-privileges[:=]false/.test(o.value ?? ''))
      out.push(finding('container.host', 'L2', { p: said }, { msg: 'container.unconfined' }));
    else if (o.name === '-v' || o.name === '--volume' || MOUNT_SYNTAX.has(o.name)) {
      const src = mountSource(o);
      const why = src === undefined ? undefined : hostMountReason(src, ctx);
      if (why) out.push(finding('container.host_mount', 'L2', { p: said }, { msg: `container.mount_${why}` }));
    }
  }
  return out;
}

/** The engine a docker/podman command line talks to: its global `-H`/`--host` (docker) and
 * `--url` (podman) values, as pflag reads them, before the subcommand. */
function engineHosts(args: readonly string[], sub: string): Array<{ value: string; at: number }> {
  const out: Array<{ value: string; at: number }> = [];
  const end = sub === '' ? args.length : args.indexOf(sub);
  for (let i = 0; i < end; i++) {
    const m = /^(?:-H|--host|--url)(?:=|(?<=^-H)(?=.))(.*)$/s.exec(args[i]);
    if (m) out.push({ value: m[1], at: i });
    else if (['-H', '--host', '--url'].includes(args[i])) out.push({ value: args[i + 1] ?? '', at: ++i });
  }
  return out;
}

/** What the chosen engine adds: another local socket is the service listening there (L1, named);
 * an engine over TCP or ssh is the network (which an L0 sandbox turns off). The engine's own socket adds nothing: every docker
 * command talks to it, and its subcommand says what it does there. */
function hostFindings(hosts: ReadonlyArray<{ value: string }>, name: string, ctx: JudgeCtx): Finding[] {
  const out: Finding[] = [];
  for (const { value } of hosts) {
    if (/^unix:|^[/~.$]/i.test(value)) {
      if (!isEngineSocket(value, ctx.home)) out.push(localSocketFinding(name, value.replace(/^unix:(?:\/\/)?/i, ''), ctx));
    } else if (value !== '' && !/^(?:fd|npipe):/i.test(value))
      // docker reads `host:port` without a scheme as tcp://.
      out.push(finding('network', 'L1', { p: `${name} -H ${value}` }, { cat: ['network'] }));
  }
  return out;
}

export function judgeDocker(args: readonly string[], name: string, ctx: JudgeCtx): Finding[] {
  const ops = operands(args, GLOBAL_VALUED);
  const hosts = engineHosts(args, ops[0] ?? '');
  const skip = new Set(hosts.map((h) => h.at));
  return [...hostFindings(hosts, name, ctx), ...judgeDockerSub(args, ops[0] ?? '', skip, name, ctx)];
}

function judgeDockerSub(args: readonly string[], first: string, hostArgs: ReadonlySet<number>, name: string, ctx: JudgeCtx): Finding[] {
  let sub = first;
  if (isInfoOnly(args) || READ_SUBS.has(sub)) return [readOnly(`${name} ${sub}`.trim())];
  let at = args.indexOf(sub) + 1;
  if ((sub === 'container' || sub === 'compose' || sub === 'service') && ['run', 'create', 'exec', 'update'].includes(args[at] ?? '')) {
    sub = `${sub} ${args[at]}`;
    at++;
  }
  const verb = sub.split(' ').pop() ?? '';
  if (['run', 'create', 'exec'].includes(verb) || sub === 'service update') {
    const host = hostAccess(`${name} ${sub}`, runOptions(args.slice(at)), ctx);
    if (host.length) return host;
  }
  // A local volume that binds a host folder (`volume create --opt type=none --opt o=bind --opt device=/`):
  // mounting it later by name is mounting that folder.
  if (sub === 'volume' && args[at] === 'create') {
    const said = `${name} volume create`;
    const opts = runOptions(args.slice(at + 1))
      .filter((o) => o.name === '--opt' || o.name === '-o')
      .map((o) => o.value ?? '');
    const device = boundDevice(opts);
    const why = device === undefined ? undefined : hostMountReason(device, ctx);
    if (why) return [finding('container.host_mount', 'L2', { p: `${said} device=${device}` }, { msg: `container.mount_${why}` })];
  }
  // The engine's socket named anywhere else (`docker cp`, a build's `--ssh`); the engine chosen
  // with `-H unix:///var/run/docker.sock` is the one every docker command talks to.
  const sock = args.find((a, i) => !hostArgs.has(i) && mentionsEngineSocket(a));
  if (sock) return [finding('container.host_mount', 'L2', { p: `${name} ${sock}` }, { msg: 'container.mount_socket' })];
  return [finding('project.script', 'L1', { p: name, s: sub })];
}
