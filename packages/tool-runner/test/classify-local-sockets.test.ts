/**
 * Clients aimed at a local socket (engine-sockets.ts): a container engine's socket, or its API on
 * this machine's loopback at 2375/2376, is the host (L2 `container.host_mount`); any other Unix
 * socket is the service listening there (L1 `socket.local`, naming it), never just "the network".
 * These lines are judged, never run.
 */
import { eachReturns } from '@holic512/testkit';
import { classify, type Step } from '../src';
import { holdsEngineSocket, isEngineSocket, isEngineUrl } from '../src/policy/engine-sockets';
import { eachVerdict, execStep as ex, reasonOf, ungrouped, type VerdictGroup } from './verdict-table';

const HOME = '/home/u';
const ctx = { cwd: '/home/u/p', workspace: '/home/u/p', home: HOME, slothtoolHome: '/home/u/.slothtool', lang: 'en' as const };
const judge = (step: Step, policy: object = {}) => classify(step, policy, ctx);
const check = (groups: readonly VerdictGroup[]): void => eachVerdict(ungrouped(groups), (line) => judge(ex(line)));

describe('a client aimed at a container engine is the host', () => {
  check([
    [
      'L2',
      'container.host_mount',
      [
        // curl's --unix-socket and its spellings (`=`, a unique abbreviation as curl before 8.6 took it)
        'curl --unix-socket /var/run/docker.sock http://localhost/containers/json',
        'curl --unix-socket=/var/run/docker.sock http://localhost/containers/json',
        'curl -s --unix-socket /run/docker.sock -X POST http://d/containers/create',
        'curl --unix-sock /var/run/docker.sock http://localhost/info',
        'curl --unix-socket /run/user/1000/podman/podman.sock http://d/v4.0.0/libpod/info',
        'curl --unix-socket /run/containerd/containerd.sock http://localhost/',
        'curl --unix-socket /home/u/.docker/run/docker.sock http://localhost/containers/json',
        'curl --unix-socket ~/.colima/default/docker.sock http://localhost/containers/json',
        'curl --unix-socket /var/snap/lxd/common/lxd/unix.socket http://lxd/1.0/instances',
        'curl --abstract-unix-socket /containerd-shim/k8s.io/abc/shim.sock http://x/',
        // the engine's API over TCP on this machine
        'curl http://127.0.0.1:2375/containers/json',
        'curl 127.0.0.1:2375/containers/json',
        'curl -X POST http://localhost:2375/containers/create',
        'curl https://[::1]:2376/info',
        'curl http://0.0.0.0:2375/info',
        'curl http://127.1:2375/info',
        // a URL sent to the engine by --connect-to / --resolve
        'curl --connect-to ::127.0.0.1:2375 http://example.com/containers/json',
        'curl --connect-to=example.com:80:localhost:2375 http://example.com/info',
        'curl --resolve example.com:2375:127.0.0.1 http://example.com:2375/info',
        'wget -qO- http://127.0.0.1:2375/containers/json',
        'http :2375/containers/json',
        'http POST localhost:2375/containers/create Image=alpine',
        'xh --unix-socket /var/run/docker.sock http://localhost/containers/json',
        'xhs --unix-socket=/var/run/docker.sock :/containers/json',
        'http http+unix://%2Fvar%2Frun%2Fdocker.sock/containers/json',
        'nc 127.0.0.1 2375',
        // socat and nc, through the same definition
        'socat - UNIX-CONNECT:/var/run/docker.sock',
        'socat - UNIX:/var/run/docker.sock',
        'socat - unix-client:/run/podman/podman.sock',
        'socat - /var/run/docker.sock',
        'socat TCP-LISTEN:2375,fork UNIX-CONNECT:/var/run/docker.sock',
        'nc -U /var/run/docker.sock',
        'ncat --unixsock /var/run/docker.sock',
        // docker and podman aimed at their engine, doing what makes it the host
        'docker -H unix:///var/run/docker.sock run -v /:/h alpine',
        'docker cp /var/run/docker.sock c:/s',
      ],
    ],
  ]);
});

describe('a client aimed at any other local socket names it', () => {
  check([
    [
      'L1',
      'socket.local',
      [
        'curl --unix-socket /tmp/app.sock http://localhost/health',
        'curl --unix-socket=/home/u/p/run/api.sock http://x/v1/items',
        'curl --abstract-unix-socket app http://x/',
        'curl --abstract-unix-socket=app http://x/',
        // with --unix-socket, curl connects there whatever the URL's port says
        'curl --unix-socket /tmp/app.sock http://127.0.0.1:2375/x',
        'xh --unix-socket /tmp/app.sock http://localhost/health',
        'http http+unix://%2Ftmp%2Fapp.sock/health',
        'socat - UNIX-CONNECT:/run/dbus/system_bus_socket',
        'socat - ABSTRACT-CONNECT:app',
        'nc -U /tmp/app.sock',
        'nc -NU /tmp/app.sock',
        'ncat -U /tmp/app.sock',
        'docker -H unix:///tmp/proxy.sock ps',
        'docker --host=unix:///tmp/proxy.sock ps',
        'podman --url unix:///tmp/proxy.sock ps',
      ],
    ],
  ]);

  test('the question names the socket, in both languages', () => {
    const en = reasonOf(judge(ex('curl --unix-socket /tmp/app.sock http://localhost/health')), 'socket.local');
    expect(en).toContain('/tmp/app.sock');
    expect(en).not.toMatch(/uses the network/);
    const zh = reasonOf(classify(ex('curl --abstract-unix-socket app http://x/'), {}, { ...ctx, lang: 'zh' }), 'socket.local');
    expect(zh).toContain('@app');
    expect(zh).toMatch(/套接字/);
  });

  test('allowing the network does not let a local socket through: the network is not where it goes', () => {
    expect(judge(ex('curl --unix-socket /tmp/app.sock http://localhost/health'), { allowNetwork: true }).level).toBe('L1');
    expect(judge(ex('curl --unix-socket /var/run/docker.sock http://localhost/info'), { allowNetwork: true }).level).toBe('L2');
  });

  test('the engine is named as such, not as the network', () => {
    const d = judge(ex('curl --unix-socket /var/run/docker.sock http://localhost/containers/json'));
    expect(reasonOf(d, 'container.host_mount')).toMatch(/container engine's API/);
    expect(d.rules.map((r) => r.id)).not.toContain('network');
  });
});

describe('a proxy is judged by where it leads', () => {
  check([
    [
      'L2',
      'container.host_mount',
      [
        // curl's proxy options, their spellings (`=`, attached, clustered, abbreviated as curl before 8.6 took them)
        'curl -x http://127.0.0.1:2375 http://example.com/containers/json',
        'curl --proxy 127.0.0.1:2375 -X POST http://x/containers/create',
        'curl --proxy=http://user:pw@[::1]:2376 https://example.com/',
        'curl -sx127.0.0.1:2375 http://example.com/',
        'curl -sSx localhost:2375 http://example.com/',
        'curl --prox http://127.0.0.1:2375 http://example.com/',
        'curl --proxy1.0 0.0.0.0:2375 http://example.com/',
        'curl --preproxy socks5://localhost:2375 -x http://proxy.corp:3128 http://x/',
        'curl --socks4 127.0.0.1:2375 http://x/',
        'curl --socks4a=localhost:2376 http://x/',
        'curl --socks5 127.0.0.1:2375 http://x/',
        'curl --socks5-hostname localhost:2375 http://x/',
        'curl --socks 127.0.0.1:2375 http://x/',
        // a SOCKS proxy on a Unix socket (curl: host `localhost` and the socket's path), by any scheme
        'curl --proxy socks5h://localhost/var/run/docker.sock http://x/containers/json',
        'curl -x socks5://LOCALHOST/run/docker%2Esock http://x/',
        'curl --socks5 localhost/run/podman/podman.sock http://x/',
        'curl --socks5-hostname localhost/run/user/1000/docker.sock http://x/',
        'curl --preproxy socks5h://localhost/var/run/docker.sock -x http://p:3128 http://x/',
        'curl -x unix:///var/run/docker.sock http://x/',
        // other URLs curl connects to
        'curl --doh-url http://127.0.0.1:2375/containers/create https://example.com/',
        'curl --ipfs-gateway http://localhost:2375 ipfs://bafy/x',
        // wget's proxies, set as wgetrc commands (`_` and `-` in the key ignored)
        'wget -e use_proxy=on -e http_proxy=127.0.0.1:2375 http://x/containers/json',
        'wget -e https_proxy=http://localhost:2376 https://x/',
        'wget --execute=http-proxy=localhost:2375 http://x/',
        'wget -e ftp_proxy=127.0.0.1:2375 ftp://x/f',
        // HTTPie's and xh's PROTOCOL:URL
        'http --proxy http:http://127.0.0.1:2375 http://x/containers/json',
        'http --proxy=all:socks5h://localhost/var/run/docker.sock http://x/',
        'https --prox https:http://127.0.0.1:2376 https://x/',
        'xh --proxy all:http://127.0.0.1:2375 http://x/containers/json',
        'xhs --proxy=https:socks5://localhost:2376 https://x/',
        // aria2c, nc, ncat, socat
        'aria2c --all-proxy=http://127.0.0.1:2375 http://x/',
        'aria2c --http-proxy http://127.0.0.1:2375 http://x/',
        'nc -x 127.0.0.1:2375 example.com 80',
        'nc -X connect -x127.0.0.1:2376 example.com 443',
        'ncat --proxy 127.0.0.1:2375 example.com 80',
        'ncat --proxy-type socks5 --proxy=localhost:2376 example.com 80',
        'socat - PROXY:127.0.0.1:example.com:80,proxyport=2375',
        'socat - SOCKS4A:localhost:example.com:80,socksport=2375',
        'socat - SOCKS5-CONNECT:127.0.0.1:2375:example.com:80',
        // and socat straight at the engine's API over TCP
        'socat - TCP:127.0.0.1:2375',
        'socat - TCP4-CONNECT:localhost:2376',
        'socat - OPENSSL:[::1]:2376,verify=0',
        'socat TCP-LISTEN:8080,fork TCP:127.0.0.1:2375',
      ],
    ],
    [
      'L1',
      'socket.local',
      [
        'curl --proxy socks5h://localhost/tmp/proxy.sock http://x/',
        'curl --socks5 localhost/home/u/p/run/tor.sock http://x/',
        'curl -x unix:/tmp/proxy.sock http://x/',
        'http --proxy=all:socks5h://localhost/tmp/proxy.sock http://x/',
        'xh --proxy https:socks5://localhost/tmp/proxy.sock https://x/',
      ],
    ],
    [
      'L2',
      'wrapper.env_var',
      [
        'env http_proxy=http://127.0.0.1:2375 curl http://x/containers/json',
        'env HTTPS_PROXY=http://localhost:2376 wget https://x/',
        'env ALL_PROXY=socks5h://localhost/var/run/docker.sock curl http://x/',
      ],
    ],
    ['L2', 'git.config', ['git -c http.proxy=http://127.0.0.1:2375 fetch', 'git -c http.proxy=socks5h://localhost/tmp/p.sock fetch']],
  ]);

  test('the proxy is named in the question', () => {
    const d = judge(ex('curl -x http://127.0.0.1:2375 http://example.com/containers/json'));
    expect(reasonOf(d, 'container.host_mount')).toContain('-x http://127.0.0.1:2375');
    expect(reasonOf(judge(ex('curl --proxy socks5h://localhost/tmp/proxy.sock http://x/')), 'socket.local')).toContain('/tmp/proxy.sock');
  });

  test('a proxy anywhere else is the network, as before', () => {
    for (const line of [
      'curl -x http://proxy.corp:3128 https://example.com',
      'curl -x http://127.0.0.1:3128 https://example.com',
      'curl --socks5 127.0.0.1:1080 https://example.com',
      'curl -x http://localhost:8080/ https://example.com',
      'wget -e http_proxy=proxy.corp:3128 http://x/',
      'http --proxy http:http://proxy.corp:3128 http://x/',
      'nc -x proxy.corp:1080 example.com 80',
      'socat - PROXY:proxy.corp:127.0.0.1:2375,proxyport=3128',
      'socat - TCP:example.com:2375',
    ]) {
      const d = judge(ex(line));
      expect([d.level, d.rules.map((r) => r.id)]).toEqual(['L1', ['network']]);
    }
    expect(judge(ex(['curl', '-x', '', 'https://example.com'])).level).toBe('L1');
  });
});

describe('what stays as it was', () => {
  check([
    [
      'L1',
      'network',
      [
        'curl https://example.com',
        'curl http://localhost:3000',
        'curl http://127.0.0.1:8080/api',
        'curl http://example.com:2375/',
        'curl --connect-to ::127.0.0.1:8080 http://example.com/',
        'curl --resolve example.com:443:127.0.0.1 https://example.com/',
        'wget https://example.com/x.tar.gz',
        'http :3000/health',
        'xh https://example.com',
        'nc example.com 80',
        'nc 127.0.0.1 8080',
        'socat - TCP:example.com:80',
        'docker -H tcp://10.0.0.5:2376 ps',
        'docker -H ssh://me@build-box ps',
      ],
    ],
    ['L0', 'read.only', ['docker ps', 'docker -H unix:///var/run/docker.sock ps', 'docker --host unix:///run/user/1000/docker.sock ps']],
  ]);

  test('a listener on a Unix socket is not a connection to one', () => {
    expect(judge(ex('nc -lU /tmp/app.sock')).rules.map((r) => r.id)).not.toContain('socket.local');
  });
});

describe('the one definition of where engines listen', () => {
  eachReturns('%s is an engine socket: %s', (p: string) => isEngineSocket(p, HOME), [
    ['/var/run/docker.sock', true],
    ['unix:///var/run/docker.sock', true],
    ['unix:/run/docker.sock', true],
    ['/run/user/1000/podman/podman.sock', true],
    ['/run/containerd/containerd.sock', true],
    ['~/.docker/run/docker.sock', true],
    ['$HOME/.rd/docker.sock', true],
    ['/home/u/Library/Containers/com.docker.docker/Data/docker.raw.sock', true],
    ['/var/run/crio/crio.sock', true],
    ['/var/lib/incus/unix.socket', true],
    ['/tmp/app.sock', false],
    ['/run/dbus/system_bus_socket', false],
    ['/tmp/not-docker.sock.bak', false],
  ]);

  eachReturns('%s holds an engine socket: %s', (p: string) => holdsEngineSocket(p, HOME), [
    ['/run', true],
    ['/var/run', true],
    ['/run/user', true],
    ['/home/u/.docker', true],
    ['~/.colima', true],
    ['/etc', false],
    ['/home/u/p', false],
  ]);

  eachReturns('%s is the engine on this machine: %s', isEngineUrl, [
    ['http://127.0.0.1:2375/x', true],
    ['tcp://localhost:2376', true],
    ['http://docker.localhost:2375', true],
    ['http://[::ffff:127.0.0.1]:2375', true],
    ['http://127.0.0.1:2377', false],
    ['http://192.168.1.4:2375', false],
    ['http://localhost/x', false],
  ]);
});
