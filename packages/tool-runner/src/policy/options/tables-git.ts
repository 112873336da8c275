/**
 * Option tables of git's read-only sub-commands. git's parse-options accepts a unique prefix of
 * a long option, `--no-` for every long option, `-U5`/`-M50%` attached values and `-<n>` counts.
 */
import { opts, type ProgramOptions } from './resolve';

const G = (...groups: string[][]): ProgramOptions => ({
  style: 'git',
  negatable: true,
  numeric: true,
  opts: opts('-h', '--help', ...groups.flat()),
});

// prettier-ignore
const DIFF = [
  '-p -u --patch', '-s --no-patch', '-U --unified =', '--output = write', '--output-indicator-new =', '--output-indicator-old =',
  '--output-indicator-context =', '--raw', '--patch-with-raw', '-t', '--indent-heuristic', '--minimal', '--patience', '--histogram',
  '--anchored =', '--diff-algorithm =', '--stat =?', '--stat-width =', '--stat-name-width =', '--stat-graph-width =', '--stat-count =',
  '--compact-summary', '--numstat', '--shortstat', '-X --dirstat =?', '--cumulative', '--dirstat-by-file =?', '--summary',
  '--patch-with-stat', '-z', '--name-only', '--name-status', '--submodule =?', '--color =?', '--color-moved =?', '--color-moved-ws =',
  '--word-diff =?', '--word-diff-regex =', '--color-words =?', '--renames', '--rename-empty', '--check', '--ws-error-highlight =',
  '--full-index', '--binary', '--abbrev =?', '-B --break-rewrites =?', '-M --find-renames =?', '-C --find-copies =?',
  '--find-copies-harder', '-D --irreversible-delete', '-l =', '--diff-filter =', '-S =', '-G =', '--find-object =', '--pickaxe-all',
  '--pickaxe-regex', '-O = read-any', '--skip-to =', '--rotate-to =', '-R', '--relative =?', '-a --text', '--ignore-cr-at-eol',
  '--ignore-space-at-eol', '-b --ignore-space-change', '-w --ignore-all-space', '--ignore-blank-lines', '-I --ignore-matching-lines =',
  '--inter-hunk-context =', '-W --function-context', '--exit-code', '--quiet', '--ext-diff exec', '--textconv exec',
  '--ignore-submodules =?', '--src-prefix =', '--dst-prefix =', '--prefix', '--default-prefix', '--line-prefix =',
  '--ita-invisible-in-index', '--ita-visible-in-index', '--base', '--ours', '--theirs', '-0', '-m', '-c', '--cc', '--dd', '--remerge-diff',
  '--diff-merges =', '--combined-all-paths', '--merge-base', '--no-index', '--cached', '--staged', '--follow', '--mailmap', '--use-mailmap',
];

/** The refs a revision walk or rev-parse starts from (git's rev-list-options and rev-parse: "ref selection"). */
const REF_SELECTION = ['--all', '--branches =?', '--tags =?', '--remotes =?', '--glob =', '--exclude =', '--exclude-hidden ='];

// prettier-ignore
const REVS = [
  '-n --max-count =', '--skip =', '--since --after =', '--since-as-filter =', '--until --before =', '--author =', '--committer =',
  '--grep-reflog =', '--grep =', '--all-match', '--invert-grep', '-i --regexp-ignore-case', '--basic-regexp', '-E --extended-regexp',
  '-F --fixed-strings', '-P --perl-regexp', '--remove-empty', '--merges', '--min-parents =', '--max-parents =', '--first-parent',
  '--exclude-first-parent-only', '--not', ...REF_SELECTION, '--reflog', '--alternate-refs', '--single-worktree', '--ignore-missing', '--bisect', '--stdin', '--cherry-mark',
  '--cherry-pick', '--left-only', '--right-only', '--cherry', '-g --walk-reflogs', '--merge', '--boundary', '--simplify-by-decoration',
  '--show-pulls', '--full-history', '--dense', '--sparse', '--simplify-merges', '--ancestry-path =?', '--date-order', '--author-date-order',
  '--topo-order', '--reverse', '--walk =?', '--do-walk', '--pretty --format =?', '--abbrev-commit', '--oneline', '--encoding =',
  '--expand-tabs =?', '--notes --show-notes =?', '--standard-notes', '--show-signature', '--relative-date', '--date =', '--parents',
  '--children', '--left-right', '--graph', '--show-linear-break =?', '--count', '--objects', '--objects-edge', '--timestamp', '--header',
  '--filter =', '--missing =', '--in-commit-order', '--no-object-names',
];

// prettier-ignore
const LOG = [
  '-r', '--root', '--no-commit-id', '-v', '--always', '--follow', '--decorate =?', '--decorate-refs =', '--decorate-refs-exclude =',
  '--clear-decorations', '--source', '--full-diff', '--log-size', '-L =', '--show-origin',
];

// prettier-ignore
export const GIT_TABLES: Record<string, ProgramOptions> = {
  diff: G(DIFF),
  log: G(DIFF, REVS, LOG),
  show: G(DIFF, REVS, LOG),
  whatchanged: G(DIFF, REVS, LOG),
  'rev-list': G(REVS, ['--disk-usage =?', '--unpacked', '--quiet', '--progress =', '--bisect-vars', '--bisect-all', '--indexed-objects']),
  shortlog: G(REVS, ['-s --summary', '-e --email', '--group =', '-c --committer', '-w =?']),
  status: G([
    '-s --short', '-b --branch', '--show-stash', '--porcelain =?', '--long', '-v --verbose', '-u --untracked-files =?',
    '--ignore-submodules =?', '--ignored =?', '-z', '--column =?', '--ahead-behind', '--renames', '--find-renames =?', '-M',
  ]),
  blame: G([
    '-b', '--root', '--show-stats', '--score-debug', '-f --show-name', '-n --show-number', '-p --porcelain', '--line-porcelain', '-c', '-t',
    '-l', '-s', '-e --show-email', '-w', '--ignore-rev =', '--ignore-revs-file = read-any', '--color-lines', '--color-by-age', '--progress',
    '-L =', '-S = read-any', '--reverse =', '--first-parent', '--incremental', '--encoding =', '--contents = read-any', '--date =', '-M =?',
    '-C =?', '--abbrev =?', '--minimal', '--since =', '--textconv exec',
  ]),
  annotate: G([
    '-b', '--root', '--show-stats', '-f', '-n', '-p', '-l', '-t', '-s', '-e', '-w', '-L =', '--contents = read-any', '--date =', '-M =?',
    '-C =?', '--encoding =',
  ]),
  grep: G([
    '--cached', '--untracked', '--index', '--exclude-standard', '--recurse-submodules', '-a --text', '--textconv exec', '-i --ignore-case',
    '-I', '--max-depth =', '-r --recursive', '-w --word-regexp', '-v --invert-match', '-h', '-H', '--full-name', '-E --extended-regexp',
    '-G --basic-regexp', '-P --perl-regexp', '-F --fixed-strings', '-n --line-number', '--column', '-l --files-with-matches --name-only',
    '-L --files-without-match', '-O --open-files-in-pager =? exec', '-z --null', '-o --only-matching', '-c --count', '--color =?',
    '--break', '--heading', '-p --show-function', '-C --context =', '-A --after-context =', '-B --before-context =',
    '-W --function-context', '-m --max-count =', '--threads =', '-f = read-any', '-e =', '--and', '--or', '--not', '--all-match',
    '-q --quiet',
  ]),
  branch: G([
    '-a --all', '-r --remotes', '-l --list', '-v --verbose', '-q --quiet', '--abbrev =?', '--column =?', '--sort =', '--merged =?',
    '--contains =?', '--points-at =', '--format =', '--color =?', '--show-current', '-i --ignore-case', '--omit-empty', '-d --delete write',
    '-D write', '-m --move write', '-M write', '-c --copy write', '-C write', '-f --force write', '-u --set-upstream-to = write',
    '--unset-upstream write', '--track =? write', '--edit-description write', '--create-reflog write', '--recurse-submodules write',
  ]),
  'ls-files': G([
    '-c --cached', '-d --deleted', '-m --modified', '-o --others', '-i --ignored', '-s --stage', '-u --unmerged', '-k --killed',
    '--directory', '--empty-directory', '--eol', '-z', '--deduplicate', '-x --exclude =', '-X --exclude-from = read-any',
    '--exclude-per-directory =', '--exclude-standard', '--error-unmatch', '--with-tree =', '-t', '-v', '-f', '--full-name',
    '--recurse-submodules', '--abbrev =?', '--debug', '--format =', '--sparse', '--resolve-undo',
  ]),
  'ls-tree': G([
    '-d', '-r', '-t', '-l --long', '-z', '--name-only --name-status', '--object-only', '--full-name', '--full-tree', '--abbrev =?',
    '--format =',
  ]),
  'cat-file': G([
    '-t', '-s', '-e', '-p', '--textconv', '--filters', '--batch =?', '--batch-check =?', '--batch-command =?', '--batch-all-objects',
    '--buffer', '--unordered', '--follow-symlinks', '--allow-unknown-type', '-Z', '-z', '--path =', '--use-mailmap --mailmap',
  ]),
  describe: G([
    '--dirty =?', '--broken =?', '--all', '--tags', '--contains', '--abbrev =', '--candidates =', '--exact-match', '--debug', '--long',
    '--match =', '--exclude =', '--always', '--first-parent',
  ]),
  'for-each-ref': G([
    '--count =', '--sort =', '--format =', '--color =?', '--shell -s', '--perl -p', '--python', '--tcl', '--points-at =', '--merged =?',
    '--contains =?', '--ignore-case', '--omit-empty', '--exclude =', '--stdin', '--include-root-refs',
  ]),
  'show-ref': G([
    '--head', '--branches --heads', '--tags', '-d --dereference', '-s --hash =?', '--abbrev =?', '--verify', '--exists', '-q --quiet',
    '--exclude-existing =?',
  ]),
  'rev-parse': {
    prefixes: false,
    opts: opts(
      '--show-toplevel', '--abbrev-ref =?', '--short =?', '--verify', '-q --quiet', '--git-dir', '--git-common-dir', '--absolute-git-dir',
      '--is-inside-work-tree', '--is-inside-git-dir', '--is-bare-repository', '--is-shallow-repository', '--show-prefix', '--show-cdup',
      '--show-superproject-working-tree', '--shared-index-path', '--symbolic', '--symbolic-full-name', ...REF_SELECTION, '--disambiguate =',
      '--since --after =', '--until --before =', '--sq-quote', '--sq', '--keep-dashdash', '--stop-at-non-option', '--stuck-long',
      '--revs-only', '--no-revs', '--flags', '--no-flags', '--default =', '--prefix =', '--not', '--path-format =', '--local-env-vars',
      '--resolve-git-dir =', '--git-path =', '--show-object-format =?', '--show-ref-format', '--parseopt', '-h', '--help',
    ),
  },
};
GIT_TABLES['diff-tree'] = GIT_TABLES.log;
GIT_TABLES['diff-files'] = GIT_TABLES.diff;
GIT_TABLES['diff-index'] = GIT_TABLES.diff;
