/** Option tables of the file and text tools the classifier judges read-only (GNU spellings, plus common BSD ones). */
import { opts, type ProgramOptions } from './resolve';

const T = (o: Omit<ProgramOptions, 'opts'>, ...entries: string[]): ProgramOptions => ({
  ...o,
  opts: opts('--help', '--version', ...entries),
});

// prettier-ignore
export const ls = T(
  {},
  '-a --all', '-A --almost-all', '--author', '-b --escape', '--block-size =', '-B --ignore-backups', '-c', '-C', '--color --colour =?',
  '-d --directory', '-D --dired', '-f', '-F --classify =?', '--file-type', '--format =', '--full-time', '-g', '--group-directories-first',
  '-G --no-group', '-h --human-readable', '--si', '-H --dereference-command-line', '--dereference-command-line-symlink-to-dir', '--hide =',
  '--hyperlink =?', '--indicator-style =', '-i --inode', '-I --ignore =', '-k --kibibytes', '-l', '-L --dereference', '-m',
  '-n --numeric-uid-gid', '-N --literal', '-o', '-p', '-q --hide-control-chars', '--show-control-chars', '-Q --quote-name',
  '--quoting-style =', '-r --reverse', '-R --recursive', '-s --size', '-S', '--sort =', '--time =', '--time-style =', '-t',
  '-T --tabsize =', '-u', '-U', '-v', '-w --width =', '-x', '-X', '-Z --context', '--zero', '-1', '-@', '-e', '-O', '-P', '-%', '-,',
);

// prettier-ignore
export const cat = T(
  {},
  '-A --show-all', '-b --number-nonblank', '-e', '-E --show-ends', '-n --number', '-s --squeeze-blank', '-t', '-T --show-tabs', '-u',
  '-v --show-nonprinting', '-l',
);

const headOpts = ['-c --bytes =', '-n --lines =', '-q --quiet --silent', '-v --verbose', '-z --zero-terminated'];
export const head = T({ numeric: true }, ...headOpts);
// prettier-ignore
export const tail = T(
  { numeric: true },
  ...headOpts,
  '-f', '--follow =?', '-F', '--max-unchanged-stats =', '--pid =', '--retry', '-s --sleep-interval =', '-r',
);

// prettier-ignore
export const wc = T(
  {},
  '-c --bytes', '-m --chars', '-l --lines', '--files0-from = read-any', '-L --max-line-length', '-w --words', '--total =',
);

// prettier-ignore
export const sort = T(
  {},
  '-b --ignore-leading-blanks', '-d --dictionary-order', '-f --ignore-case', '-g --general-numeric-sort', '-i --ignore-nonprinting',
  '-M --month-sort', '-h --human-numeric-sort', '-n --numeric-sort', '-R --random-sort', '--random-source = read-any', '-r --reverse',
  '--sort =', '-V --version-sort', '--batch-size =', '-c', '--check =?', '-C', '--compress-program = exec', '--debug',
  '--files0-from = read-any', '-k --key =', '-m --merge', '-o --output = write', '-s --stable', '-S --buffer-size =',
  '-t --field-separator =', '-T --temporary-directory = write', '-u --unique', '-z --zero-terminated', '--parallel =',
);

// prettier-ignore
export const uniq = T(
  { numeric: true },
  '-c --count', '-d --repeated', '-D', '--all-repeated =?', '-f --skip-fields =', '--group =?', '-i --ignore-case', '-s --skip-chars =',
  '-u --unique', '-z --zero-terminated', '-w --check-chars =',
);

// prettier-ignore
export const cut = T(
  {},
  '-b --bytes =', '-c --characters =', '-d --delimiter =', '-f --fields =', '-n', '--complement', '-s --only-delimited',
  '--output-delimiter =', '-z --zero-terminated',
);

export const tr = T({}, '-c -C --complement', '-d --delete', '-s --squeeze-repeats', '-t --truncate-set1');

// prettier-ignore
export const diff = T(
  {},
  '--normal', '-q --brief', '-s --report-identical-files', '-c', '-C --context =', '-u', '-U --unified =', '-e --ed', '-n --rcs',
  '-y --side-by-side', '-W --width =', '--left-column', '--suppress-common-lines', '-p --show-c-function', '-F --show-function-line =',
  '--label =', '-t --expand-tabs', '-T --initial-tab', '--tabsize =', '--suppress-blank-empty', '-l --paginate', '-r --recursive',
  '--no-dereference', '-N --new-file', '--unidirectional-new-file', '--ignore-file-name-case', '--no-ignore-file-name-case',
  '-x --exclude =', '-X --exclude-from = read-any', '-S --starting-file =', '--from-file = read-any', '--to-file = read-any',
  '-i --ignore-case', '-E --ignore-tab-expansion', '-Z --ignore-trailing-space', '-b --ignore-space-change', '-w --ignore-all-space',
  '-B --ignore-blank-lines', '-I --ignore-matching-lines =', '-a --text', '--strip-trailing-cr', '-D --ifdef =', '--line-format =',
  '--old-line-format =', '--new-line-format =', '--unchanged-line-format =', '--old-group-format =', '--new-group-format =',
  '--changed-group-format =', '--unchanged-group-format =', '-d --minimal', '--horizon-lines =', '--speed-large-files', '--color =?',
  '--palette =',
);

export const cmp = T({}, '-b --print-bytes', '-i --ignore-initial =', '-l --verbose', '-n --bytes =', '-s --quiet --silent');

// prettier-ignore
export const file = T(
  {},
  '-b --brief', '-c --checking-printout', '-C --compile write', '-d', '-E', '-e --exclude =', '--exclude-quiet =', '-F --separator =',
  '-f --files-from = read-any', '-h --no-dereference', '-i --mime', '--extension', '--mime-type', '--mime-encoding', '-k --keep-going',
  '-l --list', '-L --dereference', '-m --magic-file = read-any', '-N --no-pad', '-n --no-buffer', '-0 --print0', '-p --preserve-date',
  '-P --parameter =', '-r --raw', '-s --special-files', '-S --no-sandbox', '-z --uncompress', '-Z --uncompress-noreport', '-v',
);

// prettier-ignore
export const stat = T(
  {},
  '-L --dereference', '-f --file-system', '-c --format =', '--printf =', '-t --terse', '--cached =', '-x', '-l', '-r', '-s',
);

// prettier-ignore
export const du = T(
  {},
  '-0 --null', '-a --all', '--apparent-size', '-A', '-B --block-size =', '-b --bytes', '-c --total', '-D --dereference-args',
  '-d --max-depth =', '--files0-from = read-any', '-H', '--inodes', '-h --human-readable', '-k', '-L --dereference', '-l --count-links',
  '-m', '-P --no-dereference', '-S --separate-dirs', '--si', '-s --summarize', '-t --threshold =', '--time =?', '--time-style =',
  '-X --exclude-from = read-any', '--exclude =', '-x --one-file-system', '-g', '-I =',
);

// prettier-ignore
export const df = T(
  {},
  '-a --all', '-B --block-size =', '-h --human-readable', '-H --si', '-i --inodes', '-k', '-l --local', '--no-sync', '--output =?',
  '--sync', '--total', '-t --type =', '-T --print-type', '-x --exclude-type =', '-P --portability', '-v', '-g', '-m',
);

// prettier-ignore
export const tree = T(
  { singleDashLong: false },
  '-a', '-d', '-l', '-f', '-x', '-L =', '-R write', '-P =', '-I =', '--gitignore', '--gitfile = read-any', '--ignore-case', '--matchdirs',
  '--metafirst', '--prune', '--info', '--infofile = read-any', '--noreport', '--charset =', '--filelimit =', '-o = write', '-i', '-A', '-S',
  '-n', '-C', '-q', '-N', '-Q', '-p', '-u', '-g', '-s', '-h', '--si', '--du', '-D', '--timefmt =', '-F', '--inodes', '--device', '-v', '-t',
  '-c', '-U', '-r', '--dirsfirst', '--filesfirst', '--sort =', '-J', '-X', '-H =', '--nolinks', '--hintro = read-any',
  '--houtro = read-any', '-T =', '--fromfile', '--fromtabfile', '-V', '-E', '-e', '-b', '-j', '-y',
);

// prettier-ignore
export const grep = T(
  { numeric: true },
  '-E --extended-regexp', '-F --fixed-strings', '-G --basic-regexp', '-P --perl-regexp', '-e --regexp =', '-f --file = read-any',
  '-i --ignore-case', '--no-ignore-case', '-v --invert-match', '-w --word-regexp', '-x --line-regexp', '-y', '-c --count',
  '--color --colour =?', '-L --files-without-match', '-l --files-with-matches', '-m --max-count =', '-o --only-matching',
  '-q --quiet --silent', '-s --no-messages', '-b --byte-offset', '-H --with-filename', '-h --no-filename', '--label =', '-n --line-number',
  '-T --initial-tab', '-u --unix-byte-offsets', '-Z --null', '-z --null-data', '-A --after-context =', '-B --before-context =',
  '-C --context =', '-a --text', '--binary-files =', '-D --devices =', '-d --directories =', '--exclude =', '--exclude-from = read-any',
  '--exclude-dir =', '-I', '--include =', '-r --recursive', '-R --dereference-recursive', '--line-buffered', '-U --binary', '-V',
);

// prettier-ignore
export const rg = T(
  { negatable: true },
  '-e --regexp =', '-f --file = read-any', '-g --glob =', '--iglob =', '-t --type =', '-T --type-not =', '--type-add =', '--type-clear =',
  '--type-list', '-i --ignore-case', '-s --case-sensitive', '-S --smart-case', '-F --fixed-strings', '-w --word-regexp', '-x --line-regexp',
  '-v --invert-match', '-l --files-with-matches', '--files-without-match', '-c --count', '--count-matches', '-o --only-matching',
  '-n --line-number', '-N', '-H --with-filename', '-I --no-filename', '-A --after-context =', '-B --before-context =', '-C --context =',
  '-m --max-count =', '-d --max-depth --maxdepth =', '--max-filesize =', '-u --unrestricted', '--hidden', '-.', '--ignore', '--ignore-vcs',
  '--ignore-dot', '--ignore-global', '--ignore-parent', '--ignore-exclude', '--ignore-files', '--ignore-file = read-any',
  '--ignore-file-case-insensitive', '-L --follow', '--files', '--sort =', '--sortr =', '--sort-files', '--json', '--vimgrep', '--heading',
  '--color =', '--colors =', '-p --pretty', '-U --multiline', '--multiline-dotall', '-P --pcre2', '--engine =', '-z --search-zip',
  '--pre = exec', '--pre-glob =', '--hostname-bin = exec', '-r --replace =', '--trim', '-0 --null', '-a --text', '--binary', '--messages',
  '--stats', '--debug', '--trace', '-j --threads =', '--column', '-b --byte-offset', '--passthru --passthrough', '-q --quiet', '--config',
  '--line-buffered', '--block-buffered', '-E --encoding =', '-M --max-columns =', '--max-columns-preview', '--glob-case-insensitive',
  '--path-separator =', '--require-git', '--one-file-system', '--null-data', '--crlf', '--auto-hybrid-regex', '--unicode',
  '--dfa-size-limit =', '--regex-size-limit =', '--mmap', '--field-context-separator =', '--field-match-separator =',
  '--context-separator =', '--include-zero', '--pcre2-unicode', '--hyperlink-format =', '--generate =', '--no-line-number',
  '--stop-on-nonmatch', '-V', '-h',
);

// prettier-ignore
export const fd = T(
  { negatable: true },
  '-H --hidden', '-I --no-ignore', '--no-ignore-vcs', '--no-ignore-parent', '--no-global-ignore-file', '-u --unrestricted',
  '-s --case-sensitive', '-i --ignore-case', '-g --glob', '--regex', '-F --fixed-strings', '-a --absolute-path', '--relative-path',
  '-l --list-details', '-L --follow', '-p --full-path', '-0 --print0', '-d --max-depth =', '--min-depth =', '--exact-depth =', '--prune',
  '-t --type =', '-e --extension =', '-S --size =', '--changed-within --change-newer-than --newer =',
  '--changed-before --change-older-than --older =', '-o --owner =', '-x --exec = exec', '-X --exec-batch = exec', '--batch-size =',
  '-E --exclude =', '--ignore-file = read-any', '-c --color =', '-j --threads =', '--max-results =', '-1', '-q --quiet', '--show-errors',
  '--base-directory =', '--path-separator =', '--search-path =', '--strip-cwd-prefix =?', '--one-file-system', '--format =', '-h', '-V',
  '--and =', '--ignore-contain =', '--hyperlink =?', '--no-require-git',
);

// prettier-ignore
const findTests = [
  '-name =', '-iname =', '-path =', '-ipath =', '-wholename =', '-iwholename =', '-regex =', '-iregex =', '-regextype =', '-type =',
  '-xtype =', '-maxdepth =', '-mindepth =', '-depth', '-mount', '-xdev', '-noleaf', '-follow', '-ignore_readdir_race',
  '-noignore_readdir_race', '-daystart', '-warn', '-nowarn', '-print', '-print0', '-printf =', '-ls', '-prune', '-quit', '-true', '-false',
  '-empty', '-executable', '-readable', '-writable', '-newer =', '-anewer =', '-cnewer =', '-mtime =', '-atime =', '-ctime =', '-mmin =',
  '-amin =', '-cmin =', '-used =', '-size =', '-perm =', '-user =', '-group =', '-uid =', '-gid =', '-nouser', '-nogroup', '-links =',
  '-inum =', '-samefile =', '-lname =', '-ilname =', '-fstype =', '-context =', '-not', '-and', '-or', '-exec = exec', '-execdir = exec',
  '-ok = exec', '-okdir = exec', '-delete write', '-fprint = write', '-fprint0 = write', '-fprintf == write', '-fls = write',
  '-files0-from = read-any', '-a', '-o', '-d', '-H', '-L', '-P', '-D =', '-O =', '-E', '-X', '-s', '-x',
];
for (const x of 'aBcm') for (const y of 'aBcmt') findTests.push(`-newer${x}${y} =`);
export const find = T({ singleDashLong: true }, ...findTests);
