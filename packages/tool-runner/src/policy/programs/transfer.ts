/**
 * Programs that send and fetch over HTTP and FTP (curl, wget, HTTPie and xh, aria2c): what they
 * upload (every file an option or a request item names), where they write (downloads, logs,
 * cookie jars) and what else their options make them do, read with their option tables
 * (options/tables-net.ts) and judged by the shared tables (effects.ts).
 */
import path = require('path');
import { uploadFindings, writePathFindings, type Upload, type WriteTarget } from '../effects';
import { engineUrlFinding, isEngineUrl, localSocketFinding, parseUrl, proxyFindings, safeDecode } from '../engine-sockets';
import { finding, type Finding, type JudgeCtx } from '../finding';
import { compiled, resolveOptions, type Resolution } from '../options/resolve';
import { ARIA2C, CURL, HTTPIE, WGET } from '../options/tables-net';
import { secretFindings } from '../paths';
import { execArg } from './common';

/** What a command's options and words send, write and run, gathered before judging. */
interface Traffic {
  uploads: Upload[];
  targets: WriteTarget[];
  found: Finding[];
  /** Where downloads land (`--output-dir`, `-P`, `-d`), else the step's folder. */
  outdir?: string;
  /** Downloads are saved under the URL's own name (`-O`, `--download`, wget without `-O`). */
  remoteNames: boolean;
  /** The Unix socket every connection goes to instead of the network (`--unix-socket`; the last one counts). */
  socket?: { path: string; abstract: boolean };
  /** The proxies requests go through (`-x`, `--preproxy`, `--socks5`, wget's `http_proxy`, HTTPie's `--proxy`), each judged by where it leads. */
  proxies: Array<{ value: string; said: string }>;
  /** Other URLs it connects to (`--doh-url`, `--ipfs-gateway`): judged by where they lead, never a download's name. */
  via: string[];
}

const traffic = (): Traffic => ({ uploads: [], targets: [], found: [], remoteNames: false, proxies: [], via: [] });

/** The last path segment of a URL (what `curl -O` and wget name a download), or undefined. */
function urlName(raw: string): string | undefined {
  const u = parseUrl(raw);
  if (!u) return undefined;
  const name = u.pathname.split('/').pop() ?? '';
  return name === '' ? undefined : decodeURIComponent(name);
}

/** curl's URL globbing in an upload (`-T "{a,b}"`, `-T "f[1-3]"`): every alternative, and each range's ends. */
function globbed(v: string): string[] {
  const brace = /\{([^{}]*)\}/.exec(v);
  if (brace) return brace[1].split(',').flatMap((alt) => globbed(v.slice(0, brace.index) + alt + v.slice(brace.index + brace[0].length)));
  const range = /\[([^\]]*?)-([^\]]*?)(:\d+)?\]/.exec(v);
  if (range) return [range[1], range[2]].flatMap((end) => globbed(v.slice(0, range.index) + end + v.slice(range.index + range[0].length)));
  return [v];
}

/** The files a curl `-F` value reads: `name=@file[;type=…]`, `name=<file`, `"quoted;name"`, `;headers=@file`. */
function formFiles(v: string): string[] {
  const eq = v.indexOf('=');
  if (eq < 0) return [];
  const content = v.slice(eq + 1);
  const files: string[] = [];
  if (content.startsWith('@') || content.startsWith('<')) {
    const rest = content.slice(1);
    const file = rest.startsWith('"') ? rest.slice(1, rest.indexOf('"', 1) < 0 ? undefined : rest.indexOf('"', 1)) : rest.split(';')[0];
    files.push(file, ...(file.includes(',') ? file.split(',') : []));
  }
  for (const m of content.matchAll(/;\s*headers=[@<]"?([^;"]+)"?/g)) files.push(m[1]);
  return files;
}

/** What one curl option value sends (by its role). */
function curlSends(role: string | undefined, v: string): string[] {
  if (role === 'at') return v.startsWith('@') ? [v.slice(1)] : [];
  // `--data-urlencode`: the first of `@` and `=` decides: `[name]@file` reads a file, `[name]=text` does not.
  if (role === 'urlencode') {
    const at = v.search(/[@=]/);
    return at >= 0 && v[at] === '@' ? [v.slice(at + 1)] : [];
  }
  if (role === 'form') return formFiles(v);
  if (role === 'file') return globbed(v);
  if (role === 'cookie') return v.includes('=') ? [] : [v];
  if (role === 'variable') {
    const at = v.search(/[@=]/);
    return !v.startsWith('%') && at >= 0 && v[at] === '@' ? [v.slice(at + 1)] : [];
  }
  return [];
}

/** A curl `--variable %NAME` imports an environment variable, which `--expand-…` options then send. */
function envImport(name: string, v: string, via: string): Finding[] {
  if (!v.startsWith('%')) return [];
  const env = v.slice(1).split(/[=@]/)[0];
  return [finding('upload.env', /KEY|TOKEN|SECRET|PASS|AUTH|CRED|COOKIE|SESSION/i.test(env) ? 'L2' : 'L1', { p: name, v: env, o: via })];
}

/** The roles every table shares: a config file read, a path written, a folder downloads land in. */
function commonRole(t: Traffic, name: string, role: string | undefined, v: string, via: string, ctx: JudgeCtx): void {
  if (role === 'config') {
    if (v === '-' || v === '') return;
    t.found.push(
      secretFindings([v], ctx).length
        ? finding('upload.secret', 'L2', { p: name, f: v, o: via })
        : finding('upload.config', 'L2', { p: name, f: v, o: via }),
    );
  } else if (role === 'out' || role === 'rw') t.targets.push({ path: v, via });
  else if (role === 'outdir') t.outdir = v;
  else if (role === 'remote') t.remoteNames = true;
  else if (role === 'socket' || role === 'abstract') t.socket = { path: v, abstract: role === 'abstract' };
  else if (role === 'via-url') t.via.push(v);
  else if (role === 'proxy') t.proxies.push({ value: v, said: via.includes(v) ? via : `${via} ${v}` });
  // HTTPie's and xh's `--proxy PROTOCOL:URL` (`http:socks5://127.0.0.1:1080`).
  else if (role === 'proxy-for')
    t.proxies.push({ value: v.replace(/^[a-z][a-z0-9+.-]*:(?!\/\/)/i, ''), said: via.includes(v) ? via : `${via} ${v}` });
}

/** Where the requests go: a local socket (the engine's is the host), the engine's API on this
 * machine's loopback (`http://127.0.0.1:2375/…`), else the network. */
function whereTo(name: string, t: Traffic, urls: readonly string[], ctx: JudgeCtx, cat: Array<'network' | 'write'>): Finding[] {
  // A proxy is where the connection goes: the engine's socket or API there is the host, another socket is that socket.
  const proxied = t.proxies.flatMap((p) => proxyFindings(name, p.value, p.said, ctx));
  if (t.socket) return [...proxied, localSocketFinding(name, t.socket.path, ctx, t.socket.abstract)];
  const engine = [...urls, ...t.via].find(isEngineUrl);
  return [...proxied, ...(engine === undefined ? [] : [engineUrlFinding(name, engine)]), finding('network', 'L1', { p: name }, { cat })];
}

/** The findings of what was gathered, with the downloads that land under their URL's name. */
function trafficFindings(name: string, t: Traffic, urls: readonly string[], ctx: JudgeCtx, cat: Array<'network' | 'write'>): Finding[] {
  const targets = [...t.targets];
  if (t.outdir !== undefined) targets.push({ path: t.outdir, via: 'output folder' });
  if (t.remoteNames) {
    for (const u of urls) {
      const file = urlName(u);
      if (file) targets.push({ path: path.posix.join(t.outdir ?? '.', file), via: u });
    }
  }
  const written = targets.length > 0 || t.remoteNames;
  return [
    ...t.found,
    ...uploadFindings(name, t.uploads, ctx),
    ...writePathFindings(name, targets, ctx),
    ...whereTo(name, t, urls, ctx, written ? ['network', 'write'] : cat),
  ];
}

/** The options of a resolution with their value and how they were written (`-d @x`, `--data=@x`). */
function each(r: Resolution, fn: (role: string | undefined, effect: string | undefined, v: string, via: string) => void): void {
  for (const o of r.options) if (!o.negated) fn(o.spec.role, o.spec.effect, o.value ?? '', o.given);
}

/** curl options that send a request body or change the method: the request may change something there (a write as well as network use). */
const CURL_BODY = new Set([
  '-T',
  '-d',
  '--data-binary',
  '--data-raw',
  '--data-urlencode',
  '--data-ascii',
  '--json',
  '-F',
  '--form-string',
  '-X',
]);

/** The places curl's `--connect-to H1:P1:H2:P2` and `--resolve H:P:ADDR[,ADDR]` send a URL's
 * requests to, as URLs (an empty H2 or P2 keeps the URL's). */
function redirected(role: string | undefined, v: string, urls: readonly string[]): string[] {
  const part = String.raw`(\[[^\]]*\]|[^:]*)`;
  if (role === 'connect-to') {
    const m = new RegExp(`^${part}:(\\d*):${part}:(\\d*)$`).exec(v);
    if (!m) return [];
    const [, , , h2, p2] = m;
    return urls.flatMap((u) => {
      const url = parseUrl(u);
      if (!url) return [];
      return [`http://${h2 || url.hostname}:${p2 || url.port || (url.protocol === 'https:' ? '443' : '80')}`];
    });
  }
  if (role === 'resolve') {
    const m = /^\+?([^:]+|\[[^\]]*\]):(\d+|\*):(.+)$/.exec(v);
    if (!m) return [];
    return m[3].split(',').map((addr) => `http://${addr.includes(':') && !addr.startsWith('[') ? `[${addr}]` : addr}:${m[2]}`);
  }
  return [];
}

export function judgeCurl(args: readonly string[], name: string, ctx: JudgeCtx): Finding[] {
  // `--expand-data` is `--data` with {{variables}} expanded first.
  const r = resolveOptions(
    args.map((a) => (a.startsWith('--expand-') ? `--${a.slice(9)}` : a)),
    compiled(CURL),
  );
  const t = traffic();
  let sends = false;
  const outputs: WriteTarget[] = [];
  for (const o of r.options) {
    if (o.negated) continue;
    const { role, effect } = o.spec;
    const v = o.value ?? '';
    if (effect === 'exec') t.found.push(execArg(name, o.given));
    if (o.spec.names.some((n) => CURL_BODY.has(n))) sends = true;
    for (const file of curlSends(role, v)) t.uploads.push({ file, via: o.given });
    if (role === 'variable') t.found.push(...envImport(name, v, o.given));
    // `-o` files are named relative to `--output-dir`, wherever on the line it is.
    if (role === 'out' && o.spec.names.includes('--output')) outputs.push({ path: v, via: o.given });
    else commonRole(t, name, role, v, o.given, ctx);
  }
  for (const x of outputs)
    t.targets.push(
      t.outdir !== undefined && !path.posix.isAbsolute(x.path) && !x.path.startsWith('~') && x.path !== '-'
        ? { ...x, path: path.posix.join(t.outdir, x.path) }
        : x,
    );
  const urls = [...r.operands, ...r.options.filter((o) => o.spec.names.includes('--url') && o.value).map((o) => o.value!)];
  // `--connect-to ::127.0.0.1:2375` and `--resolve x.io:2375:127.0.0.1` aim a URL at the engine's API.
  const aimed = r.options.flatMap((o) => (o.negated ? [] : redirected(o.spec.role, o.value ?? '', urls)));
  return trafficFindings(name, t, [...urls, ...aimed], ctx, sends ? ['network', 'write'] : ['network']);
}

/** wget's `-e command`: a wgetrc line (`key = value`; `_` and `-` in the key ignored). */
function wgetrc(t: Traffic, name: string, line: string, via: string, ctx: JudgeCtx): void {
  const eq = line.indexOf('=');
  if (eq < 0) return;
  const key = line.slice(0, eq).trim().toLowerCase().replace(/[_-]/g, '');
  const v = line.slice(eq + 1).trim();
  const said = `${via} ${line}`;
  if (key === 'useaskpass') t.found.push(execArg(name, said));
  else if (key === 'postfile' || key === 'bodyfile' || key === 'loadcookies') t.uploads.push({ file: v, via: said });
  else if (key === 'outputdocument' || key === 'logfile' || key === 'savecookies' || key === 'warcfile' || key === 'hstsfile')
    t.targets.push({ path: v, via: said });
  else if (key === 'dirprefix') t.outdir = v;
  else if (key === 'httpproxy' || key === 'httpsproxy' || key === 'ftpproxy') t.proxies.push({ value: v, said });
  else commonRole(t, name, undefined, v, said, ctx);
}

export function judgeWget(args: readonly string[], name: string, ctx: JudgeCtx): Finding[] {
  const r = resolveOptions(args, compiled(WGET));
  const t = traffic();
  let document = false;
  each(r, (role, effect, v, via) => {
    if (effect === 'exec') t.found.push(execArg(name, via));
    if (role === 'file') t.uploads.push({ file: v, via });
    if (role === 'wgetrc') wgetrc(t, name, v, via, ctx);
    if (/^(-O|--output-d)/.test(via)) document = true;
    commonRole(t, name, role, v, via, ctx);
  });
  // Without -O, each URL is saved under its own name (in -P's folder).
  t.remoteNames = !document;
  return trafficFindings(name, t, r.operands, ctx, ['network', 'write']);
}

/** HTTPie's item separators, longest first at one position; those that read a file (3.x: `==@`, `:@`) are marked. */
const ITEM_SEPARATORS: ReadonlyArray<[string, boolean]> = [
  [':=@', true],
  ['==@', true],
  ['=@', true],
  [':@', true],
  ['==', false],
  [':=', false],
  ['=', false],
  [':', false],
  ['@', true],
  [';', false],
];

/** The file an HTTPie / xh request item reads (`field=@file`, `field:=@file`, `q==@file`, `Header:@file`, `name@file;type=…`, `@file`), by the first separator in it (`\\` escapes one). */
function itemFile(item: string): string | undefined {
  for (let i = 0; i < item.length; i++) {
    if (item[i] === '\\') {
      i++;
      continue;
    }
    const sep = ITEM_SEPARATORS.find(([s]) => item.startsWith(s, i));
    if (!sep) continue;
    if (!sep[1]) return undefined;
    const rest = item.slice(i + sep[0].length);
    return sep[0] === '@' ? rest.replace(/;type=[^;]*$/, '') : rest;
  }
  return undefined;
}

export function judgeHttpie(args: readonly string[], name: string, ctx: JudgeCtx): Finding[] {
  const r = resolveOptions(args, compiled(HTTPIE));
  const t = traffic();
  each(r, (role, _effect, v, via) => {
    // A session given by path (not by name) is read (its cookies and credentials are sent) and written.
    if (role === 'session' && /[/\\]/.test(v)) {
      t.uploads.push({ file: v, via });
      t.targets.push({ path: v, via });
    }
    commonRole(t, name, role, v, via, ctx);
  });
  const ops = r.operands;
  // [METHOD] URL [ITEM...]
  const start = ops.length > 1 && /^[A-Za-z]+$/.test(ops[0]) ? 2 : 1;
  for (const item of ops.slice(start)) {
    const file = itemFile(item);
    if (file !== undefined) t.uploads.push({ file, via: item });
  }
  const url = ops[start - 1];
  // `:3000/x` is localhost's; `http+unix://%2Frun%2Fx.sock/path` (HTTPie's unixsocket plugin) is a Unix socket.
  const unix = /^https?\+unix:\/\/([^/]+)/i.exec(url ?? '');
  if (unix && !t.socket) t.socket = { path: safeDecode(unix[1]), abstract: false };
  const said = url?.startsWith(':') ? `localhost${url}` : url;
  return trafficFindings(name, t, said ? [said] : [], ctx, t.uploads.length || start === 2 ? ['network', 'write'] : ['network']);
}

export function judgeAria2c(args: readonly string[], name: string, ctx: JudgeCtx): Finding[] {
  const r = resolveOptions(args, compiled(ARIA2C));
  const t = traffic();
  // `-o` names the file inside `-d`'s folder, wherever on the line each is.
  const names: Array<{ file: string; via: string }> = [];
  each(r, (role, effect, v, via) => {
    if (effect === 'exec') t.found.push(execArg(name, via));
    if (role === 'file') t.uploads.push({ file: v, via });
    if (role === 'out' && /^(-o|--out$|--out=)/.test(via)) names.push({ file: v, via });
    else commonRole(t, name, role, v, via, ctx);
  });
  for (const n of names)
    t.targets.push({ path: path.posix.isAbsolute(n.file) ? n.file : path.posix.join(t.outdir ?? '.', n.file), via: n.via });
  t.remoteNames = names.length === 0;
  return trafficFindings(name, t, r.operands, ctx, ['network', 'write']);
}
