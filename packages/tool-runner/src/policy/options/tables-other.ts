/** Option tables of data, archive, system and toolchain programs judged read-only. */
import { opts, type ProgramOptions } from './resolve';

const T = (o: Omit<ProgramOptions, 'opts'>, ...entries: string[]): ProgramOptions => ({
  ...o,
  opts: opts('--help', '--version', ...entries),
});

// prettier-ignore
export const jq = T(
  {},
  '-n --null-input', '-R --raw-input', '-s --slurp', '-c --compact-output', '-r --raw-output', '--raw-output0', '-j --join-output',
  '-a --ascii-output', '-S --sort-keys', '-C --color-output', '-M --monochrome-output', '--tab', '--indent =', '--unbuffered', '--stream',
  '--stream-errors', '--seq', '-f --from-file = read-any', '-L --library-path = read-any', '-e --exit-status', '--arg ==', '--argjson ==',
  '--slurpfile == read-any', '--rawfile == read-any', '--args', '--jsonargs', '-h', '-V', '--build-configuration',
);

// prettier-ignore
export const yq = T(
  {},
  '-i --inplace --in-place write', '-o --output-format =', '-p --input-format =', '-e --exit-status', '-n --null-input',
  '-r --unwrapScalar', '-P --prettyPrint', '-C --colors', '-M --no-colors', '-I --indent =', '-s --split-exp = write',
  '--split-exp-file = write', '-N --no-doc', '--from-file = read-any', '--front-matter =', '--header-preamble', '-0 --nul-output',
  '--expression =', '-v --verbose', '-y --yaml-output', '-Y --yaml-roundtrip', '-j --tojson', '--xml-attribute-prefix =',
  '--xml-content-name =', '--security-disable-env-ops', '--security-disable-file-ops', '-h', '-V',
);

export const base64 = T({}, '-d --decode', '-D', '-i --ignore-garbage', '-w --wrap =', '-b --break =');
// prettier-ignore
export const od = T(
  {},
  '-A --address-radix =', '-j --skip-bytes =', '-N --read-bytes =', '-S --strings =?', '-t --format =', '-v --output-duplicates',
  '-w --width =?', '--endian =', '--traditional', '-a', '-b', '-c', '-d', '-D', '-e', '-f', '-F', '-h', '-H', '-i', '-I', '-l', '-L', '-o',
  '-O', '-s', '-x', '-X',
);
// prettier-ignore
export const hexdump = T(
  {},
  '-b', '-c', '-C --canonical', '-d', '-o', '-x', '-X', '-e --format =', '-f --format-file = read-any', '-n --length =', '-s --skip =',
  '-v --no-squeezing', '-L --color =?',
);
// prettier-ignore
export const xxd = T(
  { singleDashLong: true, prefixes: true },
  '-a -autoskip', '-b -bits', '-C -capitalize', '-c -cols =', '-E -EBCDIC', '-e', '-g -groupsize =', '-h -help', '-i -include', '-l -len =',
  '-n -name =', '-o -offset =', '-p -ps -postscript -plain', '-r -revert', '-d', '-R =', '-s -seek =', '-u', '-v -version',
);

// prettier-ignore
export const tar = T(
  {},
  '-t --list', '-v --verbose', '-f --file =', '-z --gzip --gunzip --ungzip', '-j --bzip2', '-J --xz', '--zstd', '--lzma', '--lzip',
  '--lzop', '-a --auto-compress', '-C --directory =', '-O --to-stdout', '--wildcards', '--no-wildcards', '--exclude =',
  '-T --files-from = read-any', '-X --exclude-from = read-any', '--to-command = exec', '-I --use-compress-program = exec',
  '--checkpoint =?', '--checkpoint-action = exec', '--rsh-command = exec', '--info-script --new-volume-script = exec', '-F exec',
  '--index-file = write', '--force-local', '--numeric-owner', '--show-transformed-names', '--strip-components =', '--transform --xform =',
  '--recursion', '--no-recursion', '--full-time', '--utc', '-R --block-number', '-b --blocking-factor =', '-H --format =',
  '--occurrence =?', '-n --seek', '--null', '--quoting-style =', '--totals =?', '--warning =', '-V --label =', '--anchored',
  '--no-anchored', '--ignore-case', '--exclude-vcs', '--exclude-vcs-ignores', '-B --read-full-records', '-i --ignore-zeros',
  '-s --same-order --preserve-order', '-w --interactive --confirmation', '-g --listed-incremental = write', '-G --incremental', '-q',
  '--quiet', '--exclude-caches', '--exclude-backups', '--show-omitted-dirs', '--list-none',
);

// prettier-ignore
export const unzip = T(
  {},
  '-l', '-v', '-t', '-z', '-Z', '-p', '-c', '-q', '-qq', '-1', '-2', '-s', '-m', '-h', '-M', '-T', '-C', '-L', '-a', '-b', '-j', '-n', '-o',
  '-x =', '-P =', '-O =', '-I =', '-d =',
);

// prettier-ignore
const compressor = [
  '-c --stdout --to-stdout', '-d --decompress --uncompress', '-z --compress', '-f --force', '-k --keep', '-l --list', '-t --test',
  '-q --quiet', '-v --verbose', '-n --no-name', '-N --name', '-r --recursive', '-S --suffix =', '-L --license', '-V', '-h', '--fast',
  '--best',
];
export const gzip = T({ numeric: true }, ...compressor, '--rsyncable', '--synchronous');
export const bzip2 = T({ numeric: true }, ...compressor, '-s --small');
// prettier-ignore
export const xz = T(
  { numeric: true },
  ...compressor,
  '--single-stream', '--no-sparse', '--files =? read-any', '--files0 =? read-any', '-F --format =', '-C --check =', '--ignore-check',
  '-e --extreme', '-T --threads =', '-M --memlimit --memory =', '--memlimit-compress =', '--memlimit-decompress =', '--no-adjust',
  '-Q --no-warn', '--robot', '--info-memory', '-H --long-help',
);
// prettier-ignore
export const zstd = T(
  { numeric: true },
  ...compressor,
  '-o = write', '--rm write', '-D = read-any', '--ultra', '-T --threads =', '--long =?', '--no-progress', '--format =', '-M --memory =',
);

// prettier-ignore
export const which = T(
  {},
  '-a --all', '-s', '-i --read-alias', '--skip-alias', '--read-functions', '--skip-functions', '--skip-dot', '--skip-tilde', '--show-dot',
  '--show-tilde', '--tty-only', '-v', '-V',
);
// prettier-ignore
export const date = T(
  {},
  '-d --date =', '--debug', '-f --file = read-any', '-I --iso-8601 =?', '-R --rfc-email --rfc-822 --rfc-2822', '--rfc-3339 =',
  '-r --reference =', '-s --set = system', '-u --utc --universal', '-j', '-n', '-v =',
);
// prettier-ignore
export const uname = T(
  {},
  '-a --all', '-s --kernel-name', '-n --nodename', '-r --kernel-release', '-v --kernel-version', '-m --machine', '-p --processor',
  '-i --hardware-platform', '-o --operating-system',
);

// prettier-ignore
export const ps = T(
  {},
  '-A', '-e', '-a', '-d', '-N --deselect', '-C =', '-G --Group =', '-g --group =', '-p --pid =', '--ppid =', '-q --quick-pid =',
  '-s --sid =', '-t --tty =', '-u --user =', '-U --User =', '-f', '-F', '-l', '-j', '-y', '-o --format =', '-O =', '-M', '-Z --context',
  '-c', '-H --forest', '-L', '-T', '-m', '-w', '-x', '--cols --columns --width =', '--lines --rows =', '--no-headers', '--headers', '-n =',
  '--sort =', '--cumulative', '-V', '--info', '-E', '-r', '-v', '-h',
);
// prettier-ignore
export const ss = T(
  {},
  '-h', '-V', '-H --no-header', '-O --oneline', '-n --numeric', '-r --resolve network', '-a --all', '-l --listening', '-o --options',
  '-e --extended', '-m --memory', '-p --processes', '-T --threads', '-i --info', '--tos', '--cgroup', '-K --kill system', '-s --summary',
  '-E --events', '-Z --context', '-z --contexts', '-N --net =', '-b --bpf', '-4 --ipv4', '-6 --ipv6', '-0 --packet', '-t --tcp', '-u --udp',
  '-d --dccp', '-w --raw', '-x --unix', '-S --sctp', '--vsock', '--xdp', '-M --mptcp', '--inet-sockets', '-f --family =',
  '-A --query --socket =', '-D --diag = write', '-F --filter = read-any', '--tipc', '--tipcinfo', '-B --bound-inet',
);
// prettier-ignore
export const netstat = T(
  {},
  '-r --route', '-i --interfaces', '-g --groups', '-M --masquerade', '-s --statistics', '-v --verbose', '-W --wide', '-n --numeric',
  '--numeric-hosts', '--numeric-ports', '--numeric-users', '-N --symbolic', '-e --extend', '-p --program', '-o --timers', '-c --continuous',
  '-l --listening', '-a --all', '-F', '-C', '-Z --context', '-t --tcp', '-u --udp', '-w --raw', '-x --unix', '-4', '-6', '-A --protocol =',
  '--inet --ip', '-f =', '-b', '-d', '-I =', '-L', '-m', '-q', '-Q',
);

// prettier-ignore
const DIG_PLUS = {
  singleDashLong: true,
  prefixes: true,
  negatable: 'no',
  opts: opts(
    '-all', '-answer', '-authority', '-additional', '-comments', '-cmd', '-question', '-stats', '-short', '-tcp', '-vc', '-trace',
    '-nssearch', '-recurse', '-dnssec', '-multiline', '-identify', '-rrcomments', '-besteffort', '-bufsize =', '-class', '-ttlid',
    '-ttlunits', '-time =', '-tries =', '-retry =', '-ndots =', '-search', '-defname', '-domain =', '-edns =?', '-expire', '-fail',
    '-header-only', '-idnin', '-idnout', '-keepopen', '-keepalive', '-nsid', '-opcode =', '-padding =', '-qr', '-raw', '-showsearch',
    '-split =', '-subnet =', '-topdown', '-unknownformat', '-yaml', '-zflag', '-cookie =?', '-crypto', '-badcookie', '-ednsflags =?',
    '-ednsneg', '-ednsopt =?', '-mapped', '-onesoa', '-qid =', '-https =?', '-tls', '-http-plain =?', '-tls-ca =? read-any',
    '-tls-certfile = read-any', '-tls-keyfile = read-any', '-tls-hostname =', '-timeout =', '-aaflag', '-aaonly', '-adflag', '-cdflag',
    '-rdflag', '-showbadcookie', '-sigchase', '-ignore', '-coflag', '-dns64prefix', '-ttl',
  ),
} satisfies ProgramOptions;
// prettier-ignore
export const dig = T(
  { plusOptions: DIG_PLUS },
  '-b =', '-c =', '-f = read-any', '-k = read-any', '-m', '-p =', '-q =', '-t =', '-x =', '-y =', '-4', '-6', '-h', '-v', '-r', '-u', '-i',
);
// prettier-ignore
export const host = T(
  {},
  '-a', '-A', '-c =', '-C', '-d', '-l', '-m =', '-N =', '-r', '-R =', '-s', '-t =', '-T', '-U', '-v', '-V', '-w', '-W =', '-4', '-6', '-i',
);

// prettier-ignore
export const man = T(
  {},
  '-C --config-file = exec', '-d --debug', '-D --default', '--warnings =?', '-f --whatis', '-k --apropos', '-K --global-apropos',
  '-l --local-file exec', '-L --locale =', '-m --systems =', '-M --manpath =', '-S -s --sections =', '-e --extension =', '-i --ignore-case',
  '-I --match-case', '--regex', '--wildcard', '--names-only', '-a --all', '-u --update write', '-w --where --path --location',
  '-W --where-cat --location-cat', '-c --catman', '-R --recode =', '--no-subpages', '-P --pager = exec', '-r --prompt =', '-7 --ascii',
  '-E --encoding =', '--no-hyphenation --nh', '--no-justification --nj', '-p --preprocessor = exec', '-t --troff exec',
  '-T --troff-device =? exec', '-H --html =? exec', '-X --gxditview =? exec', '-Z --ditroff exec', '-h', '-V',
);

// prettier-ignore
export const sed = T(
  {},
  '-n --quiet --silent', '-e --expression =', '-f --file = read-any', '-i --in-place =? write', '-l --line-length =',
  '-E -r --regexp-extended', '-s --separate', '-u --unbuffered', '-z --null-data', '--posix', '--debug', '--sandbox', '--follow-symlinks',
  '-b --binary',
);
// prettier-ignore
export const awk = T(
  { posixOrder: true },
  '-f --file = read-any', '-F --field-separator =', '-v --assign =', '-b --characters-as-bytes', '-c --traditional', '-C --copyright',
  '-d --dump-variables =? write', '-D --debug =?', '-e --source =', '-E --exec = read-any', '-g --gen-pot', '-h', '-i --include = read-any',
  '-I --trace', '-k --csv', '-l --load = exec', '-L --lint =?', '-M --bignum', '-N --use-lc-numeric', '-n --non-decimal-data',
  '-o --pretty-print =? write', '-O --optimize', '-p --profile =? write', '-P --posix', '-r --re-interval', '-s --no-optimize',
  '-S --sandbox', '-t --lint-old', '-V', '-W =',
);

// prettier-ignore
const GO_BUILD = [
  '-a', '-n', '-p =', '-race', '-msan', '-asan', '-cover', '-covermode =', '-coverpkg =', '-v', '-work', '-x', '-asmflags =',
  '-buildmode =', '-buildvcs =', '-compiler =', '-gccgoflags =', '-gcflags =', '-installsuffix =', '-ldflags =', '-linkshared', '-mod =',
  '-modcacherw', '-modfile = read-any', '-overlay = read-any', '-pgo = read-any', '-pkgdir =', '-tags =', '-trimpath', '-toolexec = exec',
  '-C =', '-exec = exec',
];
const G = (...entries: string[]): ProgramOptions => ({ singleDashLong: true, opts: opts('-h', '-help', ...entries) });
// prettier-ignore
export const GO_TABLES: Record<string, ProgramOptions> = {
  version: G('-m', '-v', '-json'),
  env: G('-json', '-u write', '-w write', '-changed'),
  list: G(
    ...GO_BUILD,
    '-f =', '-json =?', '-m', '-u network', '-versions network', '-retracted network', '-reuse = read-any', '-deps', '-test', '-e', '-find',
    '-compiled', '-export',
  ),
  doc: G('-all', '-c', '-cmd', '-short', '-src', '-u', '-http exec'),
  help: G(),
};

// prettier-ignore
export const CARGO = T(
  {},
  '-V', '-v --verbose', '-q --quiet', '--color =', '-C = read-any', '--locked', '--offline', '--frozen', '--config = exec', '-Z = exec',
  '-h', '--list', '--explain =', '--workspace', '--message-format =', '--manifest-path = read-any', '-p --package =',
  '--lockfile-path = read-any',
);

/**
 * npm's read sub-commands (ls, explain, query, view...). npm takes any configuration key as
 * `--key[=value]` and accepts unique abbreviations (nopt): keys that run a program, read another
 * configuration or write are listed with their effect; a key not listed asks.
 */
// prettier-ignore
export const NPM = T(
  { negatable: true },
  '-a --all', '--json', '-l --long', '-p --parseable', '--depth =', '-g --global', '--omit =', '--include =', '-w --workspace =',
  '--workspaces', '--include-workspace-root', '--production --prod', '--dev --development', '--link', '--unicode', '--package-lock-only',
  '-s --silent', '--loglevel =', '--color =?', '-q --quiet', '-d', '--verbose', '--before =', '--location =', '--expect-results',
  '--expect-result-count =', '--install-strategy =', '--lockfile-version =', '--audit-level =', '--fund', '--offline', '--prefer-offline',
  '--prefer-online', '--searchlimit =', '--searchopts =', '--searchexclude =', '--description', '--heading', '--registry = network',
  '--prefix = read-any', '--browser = exec', '--viewer = exec', '--editor = exec', '--script-shell = exec', '--node-options = exec',
  '--shell = exec', '--git = exec', '--call = exec', '--userconfig = read-any', '--globalconfig = read-any', '--cache = write',
  '--logs-dir = write', '--logs-max =', '--format =', '--package =', '-y --yes', '--foreground-scripts', '--ignore-scripts',
);

/** pip's read sub-commands (list, show, freeze, check, inspect, debug) and their general options. */
// prettier-ignore
export const PIP = T(
  {},
  '-l --local', '--user', '--path = read-any', '--pre', '--format =', '--not-required', '--exclude-editable', '--include-editable',
  '--exclude =', '-e --editable', '-f --files', '-r --requirement = read-any', '--all', '--verbose -v', '-q --quiet', '--isolated',
  '--require-virtualenv', '--no-input', '--no-color', '--disable-pip-version-check', '--no-cache-dir', '--timeout =', '--retries =',
  '--exists-action =', '--root-user-action =', '--use-feature =', '--use-deprecated =', '--keyring-provider =', '--cert = read-any',
  '--client-cert = read-any', '--trusted-host =', '-o --outdated network', '-u --uptodate network', '-i --index-url = network',
  '--extra-index-url = network', '--no-index', '--find-links = network', '--proxy = network', '--python = exec', '--log = write',
  '--cache-dir = write', '--src = write', '--debug-mode',
);
