/**
 * A socket judged by what it is, not by its name: a Unix socket a step names may be a symbolic
 * link to a container engine's socket (dangling here: the machine has no engine, the kernel would
 * still follow it), or the engine's socket itself under another name (a hard link of a listening
 * socket, compared by device and inode with the engine table the test gives). Real links in a temp
 * workspace and home; the lines are judged, never run.
 */
import * as fs from 'fs';
import * as net from 'net';
import * as path from 'path';
import { classify, type Step } from '../src';
import { gatherLinks } from '../src/registry/path-links';
import { gatherSocketLinks } from '../src/registry/socket-links';
import { socketParts } from '../src/policy/links';
import { judgementPathFs, resolvePath } from '../src/workspace';
import { judgingRunner, tempWorld } from './tools-session';
import { eachVerdict, execStep, type Line, reasonOf, ungrouped, type VerdictGroup } from './verdict-table';

let world: Awaited<ReturnType<typeof tempWorld>>;
let runner: ReturnType<typeof judgingRunner>;
/** A listening socket standing in for an engine's, named as docker names its own. */
let engine: net.Server;
let enginePath: string;

const listen = (server: net.Server, at: string) =>
  new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(at, () => resolve());
  });

beforeAll(async () => {
  world = await tempWorld();
  const { ws, home, outside } = world;
  // Links to engines' places under other names: absolute, relative, through a folder, from the home.
  fs.symlinkSync('/var/run/docker.sock', path.join(outside, 'app.sock'));
  fs.symlinkSync('/run/podman/podman.sock', path.join(ws, 'api.sock'));
  fs.mkdirSync(path.join(ws, 'sub'));
  fs.symlinkSync('../api.sock', path.join(ws, 'sub', 'rel.sock'));
  fs.symlinkSync('/var/run', path.join(outside, 'vr'));
  fs.symlinkSync('/run/containerd/containerd.sock', path.join(home, 'ctr.sock'));
  // A link to the root and one to /run: a bind mount's source that hands the host over.
  fs.symlinkSync('/', path.join(outside, 'root'));
  fs.symlinkSync('/run', path.join(ws, 'r'));
  // Links to a socket that is no engine's, and to a plain file.
  fs.symlinkSync('/run/dbus/system_bus_socket', path.join(outside, 'bus.sock'));
  fs.writeFileSync(path.join(outside, 'plain.txt'), 'x');
  fs.symlinkSync(path.join(outside, 'plain.txt'), path.join(outside, 'plain.sock'));
  // The "engine": a real listening socket, and a hard link to it under another name.
  fs.mkdirSync(path.join(outside, 'engine'));
  enginePath = path.join(outside, 'engine', 'docker.sock');
  engine = net.createServer((c) => c.end());
  await listen(engine, enginePath);
  fs.linkSync(enginePath, path.join(outside, 'hard.sock'));
  const other = path.join(outside, 'other.sock');
  await new Promise<void>((resolve) => {
    const s = net.createServer();
    s.listen(other, () => s.close(() => resolve()));
  });
  runner = judgingRunner(world);
});
afterAll(async () => {
  await new Promise<void>((resolve) => engine.close(() => resolve()));
  await world.cleanup();
});

/** Lines with `@O` for the folder outside the workspace, `@E` for its app.sock encoded as a URL's host. */
const fill = (line: Line): Line => {
  const put = (w: string) => w.replace(/@E/g, encodeURIComponent(`${world.outside}/app.sock`)).replace(/@O/g, world.outside);
  return Array.isArray(line) ? line.map(put) : put(line);
};
const judged = (line: Line) => runner.judge(execStep(fill(line)));

/** Sockets named through links: the engine's under other names (L2), and anything else (named, asked: L1). */
const groups: VerdictGroup[] = [
  [
    'L2',
    'container.host_mount',
    [
      'curl --unix-socket @O/app.sock http://localhost/containers/json',
      'curl --unix-socket=@O/app.sock http://localhost/containers/json',
      'curl --unix-sock @O/vr/docker.sock http://localhost/info',
      'curl --unix-socket api.sock http://d/v4.0.0/libpod/info',
      'curl --unix-socket sub/rel.sock http://d/info',
      'curl --unix-socket ~/ctr.sock http://localhost/',
      'curl --unix-socket=$HOME/ctr.sock http://localhost/',
      'xh --unix-socket @O/app.sock http://localhost/containers/json',
      'http http+unix://@E/containers/json',
      'socat - UNIX-CONNECT:@O/app.sock',
      'socat - UNIX:api.sock',
      'socat - unix-client:sub/rel.sock,retry=3',
      'socat TCP-LISTEN:8080,fork UNIX-CONNECT:@O/vr/docker.sock',
      'nc -U @O/app.sock',
      'ncat --unixsock api.sock',
      'curl -x socks5h://localhost@O/app.sock http://x/',
      'curl --proxy=socks5h://localhost@O/app.sock http://x/',
      'curl --socks5-hostname localhost@O/app.sock http://x/',
      'docker run -v @O/app.sock:/s alpine',
      'docker run --mount type=bind,src=@O/app.sock,dst=/s alpine',
      'docker run -v @O/root:/host alpine',
      'docker run -v ./r:/r alpine',
    ],
  ],
  [
    'L1',
    'socket.local',
    [
      'curl --unix-socket @O/bus.sock http://localhost/',
      'curl --unix-socket @O/plain.sock http://localhost/',
      'socat - UNIX-CONNECT:@O/bus.sock',
      'curl --unix-socket @O/other.sock http://localhost/',
    ],
  ],
  ['L1', 'network', ['curl https://example.com']],
];

describe('a socket reached through a link is judged by where it leads', () => {
  eachVerdict(ungrouped(groups), judged);

  test('the reason names the engine, not only the link', () => {
    const d = judged('curl --unix-socket @O/app.sock http://localhost/containers/json');
    expect(reasonOf(d, 'container.host_mount')).toMatch(/docker\.sock/);
  });

  test('links to anything else are not taken for an engine', () => {
    const others = ungrouped(groups).filter(([, level]) => level === 'L1');
    expect(others.filter(([line]) => judged(line).rules.some((r) => r.id === 'container.host_mount'))).toEqual([]);
  });
});

describe('the engine socket itself under another name (same device and inode)', () => {
  /** The runner's facts, with the engine table pointed at the test's socket. */
  const judgeWithTable = (line: string, engines: string[]) => {
    const step = execStep(fill(line)) as Step & { program: string; args: string[] };
    const pfs = judgementPathFs();
    const cwd = resolvePath('.', world.ws);
    const links = gatherLinks(step.args, cwd, world.ws, pfs);
    gatherSocketLinks(step.args, cwd, links, { home: world.home, engines, pfs });
    return classify(step, {}, { cwd: world.ws, workspace: world.ws, home: world.home, lang: 'en', links } as never);
  };

  test.each([
    'curl --unix-socket @O/hard.sock http://localhost/containers/json',
    'socat - UNIX-CONNECT:@O/hard.sock',
    'nc -U @O/hard.sock',
    'curl -x socks5h://localhost@O/hard.sock http://x/',
    'docker run -v @O/hard.sock:/s alpine',
  ])('%s is the engine', (line) => {
    expect(judgeWithTable(line, [enginePath]).level).toBe('L2');
  });

  test('another socket, or the same one with an engine table that does not list it, is only named', () => {
    const d = judgeWithTable('curl --unix-socket @O/hard.sock http://localhost/', []);
    expect(d.level).toBe('L1');
    expect(d.rules.map((r) => r.id)).toContain('socket.local');
    expect(judgeWithTable('curl --unix-socket @O/other.sock http://localhost/', [enginePath]).level).toBe('L1');
  });
});

describe('socketParts reads the spellings the rules read', () => {
  /** A word, and the socket paths read from it (none: the word names no socket). */
  const spellings: Record<string, string[]> = {
    'UNIX-CONNECT:/tmp/a.sock,retry=2': ['/tmp/a.sock'],
    'UNIX:app.sock': ['app.sock'],
    'unix:///tmp/a.sock': ['///tmp/a.sock'],
    '/tmp/a.sock:/var/run/docker.sock:ro': ['/tmp/a.sock', '/var/run/docker.sock'],
    'type=bind,src=./a.sock,dst=/s': ['./a.sock', '/s'],
    'http+unix://%2Ftmp%2Fa.sock/info': ['/tmp/a.sock'],
    'socks5h://localhost/tmp/a%2Esock': ['/tmp/a.sock'],
    '--unix-socket=~/a.sock': ['~/a.sock'],
    plain: [],
  };
  test.each(Object.entries(spellings))('%s → %j', (word, parts) => {
    expect(socketParts(word).map((p) => p.part)).toEqual(expect.arrayContaining(parts));
    if (parts.length === 0) expect(socketParts(word)).toEqual([]);
  });
});
