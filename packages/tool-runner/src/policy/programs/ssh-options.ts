/**
 * ssh's options as ssh, scp and sftp read them (getopt clusters, `-oKey=Value` or `-o "Key Value"`,
 * keys without case): the ones that make ssh run a local program (ProxyCommand, LocalCommand with
 * PermitLocalCommand, KnownHostsCommand, Match exec, Include, a PKCS#11 or security-key library,
 * XAuthLocation, `-S`/`-D` programs of scp and sftp), read a configuration that can name them
 * (`-F` other than the user's own or none), hand the remote host the use of local keys or the
 * display (agent and X11 forwarding), send local environment variables, or write a file.
 */
import { uploadFindings, writePathFindings, type Upload, type WriteTarget } from '../effects';
import { finding, type Finding, type JudgeCtx } from '../finding';
import { normalisePathArg } from '../paths';
import { execArg } from './common';

/** Short options that take a value, per program (the rest are flags). */
export const SSH_VALUED: Record<string, string> = { ssh: 'BbcDEeFIiJLlmOoPpQRSWw', scp: 'cDFiJloPSX', sftp: 'BbcDFiJloPRSs' };

/** An option as the program reads it: its letter and its value (attached or the next word). */
export interface ShortOpt {
  letter: string;
  value?: string;
  given: string;
}

/**
 * getopt's reading of `args` for short options `valued` (letters taking a value): the options, and
 * where the operands start (ssh and scp stop at the first operand; `--` ends the options).
 */
export function shortOptions(args: readonly string[], valued: string): { opts: ShortOpt[]; operands: string[] } {
  const opts: ShortOpt[] = [];
  let i = 0;
  for (; i < args.length; i++) {
    const a = args[i];
    if (a === '--') {
      i++;
      break;
    }
    if (a.length < 2 || a[0] !== '-') break;
    for (let k = 1; k < a.length; k++) {
      const letter = a[k];
      if (!valued.includes(letter)) {
        opts.push({ letter, given: a });
        continue;
      }
      const value = k + 1 < a.length ? a.slice(k + 1) : args[++i];
      opts.push({ letter, value, given: value !== undefined && k + 1 >= a.length ? `${a} ${value}` : a });
      break;
    }
  }
  return { opts, operands: args.slice(i) };
}

/** `-o` keys that run a local program (or load code), and the value that keeps them off. */
const EXEC_KEYS: Record<string, RegExp | undefined> = {
  proxycommand: /^none$/i,
  localcommand: undefined,
  permitlocalcommand: /^no$/i,
  knownhostscommand: /^none$/i,
  match: undefined,
  include: undefined,
  pkcs11provider: /^none$/i,
  securitykeyprovider: /^internal$/i,
  xauthlocation: undefined,
  remotecommand: /^none$/i,
  localforward: undefined,
  remoteforward: undefined,
  dynamicforward: undefined,
  tunnel: /^no$/i,
  tunneldevice: undefined,
  stdinnull: undefined,
};

/** `-o` keys that give the remote host the use of local keys or of the display. */
const FORWARD_KEYS: Record<string, RegExp> = { forwardagent: /^no$/i, forwardx11: /^no$/i, forwardx11trusted: /^no$/i };

/** `-o` keys whose value is a file ssh writes (known hosts it learns, a control socket, a log). */
const WRITE_KEYS = new Set(['userknownhostsfile', 'globalknownhostsfile', 'controlpath']);

/** A ProxyJump / `-J` value that is only hosts (`[user@]host[:port][,…]`), not options smuggled in. */
const JUMP_RE =
  /^(none|([A-Za-z0-9._%+-]+@)?(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._-]+)(:\d+)?(,([A-Za-z0-9._%+-]+@)?(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._-]+)(:\d+)?)*)$/;

/** One `-o` value: `Key=Value`, `Key Value`, `Key = Value`. */
function optionFindings(name: string, raw: string, ctx: JudgeCtx): Finding[] {
  const m = /^\s*([A-Za-z0-9]+)\s*(?:=\s*|\s+)(.*)$/s.exec(raw);
  const key = (m ? m[1] : raw.trim()).toLowerCase();
  const value = m ? m[2].trim().replace(/^"(.*)"$/s, '$1') : '';
  const said = `-o ${raw}`;
  if (Object.prototype.hasOwnProperty.call(EXEC_KEYS, key)) {
    const off = EXEC_KEYS[key];
    return off && off.test(value) ? [] : [finding('ssh.exec_option', 'L2', { p: name, a: said })];
  }
  if (key === 'proxyjump') return JUMP_RE.test(value) ? [] : [finding('ssh.exec_option', 'L2', { p: name, a: said })];
  if (Object.prototype.hasOwnProperty.call(FORWARD_KEYS, key))
    return FORWARD_KEYS[key].test(value) ? [] : [finding('ssh.forward', 'L2', { p: name, a: said })];
  if (key === 'sendenv' || key === 'setenv') return [finding('upload.env', 'L1', { p: name, v: value, o: said })];
  if (WRITE_KEYS.has(key) && value && value.toLowerCase() !== 'none')
    return value.split(/\s+/).flatMap((f) => writePathFindings(name, [{ path: f, via: said }], ctx));
  return [];
}

/** `-F file`: none, /dev/null and the user's own configuration are fine; any other file can name programs ssh runs. */
function configFindings(name: string, file: string, ctx: JudgeCtx): Finding[] {
  if (file === 'none' || file === '/dev/null') return [];
  const p = normalisePathArg(file, ctx);
  const home = ctx.home?.replace(/\/+$/, '');
  if (p !== undefined && (p === '/etc/ssh/ssh_config' || (home !== undefined && p === `${home}/.ssh/config`))) return [];
  return [finding('ssh.config_file', 'L2', { p: name, f: file })];
}

/**
 * The findings of ssh's, scp's or sftp's options: programs they run, configurations they read,
 * forwarding, environment sent, files written (`-E` log, known hosts, control sockets).
 */
export function sshOptionFindings(name: 'ssh' | 'scp' | 'sftp', opts: readonly ShortOpt[], ctx: JudgeCtx): Finding[] {
  const out: Finding[] = [];
  for (const o of opts) {
    const v = o.value ?? '';
    if (o.letter === 'o') out.push(...optionFindings(name, v, ctx));
    else if (o.letter === 'F') out.push(...configFindings(name, v, ctx));
    else if (o.letter === 'J' && !JUMP_RE.test(v)) out.push(finding('ssh.exec_option', 'L2', { p: name, a: o.given }));
    else if ((o.letter === 'S' && name !== 'ssh') || (o.letter === 'D' && name !== 'ssh')) out.push(execArg(name, o.given));
    else if (o.letter === 'A' || (name === 'ssh' && (o.letter === 'X' || o.letter === 'Y')))
      out.push(finding('ssh.forward', 'L2', { p: name, a: o.given }));
    else if (o.letter === 'E' && name === 'ssh') out.push(...writePathFindings(name, [{ path: v, via: '-E' }], ctx));
    else if (o.letter === 'b' && name === 'sftp' && v !== '-') out.push(finding('upload.config', 'L2', { p: name, f: v, o: o.given }));
  }
  return out;
}

/** An scp / rsync / rclone operand that names another host (`host:path`, `user@host:path`, `rsync://`, `scp://`), not a local path (`./a:b`, `C:\\x`). */
export function isRemote(word: string): boolean {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(word)) return true;
  if (/^[A-Za-z]:\\/.test(word)) return false;
  const colon = word.indexOf(':');
  return colon > 0 && !word.slice(0, colon).includes('/');
}

/**
 * A copy between hosts (`scp a b host:`, `rsync -a src host:dst`, `rclone copy src remote:`): the
 * last operand is the destination; when it is remote, every local source is an upload; when it is
 * local, it is a write target (from another host or from here).
 */
export function copyFindings(name: string, operands: readonly string[], ctx: JudgeCtx, via: string): Finding[] {
  if (operands.length < 2) return [];
  const dest = operands[operands.length - 1];
  const sources = operands.slice(0, -1);
  if (isRemote(dest)) {
    const uploads: Upload[] = sources.filter((s) => !isRemote(s)).map((file) => ({ file, via }));
    return uploadFindings(name, uploads, ctx);
  }
  const targets: WriteTarget[] = [{ path: dest, via }];
  return writePathFindings(name, targets, ctx);
}
