import type { Lang } from '@holic512/shared';
import type { ToolStep } from './tool-steps';
import type { ExecInput } from './registry/exec';

/** Risk level: L0 runs without asking, L1 asks the user, L2 is refused. */
export type Level = 'L0' | 'L1' | 'L2';

/** Language of user-facing reasons and hints (shared's: one definition). */
export type { Lang };

/** What the model says a step needs. Advice only: it can raise a level, never lower it. */
export interface Requires {
  confirm?: boolean;
  elevated?: boolean;
  network?: boolean;
  write?: boolean;
}

/** One operation of a JSON config patch (RFC 6902 plus set/unset). */
export interface PatchOp {
  op: string;
  path: string;
  value?: unknown;
  from?: string;
}

/** Run one program with an argument vector: `program`, `args`, `cwd?`, `timeoutMs?`, `requires?` (its schema in registry/exec.ts). */
export type ExecStep = ExecInput & { tool: 'exec' };

export interface PluginRunStep {
  tool: 'plugin.run';
  plugin: string;
  args: string[];
  requires?: Requires;
}

export interface JsonPatchStep {
  tool: 'config.json_patch';
  file: string;
  patch: PatchOp[];
  requires?: Requires;
}

/** A step the model asks for (DESIGN §4), including issue #10's fs.*, http.get and proc.*. */
export type Step = ExecStep | PluginRunStep | JsonPatchStep | ToolStep;

export type {
  FsReadStep,
  FsEditStep,
  FsEditOne,
  FsWriteStep,
  FsGlobStep,
  FsGrepStep,
  WebSearchStep,
  HttpGetStep,
  ProcStartStep,
  ProcStatusStep,
  ProcKillStep,
  PlanItem,
  PlanUpdateStep,
  ToolStep,
} from './tool-steps';

/** One fired rule: why a step got its level. */
export interface Rule {
  id: string;
  level: Level;
  /** User-facing reason in the requested language. */
  reason: string;
  /** What the user can do about it (how to allow it, a safer alternative). */
  hint?: string;
}

/** The verdict on a step: the strictest fired rule decides. */
export interface Decision {
  level: Level;
  rules: Rule[];
}

/** Policy settings from the caller's config (e.g. ~/.slothtool/plugin-configs/ai.json). */
export interface Policy {
  /**
   * Programs the user allows beyond the built-in table. An entry is a program name
   * (`"terraform"`) or a program with leading arguments (`"node scripts/build.js"`).
   * A matching step that would otherwise be blocked only for being unknown (or for running
   * a script file) is asked about (L1) instead. Dangerous-argument rules still apply.
   */
  allowedPrograms?: string[];
  /** Network-only reads (curl, git fetch, npm view) run without asking. */
  allowNetwork?: boolean;
  /** Plain file writes in the workspace (touch, mkdir, cp, git add) run without asking. */
  allowWrite?: boolean;
  /** sudo/doas are judged by the wrapped command (at least L1) instead of being blocked. */
  allowSudo?: boolean;
  /** plugin.run: plugin aliases whose every invocation is L0. */
  trustedPlugins?: string[];
  /**
   * http.get: loopback, private and link-local addresses may be reached — `true` for all, or a
   * list of host names / `host:port` (`["localhost:3000"]`). Default: none.
   */
  allowPrivateNetwork?: boolean | string[];
  /**
   * Permission rules per tool (`exec(git log *)`, `fs.edit(src/**)`, `http.get(domain:x.y)`,
   * `mcp.github.*`): deny > ask > allow > the rules' level. An allow rule lowers an L1 step to
   * L0 (never an L2 one, never a finding about that exact step, like an edit outside the
   * workspace); ask always asks; deny refuses. `source` names the file they came from.
   */
  permissions?: { allow?: string[]; ask?: string[]; deny?: string[]; source?: string };
  /**
   * Folders of trusted code (the session's skill folders): a script inside one, run as the
   * program or through an interpreter, is asked about (L1) instead of refused as an unknown
   * script. Other findings (secrets, inline code, dangerous options) stay as they are.
   */
  trustedCodeRoots?: string[];
  /** More rule sets with their own source (a project's `.slothtool/settings.json`), applied like `permissions`. */
  extraPermissions?: Array<{ allow?: string[]; ask?: string[]; deny?: string[]; source: string }>;
}

/** Context for classification. */
export interface ClassifyContext {
  /** Working directory the step will run in (workspace root). */
  cwd?: string;
  /** The user's home directory, to spot secret stores and paths outside the workspace. */
  home?: string;
  lang?: Lang;
  /** plugin.run: metadata of installed plugins, when known. */
  plugins?: Record<string, { interactive?: boolean }>;
}

/**
 * How much runs without a question: `default` (L0 runs, L1 asks, L2 is refused), `plan` (only L0
 * runs: the model plans), `auto-edit` (fs.edit / fs.write inside the workspace run too), `yolo`
 * (every L1 runs; only inside an OS sandbox). L2 is refused in every mode.
 */
export type RunMode = 'plan' | 'default' | 'auto-edit' | 'yolo';
export const RUN_MODES: readonly RunMode[] = ['plan', 'default', 'auto-edit', 'yolo'];

/** The default output cap of exec: bytes kept of each stream, a quarter at the head, the rest at the tail. */
export const DEFAULT_MAX_OUTPUT_BYTES = 65536;
