/**
 * Workspace-named programs, by class: per program, the files and config keys a workspace (a
 * repository someone else wrote) can use to name code that an otherwise read-only command runs,
 * and how each is neutralised at L0 (a `-c key=` override, an environment variable, an
 * interpreter flag) or else judged L1/L2. docs/security.md §4b is this table in prose; the git
 * overrides of tools/git-harden.ts are taken from it.
 */
import { finding, type Finding } from './finding';

/** How one source of workspace-named code is kept from running at L0. */
export type Neutraliser =
  /**
   * git: set on the command line (command scope wins over every config file), for every
   * subcommand, for those that need no transport ('local'), or for those that do not sign
   * ('unsigned'; tools/git-harden.ts says which are which).
   */
  | { kind: 'git-config'; key: string; value: string; for: 'all' | 'local' | 'unsigned' }
  /** A flag the runner adds to the command line (`--no-ext-diff`). */
  | { kind: 'flag'; flag: string }
  /** An environment variable the runner sets. */
  | { kind: 'env'; name: string; value: string }
  /** No override exists (or it would change what the user's own command does): the forms that reach it are judged. */
  | { kind: 'judged'; level: 'L1' | 'L2'; forms: string };

/** One row of the table. */
export interface WorkspaceProgram {
  program: string;
  /** The file or config key (from the program's own documentation). */
  source: string;
  /** What it names and which commands reach it. */
  reach: string;
  off: Neutraliser[];
}

const local = (key: string, value: string): Neutraliser => ({ kind: 'git-config', key, value, for: 'local' });
const unsigned = (key: string, value: string): Neutraliser => ({ kind: 'git-config', key, value, for: 'unsigned' });
const all = (key: string, value: string): Neutraliser => ({ kind: 'git-config', key, value, for: 'all' });
const judged = (level: 'L1' | 'L2', forms: string): Neutraliser => ({ kind: 'judged', level, forms });

/**
 * git: every key of git-config(1) that names a program (or a command line run by a shell), with
 * the subcommands that reach it. A repository's `.git/config` (and what it includes) sets any of
 * them; `.gitattributes` picks the diff/merge/filter drivers per path.
 */
export const GIT_PROGRAM_KEYS: WorkspaceProgram[] = [
  { program: 'git', source: 'core.fsmonitor', reach: 'a hook program run on every index refresh (status, diff, ls-files, …)', off: [all('core.fsmonitor', 'false')] },
  { program: 'git', source: 'core.hooksPath, .git/hooks/*', reach: 'hooks: post-index-change (status), reference-transaction, post-checkout, pre-commit, …', off: [all('core.hooksPath', '/dev/null')] },
  { program: 'git', source: 'core.pager, pager.<cmd>', reach: 'the pager, when output is a terminal (never here: output is captured)', off: [all('core.pager', 'cat'), local('pager.<subcommand>', 'false')] },
  { program: 'git', source: 'diff.external, diff.<driver>.command', reach: 'an external diff: diff, log -p, show, …', off: [all('diff.external', ''), { kind: 'flag', flag: '--no-ext-diff' }] },
  { program: 'git', source: 'diff.<driver>.textconv', reach: 'text conversion: diff family, blame, annotate, grep', off: [{ kind: 'flag', flag: '--no-textconv' }] },
  { program: 'git', source: 'diff.<driver>.textconv, filter.<driver>.*', reach: 'cat-file --textconv / --filters', off: [judged('L1', 'git cat-file --textconv | --filters')] },
  { program: 'git', source: 'filter.<driver>.clean / smudge / process', reach: 'filters: status (racy entries), diff of the worktree, checkout, add', off: [{ kind: 'git-config', key: 'filter.<driver>.clean|smudge|process', value: '', for: 'all' }] },
  { program: 'git', source: 'log.showSignature', reach: 'turns on gpg.program for log/show', off: [all('log.showSignature', 'false')] },
  { program: 'git', source: 'gpg.program, gpg.openpgp.program', reach: 'signature checks: verify-commit, verify-tag, tag -v, log --show-signature, %G? formats', off: [unsigned('gpg.program', 'gpg'), unsigned('gpg.openpgp.program', 'gpg')] },
  { program: 'git', source: 'gpg.x509.program', reach: 'x509 signature checks (same commands)', off: [unsigned('gpg.x509.program', 'gpgsm')] },
  { program: 'git', source: 'gpg.ssh.program', reach: 'ssh signature checks (same commands)', off: [unsigned('gpg.ssh.program', 'ssh-keygen')] },
  { program: 'git', source: 'gpg.ssh.defaultKeyCommand', reach: 'signing only: commit -S, tag -s (asked)', off: [judged('L1', 'signing subcommands')] },
  { program: 'git', source: 'tar.<format>.command', reach: 'git archive --format=<format> (tgz and tar.gz have defaults a repository may replace)', off: [local('tar.tgz.command', 'gzip -cn'), local('tar.tar.gz.command', 'gzip -cn'), judged('L1', 'git archive --format=<other than tar, zip, tgz, tar.gz>')] },
  { program: 'git', source: 'man.viewer, man.<tool>.cmd, man.<tool>.path', reach: 'git help <topic>', off: [judged('L1', 'git help <topic>')] },
  { program: 'git', source: 'web.browser, browser.<tool>.cmd, browser.<tool>.path', reach: 'git help --web, instaweb, web--browse', off: [judged('L1', 'git help -w'), judged('L2', 'git instaweb, git web--browse')] },
  { program: 'git', source: 'core.sshCommand, core.gitProxy, ssh.variant, remote.<name>.uploadpack / receivepack / vcs, protocol.<name>.allow, url.<base>.insteadOf', reach: 'transports: fetch, pull, push, clone, ls-remote, request-pull (asked), and the lazy fetch of a partial clone, which log -p, show, blame, stash show, … reach', off: [local('protocol.allow', 'never'), { kind: 'env', name: 'GIT_NO_LAZY_FETCH', value: '1' }, judged('L1', 'fetch, pull, push, clone, ls-remote, remote update')] },
  { program: 'git', source: 'core.askPass, credential.helper, credential.<url>.helper', reach: 'credential prompts: transports only', off: [judged('L1', 'transports')] },
  { program: 'git', source: 'core.alternateRefsCommand', reach: 'fetch/push into a repository with alternates', off: [judged('L1', 'transports')] },
  { program: 'git', source: 'core.editor, sequence.editor', reach: 'commit, tag -a, merge, rebase -i, config --edit (git var only prints it)', off: [judged('L1', 'commit, tag, merge, rebase'), judged('L2', 'rebase -i, config --edit')] },
  { program: 'git', source: 'merge.<driver>.driver', reach: 'merge, rebase, cherry-pick, revert, am', off: [judged('L1', 'merging subcommands')] },
  { program: 'git', source: 'interactive.diffFilter', reach: 'add -p', off: [judged('L1', 'git add')] },
  { program: 'git', source: 'submodule.<name>.update (!command)', reach: 'submodule update', off: [judged('L1', 'git submodule update')] },
  { program: 'git', source: 'difftool.*, mergetool.*', reach: 'difftool, mergetool', off: [judged('L2', 'git difftool, git mergetool')] },
  { program: 'git', source: 'sendemail.sendmailCmd, sendemail.toCmd, sendemail.ccCmd, sendemail.headerCmd', reach: 'send-email', off: [judged('L2', 'git send-email')] },
  { program: 'git', source: 'uploadpack.packObjectsHook, receive.procReceiveRefs', reach: 'the server side: upload-pack, receive-pack', off: [judged('L2', 'git upload-pack, git receive-pack, git daemon')] },
  { program: 'git', source: 'instaweb.httpd, instaweb.browser', reach: 'instaweb', off: [judged('L2', 'git instaweb')] },
  { program: 'git', source: 'alias.<name> (!command)', reach: 'a subcommand git does not know', off: [judged('L2', 'unknown subcommands (git.unknown)')] },
  { program: 'git', source: 'include.path, includeIf.<cond>.path', reach: 'more config files: the keys above, wherever they come from', off: [judged('L1', 'none needed: command-scope overrides win over every file')] },
];

/** The other programs: files in the workspace they read that can name or be code. */
export const OTHER_WORKSPACE_PROGRAMS: WorkspaceProgram[] = [
  { program: 'python -m <module>, python <script>', source: 'the working folder (first on sys.path): ./pip/__main__.py, ./json/…', reach: 'every module import of the run', off: [{ kind: 'flag', flag: '-P (3.11+) or -I: the L0 forms (python -m pip list|show|freeze|check) are L0 only with it' }, judged('L1', 'python -m pip list without -P/-I')] },
  { program: 'cargo, rustc, rustup, rustfmt, rustdoc, clippy (rustup proxies)', source: 'rust-toolchain.toml / rust-toolchain with a `path` toolchain', reach: 'every command: the proxy runs the toolchain in that folder', off: [judged('L1', 'the L0 forms (cargo version, rustc --print, rustup show, …) when such a file names a path')] },
  { program: 'cargo', source: '.cargo/config.toml: build.rustc, build.rustc-wrapper, build.rustc-workspace-wrapper, target.<triple>.runner, alias.*', reach: 'cargo metadata / tree run rustc as named; build, run, test', off: [judged('L1', 'cargo metadata, cargo tree (repo.config_programs); build, run, test')] },
  { program: 'man', source: 'man -C <file> (a man-db configuration naming the pager and preprocessors)', reach: 'man -C', off: [judged('L2', 'man -C / --config-file')] },
  { program: 'pnpm', source: '.pnpmfile.cjs', reach: 'most pnpm commands load it', off: [judged('L1', 'pnpm other than root, bin, store-path')] },
  { program: 'yarn, composer, mvn, gradle, sbt', source: '.yarnrc.yml yarnPath and plugins, composer plugins, .mvn/, gradle wrapper', reach: 'every command', off: [judged('L1', 'every form (PROJECT_CODE_ALWAYS)')] },
  { program: 'npm', source: '.npmrc: script-shell, node-options, git, editor, browser; package.json scripts', reach: 'run-script, install, exec, edit, docs (npm ls and --version run none of them)', off: [judged('L1', 'npm run, install, exec, …')] },
  { program: 'make, cmake, ninja, bazel, jest, eslint, …', source: 'Makefile, jest.config.js, eslint.config.js, …', reach: 'every command but --version', off: [judged('L1', 'project.script')] },
  { program: 'pip', source: '$VIRTUAL_ENV/pip.conf (a virtual environment inside the workspace), PIP_CONFIG_FILE', reach: 'index and install settings; `pip config edit` runs an editor; no key names a program for list, show, freeze', off: [judged('L1', 'pip install, pip config edit (install)')] },
  { program: 'kubectl', source: '--kubeconfig <file>: users[].user.exec.command, auth-provider', reach: 'every command that talks to the cluster', off: [judged('L1', 'kubectl … --kubeconfig <file>')] },
  { program: 'go', source: 'go.mod / go.work `toolchain`', reach: 'go fetches and runs the Go release it names', off: [{ kind: 'env', name: 'GOTOOLCHAIN', value: 'local' }] },
];

/** Programs that run through rustup's proxies (they honour rust-toolchain files). */
export const RUSTUP_PROXIES = new Set(['cargo', 'rustc', 'rustup', 'rustdoc', 'rustfmt', 'cargo-fmt', 'cargo-clippy', 'clippy-driver', 'rust-gdb', 'rust-lldb', 'rust-gdbgui', 'rust-analyzer', 'rls', 'cargo-miri']);

/** Facts the runner gathers (registry/workspace-program-facts.ts): workspace files that name programs for this step. */
export interface WorkspaceProgramFacts {
  /** A rust-toolchain(.toml) between the step's folder and the workspace root that names a toolchain by path. */
  rustToolchainPath?: string;
}

/** Findings for workspace files that name programs `program` (the one a command really runs) would run. */
export function workspaceProgramFindings(program: string, facts: WorkspaceProgramFacts): Finding[] {
  const name = program.slice(program.lastIndexOf('/') + 1);
  if (facts.rustToolchainPath && RUSTUP_PROXIES.has(name)) return [finding('workspace.rust_toolchain', 'L1', { p: name, f: facts.rustToolchainPath })];
  return [];
}
