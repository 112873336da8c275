/**
 * Package managers, installers, build tools and git told where to connect (programs/pm-addresses.ts):
 * a proxy, registry, index, channel or remote that is the container engine's socket or its API on
 * this machine's loopback (2375/2376) is the host (L2 `container.host_mount`), as curl's proxies
 * are; a proxy on another Unix socket is that socket (L1 `socket.local`); apt options that run a
 * program are refused; anything else keeps the verdict it had. Every L2 and socket row here was an
 * L1 `install` / `network` / `project.script` / `git.*` (or L0) before. These lines are judged, never run.
 */
import { classify, type Step } from '../src';
import { engineUrlsIn } from '../src/policy/programs/pm-addresses';
import { eachVerdict, execStep as ex, reasonOf, ungrouped, type VerdictGroup } from './verdict-table';

const HOME = '/home/u';
const ctx = { cwd: '/home/u/p', workspace: '/home/u/p', home: HOME, slothtoolHome: '/home/u/.slothtool', lang: 'en' as const };
const judge = (step: Step) => classify(step, {}, ctx);

/** Every line and the verdict it must get. */
const GROUPS: VerdictGroup[] = [
  // a proxy or registry at the engine is the host
  [
    'L2',
    'container.host_mount',
    [
      // pip (optparse: `--x v`, `--x=v`, a unique prefix, `-iURL`), python -m pip, pipx's --pip-args
      'pip install --proxy http://127.0.0.1:2375 requests',
      'pip install --proxy=127.0.0.1:2375 requests',
      'pip3 install --prox http://user:pw@[::1]:2376 requests',
      'pip install --proxy=socks5h://localhost/var/run/docker.sock requests',
      'pip download --proxy 0.0.0.0:2375 -d /tmp/w x',
      'pip install -i http://127.0.0.1:2375/simple requests',
      'pip install -qihttp://127.0.0.1:2375/simple requests',
      'pip install --index-url=http://localhost:2376/ x',
      'pip install --no-cache-dir --extra-index-url http://127.1:2375/simple x',
      'pip wheel -f http://127.0.0.1:2375/links x',
      'pip install http://127.0.0.1:2375/containers/create',
      'pip install x@git+http://127.0.0.1:2375/x',
      ['pip', 'install', 'x @ https://localhost:2376/x.zip'],
      'pip list --proxy 127.0.0.1:2375',
      'pip index versions x --proxy 127.0.0.1:2375',
      'python3 -m pip install --proxy 127.0.0.1:2375 x',
      'python -m pip download -i http://127.0.0.1:2375/ x',
      'pipx install x --pip-args=--proxy=127.0.0.1:2375',
      ['pipx', 'install', 'x', '--pip-args', '--no-cache-dir --proxy http://localhost:2375'],
      'pipx install --index-url http://127.0.0.1:2375/simple x',
      'uv pip install --index-url http://127.0.0.1:2375 x',
      'uv add --default-index=http://localhost:2375 x',
      'poetry source add x http://127.0.0.1:2375/simple',
      // npm (nopt: prefixes, the `-reg` shorthand, per-scope registries), npx / npm exec, pnpm, yarn, bun
      'npm install --proxy http://127.0.0.1:2375',
      'npm install --https-proxy=127.0.0.1:2376',
      'npm ci --https-pro=http://127.0.0.1:2376',
      'npm install --prox=localhost:2375',
      'npm install --registry http://127.0.0.1:2375/',
      'npm install -reg http://127.0.0.1:2375/',
      'npm install --@acme:registry=http://127.0.0.1:2375/',
      'npm view x --registry http://127.0.0.1:2375/',
      'npm install git+http://127.0.0.1:2375/x.git',
      'npm i http://localhost:2375/x.tgz',
      'npm exec --registry=http://127.0.0.1:2375 cowsay',
      'npm install --proxy socks5h://localhost/var/run/docker.sock',
      'pnpm add x --proxy http://127.0.0.1:2375',
      'pnpm install --config.https-proxy=127.0.0.1:2376',
      'pnpm install --registry=http://127.0.0.1:2375',
      'yarn add x --registry http://127.0.0.1:2375',
      'yarn install --https-proxy 127.0.0.1:2376',
      'bun add x --registry http://127.0.0.1:2375',
      // apt's proxy items, any method, any case, per host, attached or as --option
      'apt-get -o Acquire::http::Proxy=http://127.0.0.1:2375 update',
      'apt-get -oAcquire::https::Proxy=http://localhost:2376 update',
      'apt-get --option=acquire::http::proxy=127.0.0.1:2375 update',
      'apt-get --option Acquire::ftp::Proxy=ftp://127.0.0.1:2375 update',
      'apt-get -o Acquire::http::Proxy::deb.debian.org=http://127.0.0.1:2375 update',
      'apt install -o Acquire::socks::Proxy=socks5h://127.0.0.1:2375 x',
      'apt-get -yqo Acquire::http::Proxy=http://127.0.0.1:2375 install x',
      'apt-cache -o Acquire::http::Proxy=http://127.0.0.1:2375 policy',
      // RubyGems (-p, --http-proxy and its prefixes, --source), cargo, conda, composer, brew, deno
      'gem install x --http-proxy http://127.0.0.1:2375',
      'gem install -p 127.0.0.1:2375 x',
      'gem install -Np127.0.0.1:2375 x',
      'gem install --ht=127.0.0.1:2375 x',
      'gem install --source http://127.0.0.1:2375 x',
      'cargo install --git http://127.0.0.1:2375/x',
      'cargo install --index sparse+http://127.0.0.1:2375/ x',
      'conda install -c http://127.0.0.1:2375/x pkg',
      'conda create -n e --channel http://localhost:2375/c python',
      'composer config repositories.x composer http://127.0.0.1:2375',
      'composer create-project x/y --repository=http://127.0.0.1:2375',
      'brew tap me/x http://127.0.0.1:2375/x.git',
      'deno install http://127.0.0.1:2375/x.ts',
      // Java's proxy properties (host and port put together), for maven and gradle
      'mvn -Dhttp.proxyHost=127.0.0.1 -Dhttp.proxyPort=2375 package',
      'mvn -D https.proxyHost=localhost -D https.proxyPort=2376 package',
      'mvn --define http.proxyHost=127.0.0.1 --define http.proxyPort=2375 verify',
      'gradle -Dhttps.proxyHost=127.0.0.1 -Dhttps.proxyPort=2376 build',
      'gradle --system-prop=socksProxyHost=::1 -DsocksProxyPort=2375 build',
      'mvn -DsocksProxyHost=0.0.0.0 -DsocksProxyPort=2376 test',
      // git's remotes (any scheme git speaks)
      'git clone http://127.0.0.1:2375/x',
      'git fetch git://localhost:2375/x',
      'git ls-remote https://[::1]:2376/x',
      'git push http://0.0.0.0:2375/x main',
      'git remote add o http://127.0.0.1:2375/x',
      'git remote set-url origin http://127.0.0.1:2375/x',
      'git submodule add http://[::1]:2375/x',
      'git -c remote.origin.url=http://127.0.0.1:2375/x fetch origin',
      'git -C /home/u/p archive --remote=http://127.0.0.1:2375/x HEAD',
      // a build on the host's network: its RUN steps share this machine's loopback
      'docker build --network host --build-arg HTTP_PROXY=http://127.0.0.1:2375 .',
      'docker build --network=host --build-arg=https_proxy=127.0.0.1:2376 .',
      'podman build --net=host --build-arg ALL_PROXY=socks5://localhost:2375 .',
      'docker buildx build --network host --build-arg API=http://127.0.0.1:2375 .',
      // an environment variable that tells a program where the engine is
      'env BUN_CONFIG_REGISTRY=http://127.0.0.1:2375 bun install',
      'env HOMEBREW_ARTIFACT_DOMAIN=http://localhost:2375 brew install x',
      'env API_SOCKET=/var/run/docker.sock make',
    ],
  ],
  // a proxy on another Unix socket names it
  [
    'L1',
    'socket.local',
    [
      'pip install --proxy socks5h://localhost/tmp/tor.sock x',
      'npm install --proxy=unix:/tmp/proxy.sock',
      'pnpm add x --https-proxy socks5h://localhost/home/u/p/run/p.sock',
      'gem install x --http-proxy unix:///tmp/proxy.sock',
      'apt-get -o Acquire::socks::Proxy=socks5h://localhost/tmp/p.sock update',
    ],
  ],
  // apt's options that run a program are refused
  [
    'L2',
    'arg.exec',
    [
      'apt-get -o APT::Update::Pre-Invoke::=/tmp/x update',
      'apt-get -o DPkg::Post-Invoke::=touch install x',
      'apt-get -o DPkg::Pre-Install-Pkgs::=/tmp/x install x',
      'apt -o Acquire::http::Proxy-Auto-Detect=/tmp/detect update',
      'apt-get -oAcquire::http::ProxyAutoDetect=/tmp/detect update',
      'apt-get -o Dpkg::Options::=--pre-invoke=/tmp/x install x',
      'apt-get -o Dpkg::Options::=--status-logger=/tmp/x install x',
      'apt-get -o Dir=/tmp/root update',
      'apt-get -o Dir::Etc::Parts=/tmp/confd update',
      'apt-get -o Dir::Bin::Methods=/tmp/methods update',
      'apt-cache -o APT::Key::GPGVCommand=/tmp/x policy',
      // a configuration file can set any of them
      'apt-get update -c /tmp/apt.conf',
      'apt-get --config-file=/tmp/apt.conf update',
      'apt-get -qqc /tmp/apt.conf update',
    ],
  ],
  // …and so can the file APT_CONFIG names
  ['L2', 'wrapper.env_var', ['env APT_CONFIG=/tmp/apt.conf apt-get update']],
  // what stays as it was
  [
    'L1',
    'install',
    [
      'pip install requests',
      'pip install --proxy http://proxy.corp:3128 x',
      'pip install --proxy http://127.0.0.1:3128 x',
      'pip install -i https://pypi.org/simple x',
      'pip install --trusted-host 127.0.0.1:2375 x',
      'npm install',
      'npm install --registry https://registry.npmjs.org/',
      'npm install --proxy http://127.0.0.1:3128',
      'npm install --noproxy 127.0.0.1:2375',
      'yarn add x --proxy proxy.corp:8080',
      'apt-get update',
      'apt-get -o Acquire::http::Proxy=DIRECT update',
      'apt-get -o Acquire::http::Proxy=http://127.0.0.1:3142 update',
      'apt-get -o Dpkg::Options::=--force-confdef install x',
      'apt-get -oAcquire::Check-Valid-Until=false update',
      'apt-get -o APT::Get::Assume-Yes=true install x',
      'gem install x --http-proxy http://proxy.corp:8080',
      'gem install x -v 1.2',
      'conda install -c conda-forge x',
    ],
  ],
  ['L1', 'git.network', ['git clone https://github.com/x/y', 'git clone http://example.com:2375/x', 'git fetch http://127.0.0.1:8080/x']],
  // a URL in a commit message is text, not a remote
  ['L1', 'git.write', ['git commit -m see-http://127.0.0.1:2375/docs', 'git tag -m http://localhost:2375 v1']],
  [
    'L1',
    'project.script',
    [
      'mvn -Dhttp.proxyHost=127.0.0.1 -Dhttp.proxyPort=3128 package',
      'mvn -Dhttp.proxyHost=proxy.corp -Dhttps.proxyPort=2375 package',
      // without the host's network a build's loopback is its own
      'docker build --build-arg HTTP_PROXY=http://127.0.0.1:2375 .',
      'docker build --network host --build-arg HTTP_PROXY=http://proxy.corp:3128 .',
    ],
  ],
  ['L1', 'wrapper.env_unknown', ['env FOO=bar make', 'env API=http://127.0.0.1:8080 make']],
  ['L0', 'read.only', ['pip list', 'apt-cache policy x']],
];

describe('every line gets its verdict', () => eachVerdict(ungrouped(GROUPS), (line) => judge(ex(line))));

describe('the question names what said it', () => {
  test('the option that points at the engine', () => {
    const d = judge(ex('pip install --proxy http://127.0.0.1:2375 requests'));
    expect(d.rules.filter((r) => r.id === 'container.host_mount').map((r) => r.reason)).toEqual([
      expect.stringContaining('pip --proxy http://127.0.0.1:2375'),
    ]);
    expect(reasonOf(judge(ex('apt-get -o Acquire::http::Proxy=http://127.0.0.1:2375 update')), 'container.host_mount')).toContain(
      '-o Acquire::http::Proxy=http://127.0.0.1:2375',
    );
    expect(reasonOf(judge(ex('mvn -Dhttp.proxyHost=127.0.0.1 -Dhttp.proxyPort=2375 package')), 'container.host_mount')).toContain(
      '-Dhttp.proxyHost=127.0.0.1 -Dhttp.proxyPort=2375',
    );
  });

  test('the other socket', () => {
    expect(reasonOf(judge(ex('pip install --proxy socks5h://localhost/tmp/tor.sock x')), 'socket.local')).toContain('/tmp/tor.sock');
  });
});

describe('what stays as it was', () => {
  test('an ordinary address adds no rule of its own', () => {
    for (const line of ['pip install --proxy http://proxy.corp:3128 x', 'npm install --registry https://registry.npmjs.org/']) {
      const ids = judge(ex(line)).rules.map((r) => r.id);
      expect(ids).not.toContain('container.host_mount');
      expect(ids).not.toContain('socket.local');
    }
  });
});

describe('engineUrlsIn', () => {
  test.each([
    [['http://127.0.0.1:2375/x'], ['http://127.0.0.1:2375/x']],
    [['--index-url=https://[::1]:2376/simple'], ['https://[::1]:2376/simple']],
    [['x@git+http://localhost:2375/x'], ['git+http://localhost:2375/x']],
    [['Acquire::http::Proxy=http://0.0.0.0:2375'], ['http://0.0.0.0:2375']],
    [['http://example.com:2375/', 'http://127.0.0.1:2374/', '127.0.0.1:2375', 'plain'], []],
  ])('%j → %j', (words, urls) => expect(engineUrlsIn(words)).toEqual(urls));
});
