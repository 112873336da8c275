/**
 * Where package managers, installers, build tools and git are told to connect, judged as curl's
 * proxies are (engine-sockets.ts): a proxy option (`pip --proxy`, `npm --https-proxy`, `gem -p`,
 * apt's `-o Acquire::http::Proxy=`, Java's `-Dhttps.proxyHost=`/`-Dhttps.proxyPort=`, a
 * host-network build's `--build-arg HTTP_PROXY=`) and every URL among their words (`--registry`,
 * `-i`/`--index-url`, `--extra-index-url`, a conda channel, a package or a git remote given by
 * URL). A proxy on the engine's socket or an address of the engine's API on this machine is the
 * host (L2 `container.host_mount`); a proxy on another Unix socket is that socket (L1
 * `socket.local`); anywhere else adds nothing (these commands already use the network and ask).
 *
 * Every word is read, also one that another option may have taken as its value, and an option
 * counts under any prefix of its name where the program's parser takes abbreviations: a misread
 * spelling can only ask more, never let an engine address through unjudged.
 */
import { engineUrlFinding, isEngineSocket, isEngineUrl, parseUrl, proxyFindings, proxyTarget } from '../engine-sockets';
import { type Finding, type JudgeCtx } from '../finding';
import { subcommandIndex } from '../git-subcommand-index';
import { execArg } from './common';

/** An address as a program is told it: the value, and the words that said it. */
interface Told {
  value: string;
  said: string;
}

/** How a program is told a proxy on its command line. */
interface ProxyOptions {
  /** Long options that take a proxy (`--x v`, `--x=v`). */
  long: readonly string[];
  /** Short letters that take a proxy (`-p v`, `-pv`, `-qp v`). */
  short?: string;
  /** Short letters that take some other value: a cluster's letters after one of them are its value. */
  valued?: string;
  /** Whether the parser takes a prefix of a long option's name (optparse, argparse, nopt, Ruby's OptionParser). */
  prefixes?: boolean;
}

/** Proxy options, per program (checked against each program's own documentation). */
const PROXY_OPTIONS: Record<string, ProxyOptions> = {
  // pip's general options (optparse); pipx passes `--pip-args` on to pip (pipxArgs below).
  pip: { long: ['proxy'], valued: 'rcetbifd', prefixes: true },
  // npm's configuration keys on the command line (nopt: unique prefixes expand).
  npm: { long: ['proxy', 'https-proxy'], prefixes: true },
  // pnpm reads npm's keys, also written `--config.<key>=`.
  pnpm: { long: ['proxy', 'https-proxy', 'config.proxy', 'config.https-proxy'], prefixes: true },
  // yarn 1's flags (yarn 2+ reads httpProxy / httpsProxy from .yarnrc.yml or YARN_* only).
  yarn: { long: ['proxy', 'https-proxy'] },
  // RubyGems: `-p, --[no-]http-proxy [URL]` (OptionParser takes unique prefixes).
  gem: { long: ['http-proxy'], short: 'p', valued: 'invsPg', prefixes: true },
};
PROXY_OPTIONS.pip3 = PROXY_OPTIONS.pip;
PROXY_OPTIONS.npx = PROXY_OPTIONS.npm;
PROXY_OPTIONS.pnpx = PROXY_OPTIONS.pnpm;

/** The values a program's proxy options take in `args` (`--x v`, `--x=v`, `-pv`, `-qp v`). */
function optionValues(args: readonly string[], spec: ProxyOptions): Told[] {
  const out: Told[] = [];
  args.forEach((a, i) => {
    const next = args[i + 1] ?? '';
    if (a.startsWith('--')) {
      const eq = a.indexOf('=');
      const key = a.slice(2, eq < 0 ? undefined : eq);
      if (key === '' || !spec.long.some((l) => l === key || (spec.prefixes === true && l.startsWith(key)))) return;
      out.push(eq < 0 ? { value: next, said: `${a} ${next}` } : { value: a.slice(eq + 1), said: a });
      return;
    }
    if (!spec.short || !/^-[A-Za-z0-9]/.test(a)) return;
    for (let k = 1; k < a.length; k++) {
      if (spec.short.includes(a[k])) {
        const rest = a.slice(k + 1);
        out.push(rest === '' ? { value: next, said: `${a} ${next}` } : { value: rest, said: a });
        return;
      }
      if (spec.valued?.includes(a[k])) return;
    }
  });
  return out;
}

/** apt's configuration items that name a program it runs (hooks, the proxy detector, its binaries)
 * or the folders its configuration is read from (which can name any of those). */
const APT_EXEC_KEY =
  /(?:^|::)(?:Pre-Invoke|Post-Invoke|Post-Invoke-Success|Pre-Install-Pkgs|Proxy-Auto-Detect|ProxyAutoDetect|GPGVCommand)(?:::|$)|^(?:Dir|RootDir)$|^Dir::(?:Bin|Etc)(?:::|$)/i;
/** dpkg options apt passes on (`Dpkg::Options::=…`) that run a program. */
const DPKG_EXEC_OPTION = /--(?:pre-invoke|post-invoke|status-logger)\b/i;
/** apt's proxy items: `Acquire::<method>::Proxy`, also per host (`…::Proxy::<host>`). */
const APT_PROXY_KEY = /^Acquire::[^:]+::Proxy(?:::.*)?$/i;
/** apt-get's and apt-cache's short options that take a value. */
const APT_VALUED = 'octa';

/** apt / apt-get / apt-cache / aptitude: `-o Key=Value` items and `-c` configuration files. */
function aptTold(args: readonly string[]): { proxies: Told[]; execs: string[] } {
  const proxies: Told[] = [];
  const execs: string[] = [];
  const items = optionValues(args, { long: ['option'], short: 'o', valued: APT_VALUED.replace('o', '') });
  for (const { value, said } of items) {
    const eq = value.indexOf('=');
    const key = (eq < 0 ? value : value.slice(0, eq)).trim().replace(/::$/, '');
    const v = eq < 0 ? '' : value.slice(eq + 1);
    if (APT_EXEC_KEY.test(key) || (/^Dpkg::Options$/i.test(key) && DPKG_EXEC_OPTION.test(v))) execs.push(said);
    else if (APT_PROXY_KEY.test(key) && !/^(DIRECT|false)$/i.test(v.trim())) proxies.push({ value: v, said });
  }
  // A configuration file (`-c`, `--config-file`) can set every item above.
  for (const { said } of optionValues(args, { long: ['config-file'], short: 'c', valued: APT_VALUED.replace('c', '') })) execs.push(said);
  return { proxies, execs };
}

/** Java's proxy properties and the port each scheme's proxy takes by default. */
const JAVA_PROXIES: Record<string, { host: RegExp; port: RegExp; defaultPort: string }> = {
  http: { host: /^http\.proxyHost$/, port: /^http\.proxyPort$/, defaultPort: '80' },
  https: { host: /^https\.proxyHost$/, port: /^https\.proxyPort$/, defaultPort: '443' },
  ftp: { host: /^ftp\.proxyHost$/, port: /^ftp\.proxyPort$/, defaultPort: '80' },
  socks: { host: /^socksProxyHost$/, port: /^socksProxyPort$/, defaultPort: '1080' },
};

/** mvn / gradle / sbt / ant / java: `-Dhttp.proxyHost=H -Dhttp.proxyPort=P` (mvn and gradle also
 * `-D k=v`, `--define k=v`, `--system-prop k=v`), the two put together as one proxy per scheme. */
function javaProxies(args: readonly string[]): Told[] {
  const props = new Map<string, string>();
  args.forEach((a, i) => {
    const m = /^(?:-D|--define=|--system-prop=)(.*)$/.exec(a);
    const prop = m ? m[1] || (args[i + 1] ?? '') : ['--define', '--system-prop'].includes(a) ? (args[i + 1] ?? '') : undefined;
    if (prop === undefined) return;
    const eq = prop.indexOf('=');
    if (eq > 0) props.set(prop.slice(0, eq), prop.slice(eq + 1));
  });
  const out: Told[] = [];
  for (const p of Object.values(JAVA_PROXIES)) {
    const hostKey = [...props.keys()].filter((k) => p.host.test(k)).pop();
    if (hostKey === undefined) continue;
    const portKey = [...props.keys()].filter((k) => p.port.test(k)).pop();
    const port = portKey === undefined ? p.defaultPort : props.get(portKey)!;
    const host = props.get(hostKey)!;
    const said = `-D${hostKey}=${host}${portKey === undefined ? '' : ` -D${portKey}=${port}`}`;
    out.push({ value: `${host.includes(':') && !host.startsWith('[') ? `[${host}]` : host}:${port}`, said });
  }
  return out;
}

/** Whether `args` build an image on the host's network (`docker build --network host`, `--net=host`). */
function hostNetworkBuild(args: readonly string[]): boolean {
  const build = args.findIndex((a) => a === 'build');
  if (build < 0) return false;
  return args.some(
    (a, i) => (/^--(?:network|net)=host$/.test(a) || (['--network', '--net'].includes(a) && args[i + 1] === 'host')) && i > build,
  );
}

/** docker / podman build on the host's network: build arguments its RUN steps see, on this machine's loopback. */
function buildArgs(args: readonly string[]): { proxies: Told[]; words: string[] } {
  if (!hostNetworkBuild(args)) return { proxies: [], words: [] };
  const values = optionValues(args, { long: ['build-arg'] });
  const proxies = values.filter((v) => /^(?:https?|ftp|all)_proxy=/i.test(v.value));
  return {
    proxies: proxies.map((p) => ({ value: p.value.slice(p.value.indexOf('=') + 1), said: p.said })),
    words: values.map((v) => v.value),
  };
}

/** The arguments pip reads when a program runs it: `python -m pip …` (`-mpip` too), pipx's `--pip-args`. */
function pipArgs(name: string, args: readonly string[]): string[] | undefined {
  if (/^python[0-9.]*$/.test(name)) {
    const m = args.findIndex((a, i) => (a === '-m' && args[i + 1] === 'pip') || /^-[A-Za-z]*mpip$/.test(a));
    return m < 0 ? undefined : args.slice(m + (args[m] === '-m' ? 2 : 1));
  }
  if (name === 'pipx')
    return optionValues(args, { long: ['pip-args'], prefixes: true }).flatMap((v) => v.value.split(/\s+/).filter(Boolean));
  return undefined;
}

/** git's sub-commands that connect to a remote or record one (a URL in another's words, a commit message's, is text). */
const GIT_CONNECTS = new Set([
  'clone',
  'fetch',
  'pull',
  'push',
  'ls-remote',
  'request-pull',
  'remote',
  'submodule',
  'archive',
  'config',
  'fetch-pack',
  'send-pack',
  'http-fetch',
  'http-push',
  'lfs',
]);

/** The words of `git args` that may be an address: its global options (`-c k=v`), and the rest when the sub-command connects. */
function gitWords(args: readonly string[]): readonly string[] {
  const sub = subcommandIndex(args);
  return sub < 0 || GIT_CONNECTS.has(args[sub]) ? args : args.slice(0, sub);
}

/** URLs written anywhere in a word (`--index-url=http://…`, `git+http://…`, `x@http://…`, `Acquire::http::Proxy=http://…`). */
const URL_IN_WORD = /[a-z][a-z0-9+.-]*:\/\/[^\s"'<>]+/gi;

/** The URLs in `words` that reach the engine's API on this machine, whatever their scheme (`git://`, `git+http://`, `tcp://`). */
export function engineUrlsIn(words: readonly string[]): string[] {
  const out: string[] = [];
  for (const w of words) {
    if (!w.includes('://')) continue;
    for (const m of w.matchAll(URL_IN_WORD)) {
      const u = parseUrl(`http://${m[0].slice(m[0].indexOf('://') + 3)}`);
      if (u && isEngineUrl(`http://${u.host}`)) out.push(m[0]);
    }
  }
  return out;
}

/** The findings of one command's proxies and URLs, each finding once. */
function toldFindings(name: string, proxies: readonly Told[], urls: readonly string[], execs: readonly string[], ctx: JudgeCtx): Finding[] {
  const out = [
    ...execs.map((a) => execArg(name, a)),
    ...proxies.flatMap((p) => proxyFindings(name, p.value, p.said, ctx)),
    ...urls.map((u) => engineUrlFinding(name, u)),
  ];
  const seen = new Set<string>();
  return out.filter((f) => {
    const key = `${f.id} ${JSON.stringify(f.params)}`;
    return seen.has(key) ? false : (seen.add(key), true);
  });
}

/**
 * What `name args` is told about where to connect, judged by where it leads (see the file's
 * comment); none for programs that are told nothing here (curl and the like judge their own).
 * `fetches`: the program installs packages, builds a project or is git, so every URL among its
 * words is an address it may be sent to.
 */
export function addressFindings(name: string, args: readonly string[], ctx: JudgeCtx, fetches: boolean): Finding[] {
  const proxies: Told[] = [];
  const execs: string[] = [];
  let words: readonly string[] =
    name === 'git' ? gitWords(args) : fetches || Object.prototype.hasOwnProperty.call(PROXY_OPTIONS, name) ? args : [];
  const spec = Object.prototype.hasOwnProperty.call(PROXY_OPTIONS, name) ? PROXY_OPTIONS[name] : undefined;
  if (spec) proxies.push(...optionValues(args, spec));
  const pip = pipArgs(name, args);
  if (pip) {
    proxies.push(...optionValues(pip, PROXY_OPTIONS.pip));
    words = [...words, ...pip];
  }
  if (['apt', 'apt-get', 'apt-cache', 'aptitude'].includes(name)) {
    const apt = aptTold(args);
    proxies.push(...apt.proxies);
    execs.push(...apt.execs);
  }
  if (['mvn', 'gradle', 'sbt', 'ant', 'java'].includes(name)) proxies.push(...javaProxies(args));
  if (name === 'docker' || name === 'podman') {
    const built = buildArgs(args);
    // Inside the build a socket path is the build's own file: only the loopback is shared with the host.
    proxies.push(...built.proxies.filter((p) => 'url' in (proxyTarget(p.value) ?? {})));
    words = built.words;
  }
  if (proxies.length === 0 && execs.length === 0 && words.length === 0) return [];
  // A URL that is a proxy's value is judged as that proxy (named with its option), not twice.
  const urls = engineUrlsIn(words).filter((u) => !proxies.some((p) => p.value.includes(u)));
  return toldFindings(name, proxies, urls, execs, ctx);
}

/** Whether an environment variable's value names the engine: its API on this machine, or its socket. */
export function namesEngine(value: string): boolean {
  return engineUrlsIn([value]).length > 0 || isEngineSocket(value);
}
