/**
 * Workspace-named programs, by class: per program, the files and config keys a workspace (a
 * repository someone else wrote) can use to name code that an otherwise read-only command runs,
 * and how each is neutralised at L0 (a `-c key=` override, an environment variable, an
 * interpreter flag) or else judged L1/L2. The rows are data (workspace-programs.json), of the
 * types below. docs/security.md §4b is this table in prose; the git overrides of
 * tools/git-harden.ts are taken from it.
 */
import { finding, type Finding } from './finding';
import table from './workspace-programs.json';

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

/**
 * The table: data, one row a line (workspace-programs.json). What the JSON's types cannot say
 * (the kinds and levels) test/workspace-programs-table.test.ts checks: the table changes only with
 * the code, so a check here would only repeat the test in every process that judges a command.
 */
const TABLE = table as { git: WorkspaceProgram[]; other: WorkspaceProgram[] };

/**
 * git: every key of git-config(1) that names a program (or a command line run by a shell), with
 * the subcommands that reach it. A repository's `.git/config` (and what it includes) sets any of
 * them; `.gitattributes` picks the diff/merge/filter drivers per path.
 */
export const GIT_PROGRAM_KEYS: readonly WorkspaceProgram[] = TABLE.git;

/** The other programs: files in the workspace they read that can name or be code. */
export const OTHER_WORKSPACE_PROGRAMS: readonly WorkspaceProgram[] = TABLE.other;

/** Programs that run through rustup's proxies (they honour rust-toolchain files). */
export const RUSTUP_PROXIES = new Set([
  'cargo',
  'rustc',
  'rustup',
  'rustdoc',
  'rustfmt',
  'cargo-fmt',
  'cargo-clippy',
  'clippy-driver',
  'rust-gdb',
  'rust-lldb',
  'rust-gdbgui',
  'rust-analyzer',
  'rls',
  'cargo-miri',
]);

/** Facts the runner gathers (registry/workspace-program-facts.ts): workspace files that name programs for this step. */
export interface WorkspaceProgramFacts {
  /** A rust-toolchain(.toml) between the step's folder and the workspace root that names a toolchain by path. */
  rustToolchainPath?: string;
}

/** Findings for workspace files that name programs `program` (the one a command really runs) would run. */
export function workspaceProgramFindings(program: string, facts: WorkspaceProgramFacts): Finding[] {
  const name = program.slice(program.lastIndexOf('/') + 1);
  if (facts.rustToolchainPath && RUSTUP_PROXIES.has(name))
    return [finding('workspace.rust_toolchain', 'L1', { p: name, f: facts.rustToolchainPath })];
  return [];
}
