import { onClosedPipe } from '@holic512/shared/lib/epipe';
import { closest, usageMessage, USAGE_EXIT_CODE } from '@holic512/shared/lib/usage';
import { ArgsError, chatFlags, OPTIONS, parseArgs, parseRawPayload, ParsedArgs } from './cli-args';
import { configCommand, interactive } from './cli-config';
import { argsProblem, CliFailure, defaultIo, help, json, unwrap, usageError, UsageFailure, type CliIo } from './cli-io';
import { printDoctor, printProbe } from './cli-reports';
import type { ApiError } from './errors';
import { Lang, readLanguage, t } from './i18n';
import * as api from './index';
import { formatPullProgress } from './ollama';

export type { CliIo } from './cli-io';

const COMMANDS = ['config', 'chat', 'raw', 'doctor', 'pull', 'probe'];
const OPTION_NAMES = Object.keys(OPTIONS).map((name) => `--${name}`);

async function run(argv: string[], io: CliIo, lang: Lang): Promise<number> {
  const args = parseArgs(argv);
  const cmd = args.positionals[0];
  if (args.flags.version) {
    io.stdout(api.VERSION + '\n');
    return 0;
  }
  if (args.flags.help || (cmd === undefined && !args.flags.interactive)) {
    io.stdout(help(lang));
    return 0;
  }
  if (cmd === undefined || (args.flags.interactive && cmd !== 'config')) return interactive(io, lang);
  switch (cmd) {
    case 'config':
      return configCommand(args, io, lang);
    case 'chat': {
      const { mode, profile } = chatFlags(args.flags);
      const message = args.positionals.slice(1).join(' ').trim();
      const result = await api.llm_chat(message ? [{ role: 'user', content: message }] : [], mode as 'low', profile);
      (result.success ? io.stdout : io.stderr)(json(result));
      return result.success ? 0 : 1;
    }
    case 'raw': {
      const { profile } = chatFlags(args.flags);
      const payload = parseRawPayload(args.positionals.slice(1).join(' '));
      const result = await api.llm_raw(payload, profile);
      (result.success ? io.stdout : io.stderr)(json(result));
      return result.success ? 0 : 1;
    }
    case 'pull':
      return pullCommand(args, io, lang);
    case 'probe': {
      const r = await api.probe_profile(args.positionals[1] ?? (typeof args.flags.profile === 'string' ? args.flags.profile : null));
      if (!r.success || args.flags.json) (r.success ? io.stdout : io.stderr)(json(r));
      else printProbe(r.data, io, lang);
      return r.success ? 0 : 1;
    }
    case 'doctor': {
      const report = await api.doctor(args.positionals[1] ?? (typeof args.flags.profile === 'string' ? args.flags.profile : null));
      if (args.flags.json) io.stdout(json(report));
      else printDoctor(report, io, lang);
      return report.ok ? 0 : 1;
    }
    default:
      throw usageError(t(lang, 'unknownCommand', { cmd }), closest(cmd, COMMANDS));
  }
}

/**
 * `pull [model...] [--profile p]`: download models onto the profile's Ollama server (without a
 * model: its low and high models), progress on stderr, the result as JSON on stdout.
 */
async function pullCommand(args: ParsedArgs, io: CliIo, lang: Lang): Promise<number> {
  const { profile } = chatFlags(args.flags);
  let models = args.positionals.slice(1);
  if (models.length === 0) {
    const list = unwrap(api.list_profiles());
    const id = profile ?? list.default_profile;
    const p = id && Object.prototype.hasOwnProperty.call(list.profiles, id) ? list.profiles[id] : undefined;
    if (!p) throw usageError(t(lang, 'pullNoModel'));
    models = [...new Set([p.low_model, p.high_model])];
  }
  let shown = '';
  for (const model of models) {
    const result = await api.pull_model(model, profile, {
      onProgress: (p) => {
        const line = `${model}: ${formatPullProgress(p)}`;
        // One line per change of status, and at most one per whole percent while a layer downloads.
        if (line === shown) return;
        shown = line;
        io.stderr(line + '\n');
      },
    });
    if (!result.success) {
      io.stderr(json(result));
      return 1;
    }
    io.stderr(t(lang, 'pullDone', { model }) + '\n');
  }
  io.stdout(json({ success: true, data: { models } }));
  return 0;
}

/** CLI entry: the only place that prints and sets the exit code. Resolves to the exit code. */
export async function main(argv: string[], io: CliIo = defaultIo()): Promise<number> {
  // A reader that goes away (`| head -1`) ends the CLI quietly with status 0.
  for (const stream of [process.stdout, process.stderr]) onClosedPipe(stream, () => process.exit(0));
  const lang = readLanguage(process.env);
  let code: number;
  try {
    code = await run(argv, io, lang);
  } catch (err) {
    if (err instanceof UsageFailure || err instanceof ArgsError) {
      // A bad command line reads the same in every SlothTool CLI: what was wrong, the closest
      // option or command, where the options are; exit 2.
      const suggestion =
        err instanceof UsageFailure ? err.suggestion : err.key === 'argUnknownOption' ? closest(err.vars.option, OPTION_NAMES) : undefined;
      const detail =
        err instanceof UsageFailure ? err.message : err.key ? argsProblem(err, lang) : t(lang, 'badArgs', { issues: err.message });
      io.stderr(usageMessage(lang, { detail, suggestion, help: 'slothtool llm-base --help' }) + '\n');
      code = USAGE_EXIT_CODE;
    } else {
      const error: ApiError =
        err instanceof CliFailure ? err.error : { code: 'PROVIDER_ERROR', message: err instanceof Error ? err.message : String(err) };
      io.stderr(json({ success: false, error, call_id: null }));
      code = 1;
    }
  }
  process.exitCode = code;
  return code;
}
