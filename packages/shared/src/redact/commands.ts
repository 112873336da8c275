import { isPlaceholder, isSecretName, looksLikeCode, nameWords } from './names';
import { mask, type Learn } from './tokens';
import { openingQuote, quotedEnd, trimEnd, wordEnd } from './values';
import { count, replaceMatches, type Reach } from './work';

/**
 * Secrets on command lines, as the shell and the program read them: the value of an option is
 * one shell word, whatever punctuation it holds (`--password=p@ss,w0rd;1`, `--passwd=a&b=c`,
 * `--api-key=k3y(1)[2]`), or a quoted string with its spaces (`--password 'a b;c'`,
 * `mysql -p'p@ss w0rd'`). Options are `--name=v`, `--name v`, and single-dash long options
 * (`-Dpassword=v`, `-storepass v`, `plink -pw v`, `openssl -passin pass:v`); short options only
 * for the programs that take a password in one ({@link PASSWORD_OPTIONS}).
 */

/** A short option that takes a password: attached (`-pSECRET`) and/or as the next word (`-a SECRET`). */
export interface PasswordOption {
  flag: string;
  attached: boolean;
  separate: boolean;
  /** Only after this subcommand (`docker login -p`; `docker run -p 80:80` is a port). */
  sub?: string;
}

const attachedOnly = (flag: string): PasswordOption => ({ flag, attached: true, separate: false });
const either = (flag: string, sub?: string): PasswordOption => ({ flag, attached: true, separate: true, ...(sub ? { sub } : {}) });
const each = (names: string[], options: PasswordOption[]): Array<[string, PasswordOption[]]> => names.map((n) => [n, options]);

/**
 * Programs that take a password in a short option, from their manuals: the MySQL / MariaDB
 * clients (`-p` attached only: `-p pass` asks, then opens the database `pass`), sshpass, the Redis
 * family (`-a`), OpenLDAP's tools (`-w`, and ldappasswd's old and new password), SQL Server's
 * sqlcmd / bcp (`-P`), zip / unzip (`-P`), 7-Zip and RAR (`-p` attached), the MongoDB tools
 * (`-p`), and `login` of the container registries' clients, `oc login` and `az login` (`-p`).
 */
export const PASSWORD_OPTIONS: Record<string, readonly PasswordOption[]> = Object.fromEntries([
  ...each(
    [
      'mysql',
      'mysqldump',
      'mysqladmin',
      'mysqlimport',
      'mysqlshow',
      'mysqlcheck',
      'mysqlpump',
      'mysqlslap',
      'mysqlbinlog',
      'mysql_upgrade',
      'mariadb',
      'mariadb-dump',
      'mariadb-admin',
      'mariadb-import',
      'mariadb-show',
      'mariadb-check',
      'mariadb-slap',
      'mariadb-binlog',
      'mariadb-upgrade',
    ],
    [attachedOnly('-p')],
  ),
  ['sshpass', [either('-p')]],
  ...each(['redis-cli', 'valkey-cli', 'keydb-cli'], [either('-a')]),
  ...each(['ldapsearch', 'ldapadd', 'ldapmodify', 'ldapdelete', 'ldapwhoami', 'ldapmodrdn', 'ldapcompare', 'ldapexop'], [either('-w')]),
  ['ldappasswd', [either('-w'), either('-a'), either('-s')]],
  ...each(['sqlcmd', 'bcp', 'osql'], [either('-P')]),
  ...each(['zip', 'unzip', 'zipcloak'], [either('-P')]),
  ...each(['7z', '7za', '7zr', 'rar', 'unrar'], [attachedOnly('-p')]),
  ...each(
    ['mongo', 'mongosh', 'mongodump', 'mongorestore', 'mongoexport', 'mongoimport', 'mongofiles', 'mongostat', 'mongotop'],
    [either('-p')],
  ),
  ...each(['docker', 'podman', 'buildah', 'skopeo', 'nerdctl', 'oras', 'oc', 'az'], [either('-p', 'login')]),
]);

const PROGRAM_NAMES = Object.keys(PASSWORD_OPTIONS)
  .sort((a, b) => b.length - a.length)
  .map((n) => n.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
const PROGRAM_ANY = new RegExp(`(?:${PROGRAM_NAMES.join('|')})(?![A-Za-z0-9_-])`);
const FLAG_ANY = /[ \t]-[pawPs]/;
const PROGRAM_RE = new RegExp(`(?<![A-Za-z0-9_./\\]-])(${PROGRAM_NAMES.join('|')})(?![A-Za-z0-9_-])([^\\n]{0,400})`, 'g');

/** The shell words of a command line: white space outside quotes splits them (a quoted part keeps its spaces). */
const WORD = /(?:[^\s"'\\]|\\.|"(?:[^"\\\n]|\\.)*"|'[^'\n]*')+/g;

/** A value's text to mask: the inside of a value quoted whole, else the value as it is. */
function unquoted(value: string): { q: string; inner: string } {
  const q = value[0];
  if ((q === '"' || q === "'") && value.length >= 2 && value.endsWith(q)) return { q, inner: value.slice(1, -1) };
  return { q: '', inner: value };
}

/** A value that names where the secret is rather than holding it: a variable, a command substitution, a placeholder. */
function reference(value: string): boolean {
  return (
    isPlaceholder(value) || /^[$`]/.test(value) || /^%\w+%$/.test(value) || /^<[^<>\s]{1,60}>/.test(value) || value.includes('[redacted')
  );
}

function hideWord(value: string, learn: Learn): string | undefined {
  const { q, inner } = unquoted(value);
  if (inner === '' || reference(inner)) return undefined;
  learn(inner);
  return `${q}${mask('password', inner)}${q}`;
}

function maskProgramLine(m: string, program: string, rest: string, learn: Learn): string | undefined {
  const words = [...rest.matchAll(WORD)].map((w) => ({ at: w.index, text: w[0] }));
  count(0, 0, rest.length);
  const options = PASSWORD_OPTIONS[program].filter((o) => !o.sub || words[0]?.text === o.sub);
  if (options.length === 0) return undefined;
  const out: Array<[number, number, string]> = [];
  for (let i = 0; i < words.length; i++) {
    const w = words[i];
    // `--` ends the options; `;`, `|`, `&&` or a backquote ends the command.
    if (w.text === '--' || /^(?:;|\||\|\||&&?)$/.test(w.text)) break;
    for (const o of options) {
      let hidden: string | undefined;
      if (o.attached && w.text.startsWith(o.flag) && w.text.length > o.flag.length && !w.text.startsWith('--')) {
        hidden = hideWord(w.text.slice(o.flag.length), learn);
        if (hidden) out.push([w.at + o.flag.length, w.at + w.text.length, hidden]);
      } else if (o.separate && w.text === o.flag && i + 1 < words.length && !words[i + 1].text.startsWith('-')) {
        const next = words[++i];
        hidden = hideWord(next.text, learn);
        if (hidden) out.push([next.at, next.at + next.text.length, hidden]);
      }
      if (hidden || w !== words[i]) break;
    }
    if (/[;|`]$/.test(words[i].text)) break;
  }
  if (out.length === 0) return undefined;
  let text = '';
  let at = 0;
  for (const [a, b, r] of out) {
    text += rest.slice(at, a) + r;
    at = b;
  }
  return program + text + rest.slice(at);
}

/**
 * `--name=v`, `--name v`, `-name=v`, `-name v` (single-dash long options: `-Dpassword=`,
 * `-storepass`, `-pw`). The name must hold a secret word; the value is read by {@link optionValue}.
 */
const OPTION_RE = /(?<![^\s"'=[,(])(-{1,2}[A-Za-z][A-Za-z0-9_.-]{1,63})(=|[ \t]+)/g;

/** The value after an option at `from`: a quoted string (its escapes included) or a shell word; [end, text]. */
function optionValue(text: string, from: number): { end: number; value: string } {
  const q = text[from];
  if (q === '"' || q === "'") {
    const re = q === '"' ? /"(?:[^"\\\n]|\\.){0,1024}"/y : /'[^'\n]{0,1024}'/y;
    re.lastIndex = from;
    if (re.test(text)) return { end: re.lastIndex, value: text.slice(from, re.lastIndex) };
  }
  const end = trimEnd(text, from, wordEnd(text, from));
  return { end, value: text.slice(from, end) };
}

/** A value that names itself (`--password PASSWORD`, `--api-key KEY`): a help text's placeholder. */
function metavar(name: string, value: string): boolean {
  if (!/^[A-Z][A-Z0-9_-]{0,31}$/.test(value)) return false;
  const words = nameWords(name);
  const v = value.toLowerCase().replace(/[-_]/g, '');
  return words.includes(v) || words.join('') === v;
}

function maskOption(m: RegExpExecArray, learn: Learn): Reach | undefined {
  const [whole, name, sep] = m;
  if (!isSecretName(name)) return undefined;
  const from = m.index + whole.length;
  const input = m.input;
  // `'--password=' + pw`: the quote after `=` closes the string the option stands in.
  if (sep === '=' && m.index > 0 && /["']/.test(input[m.index - 1]) && input[from] === input[m.index - 1]) return undefined;
  // The next option, or `-cookie =?` (an option table): no value here.
  if (input[from] === '-' || input[from] === '=' || from >= input.length) return undefined;
  // `"--password=a b"`: the option opens a quoted word, whose closing quote ends the value.
  const opened = sep === '=' ? openingQuote(input, m.index) : '';
  const closing = opened ? quotedEnd(input, from, opened) : -1;
  const { end, value } = closing > from ? { end: closing, value: input.slice(from, closing) } : optionValue(input, from);
  // `--api-key sk-[redacted openai key, …]`: a token the gate masked already; its prefix stays.
  if (input.startsWith('[redacted', end)) return undefined;
  const { q, inner } = unquoted(value);
  count(0, 0, value.length);
  if (inner === '' || reference(inner) || metavar(name, inner)) return undefined;
  // `--token string` in a help text, `--password getpass()`: code after a space, not a value.
  if (sep !== '=' && !q && looksLikeCode(name, inner)) return undefined;
  learn(inner);
  return { text: `${name}${sep}${q}${mask(name.replace(/^-+/, ''), inner)}${q}`, end };
}

/** Mask option values and the short password options of {@link PASSWORD_OPTIONS} in `text`. */
export function maskCommandLines(text: string, learn: Learn): string {
  let out = text.includes('-') ? replaceMatches(text, OPTION_RE, (m) => maskOption(m, learn)) : text;
  if (PROGRAM_ANY.test(out) && FLAG_ANY.test(out))
    out = replaceMatches(out, PROGRAM_RE, ([m, program, rest]) => maskProgramLine(m, program, rest, learn));
  return out;
}
