/**
 * What tool-runner loads on first use, in one place. A turn that only talks loads the package's
 * index and the tool registry (the tools' names, schemas and labels, for the model's reply) and
 * none of these: the runner, exec and the sandbox come with the first step; a tool's policy with
 * the first judgement of it; its implementation when it first runs; and what only some steps need
 * when one of them does.
 */
import { lazy } from './lazy';

// The package's API (index.ts): what a caller uses, loaded when it is first called.
/** The runner: judging, asking and running steps (it brings exec, the sandbox and every tool's runner). */
export const runnerModule = lazy(() => require('./runner') as typeof import('./runner'));
/** Running a command (cross-spawn, the spawn helper, output capture): judging a step never does. */
export const execModule = lazy(() => require('./exec') as typeof import('./exec'));
/** The OS sandbox: bubblewrap / Seatbelt arguments, probing, denials. */
export const sandboxModule = lazy(() => require('./sandbox') as typeof import('./sandbox'));
/** `.env` files' classes, for callers that show or hide them. */
export const workspaceSecretsModule = lazy(() => require('./sandbox/workspace-secrets') as typeof import('./sandbox/workspace-secrets'));
/** A judgement's three stages for a caller that judges without a runner (the program table with them). */
export const classifyModule = lazy(() => require('./policy/classify') as typeof import('./policy/classify'));
/** A verdict worded for an edge (the rule messages' renderer). */
export const renderVerdictModule = lazy(() => require('./render-verdict') as typeof import('./render-verdict'));
/** The redaction gate (@holic512/shared builds its tables when loaded): a caller that only reads the registry never needs it. */
export const redactModule = lazy(() => require('./redact') as typeof import('./redact'));
/** Parsers of known programs' output. */
export const parseOutputModule = lazy(() => require('./parse-output') as typeof import('./parse-output'));
/** Where a path really leads (links resolved), and the workspace around it. */
export const workspaceModule = lazy(() => require('./workspace') as typeof import('./workspace'));
/** HTML to text (it brings the entities tables). */
export const htmlTextModule = lazy(() => require('./html-text') as typeof import('./html-text'));
/** Which addresses a request may reach (it brings ipaddr.js and dns). */
export const netGuardModule = lazy(() => require('./net-guard') as typeof import('./net-guard'));
/** Completing a path the person types (`@file` in ai -i). */
export const pathCompleteModule = lazy(() => require('./tools/path-complete') as typeof import('./tools/path-complete'));
/** A hardened read-only git command run for the person (`/diff`). */
export const gitReadModule = lazy(() => require('./tools/git-read') as typeof import('./tools/git-read'));

// A tool's policy (registry/*.ts): the tool is defined with the package, judged on first use.
/** The program table and its families: judging exec and proc.start. */
export const programsModule = lazy(() => require('./policy/programs') as typeof import('./policy/programs'));
/** Where a command runs when it runs through wrappers (env, timeout, nice). */
export const unwrapModule = lazy(() => require('./policy/programs/unwrap') as typeof import('./policy/programs/unwrap'));
/** Path rules: secret stores, system folders, control characters. */
export const pathsModule = lazy(() => require('./policy/paths') as typeof import('./policy/paths'));
/** Invisible characters in program and path words. */
export const resolveProgramModule = lazy(() => require('./policy/resolve-program') as typeof import('./policy/resolve-program'));
/** The words of a command that lead through links, and the links that leave the workspace. */
export const linksModule = lazy(() => require('./policy/links') as typeof import('./policy/links'));
/** Gathering a command's links (lstat of its words and trees, per judgement). */
export const pathLinksModule = lazy(() => require('./registry/path-links') as typeof import('./registry/path-links'));
export const socketLinksModule = lazy(() => require('./registry/socket-links') as typeof import('./registry/socket-links'));
/** Workspace files that name programs a command would run (git config, package.json scripts). */
export const workspaceProgramsModule = lazy(() => require('./policy/workspace-programs') as typeof import('./policy/workspace-programs'));
/** Reading those files for a judgement. */
export const workspaceProgramFactsModule = lazy(
  () => require('./registry/workspace-program-facts') as typeof import('./registry/workspace-program-facts'),
);
/** What reading and writing a file means: fs.read, fs.write, fs.edit, fs.glob, fs.grep. */
export const fsRulesModule = lazy(() => require('./policy/fs-rules') as typeof import('./policy/fs-rules'));
/** Which hosts http.get may reach. */
export const netRulesModule = lazy(() => require('./policy/net-rules') as typeof import('./policy/net-rules'));
/** Which configuration files json_patch may change. */
export const configRulesModule = lazy(() => require('./policy/config-rules') as typeof import('./policy/config-rules'));
/** What a plugin's command does: plugin.run. */
export const pluginRulesModule = lazy(() => require('./policy/plugin-rules') as typeof import('./policy/plugin-rules'));
/** git's hardening: which git a command runs, judged with every exec step. */
export const gitHardenModule = lazy(() => require('./tools/git-harden') as typeof import('./tools/git-harden'));

// A tool's implementation (registry/*.ts): loaded when a step of that tool first runs.
export const execToolModule = lazy(() => require('./tools/exec-tool') as typeof import('./tools/exec-tool'));
export const fsReadModule = lazy(() => require('./tools/fs-read') as typeof import('./tools/fs-read'));
export const fsEditModule = lazy(() => require('./tools/fs-edit') as typeof import('./tools/fs-edit'));
export const fsGlobModule = lazy(() => require('./tools/fs-glob') as typeof import('./tools/fs-glob'));
export const fsGrepModule = lazy(() => require('./tools/fs-grep') as typeof import('./tools/fs-grep'));
export const httpGetModule = lazy(() => require('./tools/http-get') as typeof import('./tools/http-get'));
export const webSearchModule = lazy(() => require('./tools/web-search') as typeof import('./tools/web-search'));
export const procStepsModule = lazy(() => require('./tools/proc-steps') as typeof import('./tools/proc-steps'));
export const pluginRunToolModule = lazy(() => require('./tools/plugin-run-tool') as typeof import('./tools/plugin-run-tool'));
export const jsonPatchToolModule = lazy(() => require('./tools/json-patch-tool') as typeof import('./tools/json-patch-tool'));

// What only some steps need.
/** fs.grep runs ripgrep when there is one, and walks the files in node only when there is not. */
export const grepRgModule = lazy(() => require('./tools/grep-rg') as typeof import('./tools/grep-rg'));
export const grepNodeModule = lazy(() => require('./tools/grep-node') as typeof import('./tools/grep-node'));
/** The offer to run again with the workspace writable: only after the sandbox stopped a write. */
export const sandboxRetryModule = lazy(() => require('./sandbox/retry') as typeof import('./sandbox/retry'));
/** JSON patching: only json_patch steps. */
export const jsonPatch = lazy(() => require('@holic512/json-patch') as typeof import('@holic512/json-patch'));
/** Unified diffs: only a step that changes a file. */
export const diff = lazy(() => require('diff') as typeof import('diff'));
/** Glob patterns: fs.glob, and fs.grep's `glob` without ripgrep. */
export const picomatch = lazy(() => require('picomatch') as Picomatch);
/** gitignore semantics (negation, anchoring, `dir/`): only a walk that meets an ignore file. */
export const ignore = lazy(() => require('ignore') as (options?: { ignorecase?: boolean }) => IgnoreMatcher);
/** node:http's status texts: only a result shown in Claude Code's form. */
export const http = lazy(() => require('http') as typeof import('http'));
/** A worker thread: only an output stream past 1 MiB is read by one. */
export const workerThreads = lazy(() => require('worker_threads') as typeof import('worker_threads'));

/** picomatch's API as used here (the package has no types). */
export type Picomatch = ((
  glob: string,
  options?: { dot?: boolean; nocase?: boolean; basename?: boolean; noextglob?: boolean },
) => (p: string) => boolean) & {
  scan(glob: string): { base: string; isGlob: boolean };
};

/** An `ignore` matcher, as used here. */
export interface IgnoreMatcher {
  add(patterns: string): IgnoreMatcher;
  test(p: string): { ignored: boolean; unignored: boolean };
}

// Node's own modules a step needs only when the spawn helper starts or sends data.
/** child_process: forking the spawn helper (a turn that only talks never starts it). */
export const childProcessModule = lazy(() => require('child_process') as typeof import('child_process'));
/** crypto: naming the bytes a command reads from fd 3 (a sandbox's seccomp filter) by their hash. */
export const cryptoModule = lazy(() => require('crypto') as typeof import('crypto'));
