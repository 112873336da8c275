/**
 * An app for a run with nobody at a question (`ai -p`, `--input-format stream-json`): built from
 * the command line, checked before any model call, its start notices said and its run mode set.
 * The two front ends differ only in how they say a problem (`say`) and in what their turns are.
 */
import type { AgentConfirmFn } from '../agent/agent';
import { AiError } from '../errors';
import { t, type Lang } from '../i18n';
import { needsSetup } from '../setup/needs';
import { setupHint } from '../lazy-modules';
import { appOptionsOf, type RunArgs } from './args';
import { createAppAgent, type AppAgent } from './app';
import { EXIT, exitCodeOfError } from './exit-codes';
import type { JsonEventWriter } from './json-output';
import { startNotices } from './start-notices';

/** Without a person to ask: L1 only with --approve-l1, L2 never. */
export function nonInteractiveConfirm(approveL1: boolean, lang: Lang): AgentConfirmFn {
  return async (request) => {
    if (approveL1 && request.verdict.level === 'L1') return { action: 'run', approvedBy: 'flag' };
    return { action: 'decline', reason: t(lang, 'declinedNoPerson') };
  };
}

/**
 * Before any model call, what stops the turn, said with its fix: a broken llm-base config (exit 2,
 * a bad config) or no profile and nobody to run the guided setup with (exit 4). Only the check
 * and the hint: the setup itself (prompts, probes, presets) is not loaded here.
 */
export function preflight(
  app: Pick<AppAgent, 'registry'>,
  args: RunArgs,
  env: NodeJS.ProcessEnv,
  lang: Lang,
  say: (message: string, code: string) => void,
): number | undefined {
  const needs = needsSetup({ env, registry: app.registry, profile: args.profile ?? null });
  if (needs.configProblem) {
    say(needs.configProblem, 'CONFIG_INVALID');
    return EXIT.usage;
  }
  if (needs.reason === 'no-profile') {
    say(setupHint().setupHint(lang, needs) ?? '', 'NO_PROFILE');
    return EXIT.llmBase;
  }
  return undefined;
}

/** Where an unattended run starts and how it says a problem (stderr, and a JSON `error` event where the run speaks JSON). */
export interface UnattendedStart {
  env: NodeJS.ProcessEnv;
  cwd: string;
  stderr: NodeJS.WritableStream;
  json: JsonEventWriter;
  say: (code: string, message: string) => void;
}

/** The app, ready for its first turn; or, said through `say`, the exit code that ends the run before any. */
export function openUnattended(args: RunArgs, lang: Lang, start: UnattendedStart): AppAgent | number {
  const { env, cwd, say } = start;
  let app: AppAgent;
  try {
    app = createAppAgent({
      ...appOptionsOf(args),
      env,
      cwd,
      lang,
      confirm: nonInteractiveConfirm(args.approveL1, lang),
      unattended: true,
    });
  } catch (err) {
    if (!AiError.isInstance(err)) throw err;
    say(err.code, t(lang, err.key, err.vars));
    return exitCodeOfError(err);
  }
  const blocked = preflight(app, args, env, lang, (message, code) => say(code, message));
  if (blocked !== undefined) return blocked;
  start.json.limit = app.config.jsonOutputBytes;
  for (const line of startNotices(app, lang, cwd)) start.stderr.write(line + '\n');
  if (args.runMode) {
    const r = app.agent.setRunMode(args.runMode);
    if (!r.ok) {
      app.agent.dispose();
      say('BAD_MODE', t(lang, 'badRunMode', { mode: args.runMode, reason: r.reason }));
      return EXIT.usage;
    }
  }
  return app;
}
