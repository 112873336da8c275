/**
 * Option tables of git's sub-commands that talk to another repository (fetch, pull, clone,
 * ls-remote, push, archive), read the way git's parse-options reads them (style 'git': unique
 * abbreviations, `--no-` negations of every option, the positive of a `--no-x` option), taken
 * from git's builtin/*.c. `riskyPrefixes`: git versions differ in these sets (ls-remote had a
 * hidden `--exec`), so an abbreviation that may be an option that runs a program is read as one.
 * Roles: `exec` runs a program the value names, `config` sets configuration of the new
 * repository (judged like `git -c`), `out` writes the path it names, `strategy` names a merge
 * strategy (one git does not know runs `git-merge-<name>` from PATH).
 */
import { opts, type ProgramOptions } from './resolve';

const N = (...entries: string[]): ProgramOptions => ({ style: 'git', riskyPrefixes: true, numeric: true, opts: opts('-h --help', '-v --verbose', '-q --quiet', ...entries) });

const FETCH = [
  '--all', '--set-upstream', '-a --append', '--atomic', '--upload-pack = exec', '-f --force', '-m --multiple', '-t --tags', '-n', '-j --jobs =', '--prefetch', '-p --prune',
  '-P --prune-tags', '--recurse-submodules =?', '--dry-run', '--porcelain', '--write-fetch-head', '-k --keep', '-u --update-head-ok', '--progress', '--depth =',
  '--shallow-since =', '--shallow-exclude =', '--deepen =', '--unshallow', '--refetch', '--recurse-submodules-default =', '--update-shallow', '--refmap =',
  '-o --server-option =', '-4 --ipv4', '-6 --ipv6', '--negotiation-restrict --negotiation-tip =', '--negotiation-include =', '--negotiate-only', '--filter =',
  '--auto-maintenance', '--auto-gc', '--show-forced-updates', '--write-commit-graph', '--stdin',
];

export const GIT_NET_TABLES: Record<string, ProgramOptions> = {
  fetch: N(...FETCH),
  pull: N(
    '--progress', '--recurse-submodules =?', '-r --rebase =?', '-n', '--stat', '--summary', '--compact-summary', '--log =?', '--signoff =?', '--squash', '--commit', '--edit',
    '--cleanup =', '--ff', '--ff-only', '--verify', '--verify-signatures', '--autostash', '-s --strategy = :strategy', '-X --strategy-option =', '-S --gpg-sign =?',
    '--allow-unrelated-histories', '--all', '-a --append', '--upload-pack = exec', '-f --force', '-t --tags', '-p --prune', '-j --jobs =?', '--dry-run', '-k --keep',
    '--depth =', '--shallow-since =', '--shallow-exclude =', '--deepen =', '--unshallow', '--update-shallow', '--refmap =', '-o --server-option =', '-4 --ipv4', '-6 --ipv6',
    '--negotiation-restrict --negotiation-tip =', '--negotiation-include =', '--show-forced-updates', '--set-upstream',
  ),
  clone: N(
    '--progress', '--reject-shallow', '-n --no-checkout', '--bare --naked', '--mirror', '-l --local', '--no-hardlinks', '-s --shared', '--recurse-submodules --recursive =?',
    '-j --jobs =', '--template = exec', '--reference =', '--reference-if-able =', '--dissociate', '-o --origin =', '-b --branch =', '--revision =', '-u --upload-pack = exec',
    '--depth =', '--shallow-since =', '--shallow-exclude =', '--single-branch', '--tags', '--shallow-submodules', '--separate-git-dir = :out', '--ref-format =',
    '-c --config = :config', '--server-option =', '-4 --ipv4', '-6 --ipv6', '--filter =', '--also-filter-submodules', '--remote-submodules', '--sparse', '--bundle-uri =',
  ),
  'ls-remote': N('--upload-pack --exec = exec', '-t --tags', '-b --branches', '--heads', '--refs', '--get-url', '--sort =', '--exit-code', '--symref', '-o --server-option ='),
  push: N(
    '--repo =', '--all --branches', '--mirror', '-d --delete', '--tags', '-n --dry-run', '--porcelain', '-f --force', '--force-with-lease =?', '--force-if-includes',
    '--recurse-submodules =', '--thin', '--receive-pack --exec = exec', '-u --set-upstream', '--progress', '--prune', '--no-verify', '--follow-tags', '--signed =?', '--atomic',
    '-o --push-option =', '-4 --ipv4', '-6 --ipv6',
  ),
  archive: N('--format =', '--prefix =', '--add-file =', '--add-virtual-file =', '--mtime =', '-o --output = :out', '--worktree-attributes', '-l --list', '--remote =', '--exec = exec'),
};

/** Merge strategies git has built in; any other name runs the program `git-merge-<name>` found on PATH. */
export const GIT_STRATEGIES = new Set(['ort', 'recursive', 'resolve', 'octopus', 'ours', 'subtree']);
