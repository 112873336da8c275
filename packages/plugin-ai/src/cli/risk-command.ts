import * as os from 'os';
import { redactValue } from '@holic512/shared';
import { policyOf, loadToolRunner } from './app';
import { loadConfig } from '../config/config';
import { AiError } from '../errors';
import { exitCodeOfError, EXIT } from './exit-codes';
import { aiPaths, slothtoolHome } from '../home';
import { t, type Lang } from '../i18n';

export interface RiskArgs {
  json: boolean;
  argv: string[];
}

/** `ai risk [--json] -- <program> [args…]`: the level and rules for a command, with the
 * user's ai.json policy applied, so a user can see why something was refused. */
export async function runRisk(
  args: RiskArgs,
  lang: Lang,
  io: { stdout?: NodeJS.WritableStream; stderr?: NodeJS.WritableStream; env?: NodeJS.ProcessEnv; cwd?: string } = {},
): Promise<number> {
  const stdout = io.stdout ?? process.stdout;
  const stderr = io.stderr ?? process.stderr;
  const env = io.env ?? process.env;
  const cwd = io.cwd ?? process.cwd();
  try {
    const config = loadConfig(aiPaths(slothtoolHome(env)).config);
    const home = env.HOME || env.USERPROFILE || os.homedir();
    const [program, ...rest] = args.argv;
    const step = { tool: 'exec' as const, program, args: rest };
    const tr = loadToolRunner('verdictOf');
    // Judged without language, worded here, at the edge that shows it (renderVerdict redacts the
    // reasons, which quote the command's arguments; the step is redacted with them).
    const decision = tr.renderVerdict(tr.verdictOf(step, policyOf(config), { cwd, home }), lang);
    const shown = redactValue({ step, level: decision.level, rules: decision.rules });
    if (args.json) {
      stdout.write(JSON.stringify(shown) + '\n');
      return EXIT.ok;
    }
    const lines = [t(lang, 'riskLevel', { level: shown.level })];
    for (const rule of shown.rules) {
      lines.push(t(lang, 'riskRule', { id: rule.id, level: rule.level, reason: rule.reason }));
      if (rule.hint) lines.push(t(lang, 'riskHint', { hint: rule.hint }));
    }
    stdout.write(lines.join('\n') + '\n');
    return EXIT.ok;
  } catch (err) {
    if (!AiError.isInstance(err)) throw err;
    stderr.write(t(lang, err.key, err.vars) + '\n');
    return exitCodeOfError(err);
  }
}
