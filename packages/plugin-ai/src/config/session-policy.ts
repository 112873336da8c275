/**
 * The permission rules a session in a folder applies, read the same way wherever they are needed:
 * the session itself (cli/app.ts), `ai risk` (what would happen here) and `/permissions` (what
 * applies here). Sources, in the order the policy lists them: ai.json's `permissions` and its
 * `projectPermissions` for this folder, the project's `.slothtool/settings.json`, and Claude Code's
 * settings files (user < project < local), the project's files under project trust.
 */
import os = require('os');
import type { AiConfig } from './config';
import type { AiPaths } from '../home';
import type { Policy } from '../agent/runner-types';
import { findGitRoot } from '../context/project-context';
import { readProjectRules, type ProjectRules } from './project-rules';
import { readClaudeSettings, type ClaudeSettings } from '../extensions/claude-settings';
import { projectExtras, TrustStore, type ProjectExtras, type TrustState } from '../extensions/trust';

type RuleSet = NonNullable<ProjectRules['set']>;

/** The tool-runner policy from the ai config, with the rule sets of other files after its own. */
export function policyOf(config: AiConfig, file?: string, project?: RuleSet, workspace?: string, more: readonly RuleSet[] = []): Policy {
  const mine = workspace ? config.projectPermissions?.[workspace] : undefined;
  const extra = [
    ...(mine ? [{ ...mine, source: `${file ?? 'ai.json'} (projectPermissions ${workspace})` }] : []),
    ...(project ? [project] : []),
    ...more,
  ];
  // trustedPlugins (the original SlothTool's setting): their plugin.run steps need no question
  // (tool-runner's plugin.trusted). allowedPrograms: an unknown program asks instead of being refused.
  return {
    ...(config.permissions ? { permissions: { ...config.permissions, ...(file ? { source: file } : {}) } } : {}),
    ...(config.trustedPlugins ? { trustedPlugins: config.trustedPlugins } : {}),
    ...(extra.length ? { extraPermissions: extra } : {}),
    allowedPrograms: config.allowedPrograms,
    allowNetwork: config.allowNetwork,
    allowWrite: config.allowWrite,
    allowSudo: config.allowSudo,
    allowPrivateNetwork: config.allowPrivateNetwork,
  };
}

export interface SessionRules {
  /** The project folder: the git root, else the working folder. */
  projectRoot: string;
  userHome: string;
  project: { extras: ProjectExtras; trust: TrustState };
  projectRules: ProjectRules;
  claude: ClaudeSettings;
  policy: Policy;
  /** The rule sets of files other than ai.json (the project's, Claude Code's), each with its file. */
  otherRules: RuleSet[];
}

/** Every rule source of a session in `cwd`, and the policy they make. */
export function sessionRules(config: AiConfig, paths: AiPaths, cwd: string, env: NodeJS.ProcessEnv): SessionRules {
  const projectRoot = findGitRoot(cwd) ?? cwd;
  const userHome = env.HOME || env.USERPROFILE || os.homedir();
  const extras = projectExtras(projectRoot, paths.home, userHome);
  const trust = new TrustStore(paths.trust).state(extras);
  const projectRules = readProjectRules(projectRoot, paths.trust, trust, paths.home);
  const claude = readClaudeSettings(userHome, projectRoot, trust === 'trusted');
  const otherRules = [...(projectRules.set ? [projectRules.set] : []), ...claude.rules];
  return {
    projectRoot,
    userHome,
    project: { extras, trust },
    projectRules,
    claude,
    policy: policyOf(config, paths.config, projectRules.set, projectRoot, claude.rules),
    otherRules,
  };
}
