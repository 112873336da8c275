/**
 * Option tables of the remaining plain readers (coreutils, util-linux, binutils, code counters).
 * Small, stable option sets are listed whole, so an option they do not know asks. Large ones
 * (lsof, eza, cloc...) are `open`: their manuals were read for options that write a file, run a
 * program or reach the network; those are listed with their effect and the rest only change what
 * is read or shown. Programs whose arguments are never options (`echo`, `test`) say so.
 */
import { opts, type ProgramOptions } from './resolve';

const T = (o: Omit<ProgramOptions, 'opts'>, ...entries: string[]): ProgramOptions => ({ ...o, opts: opts('--help', '--version', ...entries) });
const OPEN = (...entries: string[]): ProgramOptions => T({ open: true }, ...entries);
const NONE: ProgramOptions = { noOptions: true, opts: [] };

const sums = ['-b --binary', '-c --check', '--tag', '-t --text', '-z --zero', '--ignore-missing', '--quiet', '--status', '--strict', '-w --warn'];
const sum = T({}, ...sums);
const basenc = T(
  {},
  '-d --decode', '-i --ignore-garbage', '-w --wrap =', '--base64', '--base64url', '--base32', '--base32hex', '--base16', '--base2msbf', '--base2lsbf', '--z85',
);
/** binutils: `--plugin NAME` loads a shared object into the program. */
const binutils = OPEN('--plugin = exec');
/** Programs that only print: options change what is shown, never an effect (checked in their manuals). */
const show = OPEN();

export const READER_TABLES: Record<string, ProgramOptions> = {
  tac: T({}, '-b --before', '-r --regex', '-s --separator ='),
  nl: T(
    {},
    '-b --body-numbering =', '-d --section-delimiter =', '-f --footer-numbering =', '-h --header-numbering =', '-i --line-increment =',
    '-l --join-blank-lines =', '-n --number-format =', '-p --no-renumber', '-s --number-separator =', '-v --starting-line-number =', '-w --number-width =',
  ),
  strings: T({ numeric: true }, '-a --all', '-d --data', '-f --print-file-name', '-n --bytes =', '-t --radix =', '-o', '-T --target =', '-e --encoding =', '-w --include-all-whitespace', '-s --output-separator =', '-U --unicode =', '-v -V', '-h'),
  pwd: T({}, '-L --logical', '-P --physical'),
  echo: NONE,
  printf: NONE,
  true: NONE,
  false: NONE,
  test: NONE,
  '[': NONE,
  expr: NONE,
  sleep: NONE,
  yes: NONE,
  factor: NONE,
  whereis: T({}, '-b', '-m', '-s', '-u', '-B =', '-M =', '-S =', '-f', '-l', '-g', '-h', '-V'),
  realpath: T(
    {},
    '-e --canonicalize-existing', '-m --canonicalize-missing', '-L --logical', '-P --physical', '-q --quiet', '--relative-to =', '--relative-base =',
    '-s --strip --no-symlinks', '-z --zero',
  ),
  readlink: T({}, '-f --canonicalize', '-e --canonicalize-existing', '-m --canonicalize-missing', '-n --no-newline', '-q --quiet', '-s --silent', '-v --verbose', '-z --zero'),
  basename: T({}, '-a --multiple', '-s --suffix =', '-z --zero'),
  dirname: T({}, '-z --zero'),
  whoami: T({}),
  id: T({}, '-a', '-Z --context', '-g --group', '-G --groups', '-n --name', '-r --real', '-u --user', '-z --zero', '-p', '-P', '-F', '-A', '-M'),
  groups: T({}),
  users: T({}),
  arch: T({}),
  tty: T({}, '-s --silent --quiet'),
  nproc: T({}, '--all', '--ignore ='),
  uptime: T({}, '-p --pretty', '-s --since', '-c --container', '-r --raw', '-V', '-h'),
  seq: T({ numeric: true }, '-f --format =', '-s --separator =', '-w --equal-width', '-t ='),
  comm: T({}, '-1', '-2', '-3', '--check-order', '--nocheck-order', '--output-delimiter =', '--total', '-z --zero-terminated', '-i'),
  fold: T({ numeric: true }, '-b --bytes', '-s --spaces', '-w --width ='),
  fmt: T({ numeric: true }, '-c --crown-margin', '-p --prefix =', '-s --split-only', '-t --tagged-paragraph', '-u --uniform-spacing', '-w --width =', '-g --goal ='),
  expand: T({ numeric: true }, '-i --initial', '-t --tabs ='),
  unexpand: T({ numeric: true }, '-a --all', '--first-only', '-t --tabs ='),
  paste: T({}, '-d --delimiters =', '-s --serial', '-z --zero-terminated'),
  join: T({}, '-a =', '-e =', '-i --ignore-case', '-j =', '-o =', '-t =', '-v =', '-z --zero-terminated', '-1 =', '-2 =', '--check-order', '--nocheck-order', '--header'),
  rev: T({}, '-0 --zero', '-h', '-V'),
  tsort: T({}),
  md5sum: sum, sha1sum: sum, sha224sum: sum, sha256sum: sum, sha384sum: sum, sha512sum: sum,
  b2sum: T({}, ...sums, '-l --length ='),
  cksum: T({}, ...sums, '-a --algorithm =', '--base64', '-l --length =', '--raw', '--untagged', '--debug'),
  sum: T({}, '-r', '-s --sysv'),
  md5: T({}, '-p', '-q', '-r', '-s =', '-t', '-x', '-c =', '-b'),
  shasum: T({}, '-a --algorithm =', '-b --binary', '-c --check', '-t --text', '-U --UNIVERSAL', '-0 --01', '-s --status', '-w --warn', '--tag', '--ignore-missing', '-q --quiet', '--strict', '-h', '-v'),
  xxhsum: OPEN(),
  base32: basenc,
  basenc,
  numfmt: T(
    {},
    '-d --delimiter =', '--debug', '--field =', '--format =', '--from =', '--from-unit =', '--grouping', '--header =?', '--invalid =', '--padding =',
    '--round =', '--suffix =', '--unit-separator =', '--to =', '--to-unit =', '-z --zero-terminated',
  ),
  column: T(
    {},
    '-t --table', '-s --separator =', '-o --output-separator =', '-c --output-width =', '-x --fillrows', '-N --table-columns =', '-l --table-columns-limit =',
    '-R --table-right =', '-T --table-truncate =', '-E --table-noextreme =', '-W --table-wrap =', '-H --table-hide =', '-O --table-order =', '-n --table-name =',
    '-J --json', '-r --tree =', '-i --tree-id =', '-p --tree-parent =', '-d --table-noheadings', '-e --table-header-repeat', '-L --keep-empty-lines', '-V', '-h',
  ),
  look: T({}, '-a --alternative', '-b', '-d --alphanum', '-f --ignore-case', '-t --terminate =', '-V', '-h'),
  locale: T({}, '-a --all-locales', '-m --charmaps', '-c --category-name', '-k --keyword-name', '-v --verbose', '-?'),
  getconf: T({}, '-a', '-v ='),
  lsb_release: T({}, '-v', '-i --id', '-d --description', '-r --release', '-c --codename', '-a --all', '-s --short', '-h'),
  sw_vers: show,
  cal: show, free: show, vmstat: show, iostat: show, lscpu: show, lsblk: show, lsusb: show, lsmod: show, findmnt: show,
  pgrep: show, pstree: show, w: show, who: show, last: show, lsof: show, getent: show, tput: show, 'fc-list': show,
  eza: show, exa: show, lsd: show, dust: show, duf: show, hexyl: show, tokei: show, otool: show, readelf: show, mdfind: show, system_profiler: show,
  type: NONE, hash: NONE,
  nm: binutils, objdump: binutils, size: binutils,
  // lastlog's -C/-S clear or set login records; blkid -g rewrites its cache, -c names it.
  lastlog: OPEN('-C --clear system', '-S --set system'),
  blkid: OPEN('-g --garbage-collect write', '-c --cache-file = write'),
  lspci: OPEN('-F = read-any', '-i = read-any', '-p = read-any', '-A =', '-H =', '-O ='),
  locate: OPEN('-d --database = read-any'),
  plocate: OPEN('-d --database = read-any'),
  whatis: OPEN('-C --config-file = read-any', '-M --manpath ='),
  apropos: OPEN('-C --config-file = read-any', '-M --manpath ='),
  diff3: T(
    {},
    '-A --show-all', '-e --ed', '-E --show-overlap', '-3 --easy-only', '-x --overlap-only', '-X', '-i', '-m --merge', '-a --text', '--strip-trailing-cr', '-T --initial-tab',
    '--diff-program = exec', '-L --label =',
  ),
  sdiff: T(
    {},
    '-o --output = write', '-i --ignore-case', '-E --ignore-tab-expansion', '-Z --ignore-trailing-space', '-b --ignore-space-change', '-W --ignore-all-space',
    '-B --ignore-blank-lines', '-I --ignore-matching-lines =', '--strip-trailing-cr', '-a --text', '-w --width =', '-l --left-column', '-s --suppress-common-lines',
    '-t --expand-tabs', '--tabsize =', '-d --minimal', '-H --speed-large-files', '--diff-program = exec',
  ),
  // Counters that write reports or run a version-control command of the caller's choice.
  cloc: OPEN(
    '--report-file = write', '--out = write', '--sql = write', '--sql-append write', '--write-lang-def = write', '--write-lang-def-incl-dup = write',
    '--vcs = exec', '--force-lang-def = read-any', '--read-lang-def = read-any', '--list-file = read-any', '--exclude-list-file = read-any',
    '--config = read-any', '--read-binary-files', '--unicode', '--diff-list-file = read-any', '--script-lang =', '--follow-links',
  ),
  scc: OPEN('-o --output = write', '--format-multi = write', '--remap-all =', '--remap-unknown ='),
};
