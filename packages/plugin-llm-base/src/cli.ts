import { onClosedPipe } from '@holic512/shared/lib/epipe';
import { closest, usageMessage, USAGE_EXIT_CODE } from '@holic512/shared/lib/usage';
import * as api from './index';
import { ArgsError, chatFlags, OPTIONS, parseArgs, parseRawPayload, profileFlags, ParsedArgs } from './cli-args';
import { Lang, readLanguage, t } from './i18n';
import { isEnvReference, maskConfig, maskProfile } from './masking';
import { findPreset, presetBaseUrl, presetProfile, PRESETS } from './presets';
import { PROFILE_DEFAULTS } from './config-store';
import { prompts } from './lazy-modules';
import { formatPullProgress } from './ollama';
import type { ProbeReport } from './probe';
import { effectiveTransport } from './transport';
import type { ApiError } from './errors';
import type { DoctorReport } from './doctor';

/** Where the CLI writes; the real process by default. */
export interface CliIo {
  stdout(text: string): void;
  stderr(text: string): void;
  /** Whether prompts may be shown. */
  interactive: boolean;
}

function defaultIo(): CliIo {
  return {
    stdout: (s) => process.stdout.write(s),
    stderr: (s) => process.stderr.write(s),
    interactive: Boolean(process.stdin.isTTY && process.stdout.isTTY),
  };
}

/** A failure the CLI prints in the original `{success: false, error, call_id: null}` shape. */
class CliFailure extends Error {
  constructor(readonly error: ApiError) {
    super(error.message);
  }
}

const json = (v: unknown) => JSON.stringify(v, null, 2) + '\n';

function unwrap<T>(r: api.DataResult<T>): T {
  if (!r.success) throw new CliFailure(r.error);
  return r.data;
}

/** A bad command line: printed as a usage message (stderr, exit 2), never as a JSON envelope. */
class UsageFailure extends Error {
  constructor(message: string, readonly suggestion?: string) {
    super(message);
  }
}

const usageError = (message: string, suggestion?: string): UsageFailure => new UsageFailure(message, suggestion);

const COMMANDS = ['config', 'chat', 'raw', 'doctor', 'pull', 'probe'];
const CONFIG_COMMANDS = ['create', 'update', 'delete', 'set-default', 'list', 'show', 'export', 'presets'];
const OPTION_NAMES = Object.keys(OPTIONS).map((name) => `--${name}`);

function help(lang: Lang): string {
  const lines = [
    t(lang, 'title'),
    '',
    t(lang, 'usage'),
    '  slothtool llm-base config create [name] [--preset <preset>] [--base-url <url>] [--api-key <key|env:VAR>]',
    '                                   [--low-model <id>] [--high-model <id>] [--timeout <ms>] [--json-mode prompt|response_format] [--max-retries <n>]',
    '                                   [--transport auto|tools|json_schema|json]',
    '  slothtool llm-base config update <name> [same options]',
    '  slothtool llm-base config delete|set-default <name>',
    '  slothtool llm-base config list | show [name] | export | presets',
    '  slothtool llm-base chat <message> [--mode low|high] [--profile <name>]',
    '  slothtool llm-base raw <json-payload> [--profile <name>]',
    '  slothtool llm-base doctor [profile] [--json]',
    '  slothtool llm-base pull [model...] [--profile <name>]   (Ollama)',
    '  slothtool llm-base probe [profile] [--json]',
    '',
    t(lang, 'options'),
    `  -h, --help             ${t(lang, 'helpText')}`,
    `  -i, --interactive      ${t(lang, 'interactiveText')}`,
    `  -v, --version          ${t(lang, 'versionText')}`,
    `  -y, --yes              ${t(lang, 'yesText')}`,
    `  --json                 ${t(lang, 'jsonText')}`,
    `  --profile <name>       ${t(lang, 'profileText')}`,
    `  --mode low|high        ${t(lang, 'modeText')}`,
    `  --preset <preset>      ${t(lang, 'presetText')}`,
    `  --base-url <url>       ${t(lang, 'baseUrlText')}`,
    `  --api-key <key|env:VAR> ${t(lang, 'apiKeyText')}`,
    `  --low-model <id>       ${t(lang, 'lowModelText')}`,
    `  --high-model <id>      ${t(lang, 'highModelText')}`,
    `  --timeout <ms>         ${t(lang, 'timeoutText')}`,
    `  --json-mode prompt|response_format  ${t(lang, 'jsonModeText')}`,
    `  --max-retries <n>      ${t(lang, 'maxRetriesText')}`,
    `  --transport auto|tools|json_schema|json  ${t(lang, 'transportText')}`,
    '',
    t(lang, 'languageLine'),
    '',
    t(lang, 'presetsHeader') + ' ' + PRESETS.map((p) => p.name).join(', '),
    '',
    t(lang, 'examples'),
    '  slothtool llm-base config create --preset ollama',
    '  slothtool llm-base config create ds --preset deepseek --api-key env:DEEPSEEK_API_KEY',
    '  slothtool llm-base config update ds --high-model deepseek-reasoner --timeout 120000 --max-retries 3',
    '  slothtool llm-base config create local --base-url http://127.0.0.1:8080/v1 --low-model qwen --high-model qwen --json-mode prompt',
    '  slothtool llm-base config delete old',
    '  slothtool llm-base doctor --json',
    '  slothtool llm-base pull qwen2.5:7b --profile local',
    '  slothtool llm-base probe ds',
    `  slothtool llm-base chat "${t(lang, 'exampleChatPrompt')}" --mode low --profile ds`,
    '  slothtool llm-base -i',
  ];
  return lines.join('\n') + '\n';
}

/** Ask for the profile fields, starting from `initial`. Cancel (Ctrl-C) returns null. */
async function askProfile(lang: Lang, initial: Record<string, unknown>): Promise<Record<string, unknown> | null> {
  const ask = prompts();
  // A stored key is never put on the screen: it is asked for hidden, and Enter keeps it.
  const currentKey = typeof initial.api_key === 'string' ? initial.api_key : '';
  const hideKey = currentKey !== '' && !isEnvReference(currentKey);
  let cancelled = false;
  const answers = await ask(
    [
      { type: 'text', name: 'base_url', message: t(lang, 'enterBaseUrl'), initial: String(initial.base_url ?? '') },
      hideKey
        ? { type: 'password', name: 'api_key', message: t(lang, 'enterApiKeyKeep') }
        : { type: 'text', name: 'api_key', message: t(lang, 'enterApiKey'), initial: currentKey },
      { type: 'text', name: 'low_model', message: t(lang, 'enterLowModel'), initial: String(initial.low_model ?? '') },
      { type: 'text', name: 'high_model', message: t(lang, 'enterHighModel'), initial: String(initial.high_model ?? '') },
      { type: 'number', name: 'timeout', message: t(lang, 'enterTimeout'), initial: Number(initial.timeout ?? 60000) },
    ],
    { onCancel: () => ((cancelled = true), false) },
  );
  if (cancelled) return null;
  if (hideKey && !answers.api_key) answers.api_key = currentKey;
  return { ...initial, ...answers };
}

async function askPreset(lang: Lang): Promise<Record<string, unknown> | null> {
  const ask = prompts();
  const { preset } = await ask({
    type: 'select',
    name: 'preset',
    message: t(lang, 'choosePreset'),
    choices: [
      ...PRESETS.map((p) => ({ title: `${p.label}  ${presetBaseUrl(p)}`, value: p.name })),
      { title: t(lang, 'customPreset'), value: '' },
    ],
  });
  if (preset === undefined) return null;
  const found = preset ? findPreset(preset) : undefined;
  return found ? presetProfile(found) : { ...PROFILE_DEFAULTS };
}

async function configCommand(args: ParsedArgs, io: CliIo, lang: Lang): Promise<number> {
  const [sub, name] = args.positionals.slice(1);
  if (args.flags.interactive) return interactive(io, lang);
  if (sub === undefined) {
    io.stdout(help(lang));
    return 0;
  }
  switch (sub) {
    case 'create': {
      const fields = profileFlags(args.flags);
      let base: Record<string, unknown> = {};
      let profileName = name;
      if (typeof args.flags.preset === 'string') {
        const preset = findPreset(args.flags.preset);
        if (!preset) throw usageError(t(lang, 'unknownPreset', { name: args.flags.preset, names: PRESETS.map((p) => p.name).join(', ') }), closest(args.flags.preset, PRESETS.map((p) => p.name)));
        base = presetProfile(preset);
        profileName ??= preset.name;
      } else if (Object.keys(fields).length === 0) {
        if (!io.interactive) throw usageError(t(lang, 'notInteractive'));
        const chosen = await askPreset(lang);
        if (!chosen) return 1;
        const asked = await askProfile(lang, chosen);
        if (!asked) return 1;
        base = asked;
      }
      if (!profileName) {
        if (!io.interactive) throw usageError(t(lang, 'missingArg', { arg: 'name' }));
        const ask = prompts();
        profileName = (await ask({ type: 'text', name: 'n', message: t(lang, 'enterProfileName') })).n;
        if (!profileName) return 1;
      }
      const config = unwrap(api.create_profile(profileName, { ...base, ...fields }));
      io.stdout(json(maskConfig(config)));
      io.stdout(t(lang, 'configCreated', { name: profileName }) + '\n');
      return 0;
    }
    case 'update': {
      if (!name) throw usageError(t(lang, 'missingArg', { arg: 'name' }));
      let fields = profileFlags(args.flags);
      if (Object.keys(fields).length === 0) {
        if (!io.interactive) throw usageError(t(lang, 'notInteractive'));
        const list = unwrap(api.list_profiles());
        const current = Object.prototype.hasOwnProperty.call(list.profiles, name) ? list.profiles[name] : undefined;
        if (!current) throw new CliFailure({ code: 'NO_PROFILE', message: t(lang, 'noProfile', { name }) });
        const asked = await askProfile(lang, current);
        if (!asked) return 1;
        fields = asked;
      }
      const config = unwrap(api.update_profile(name, fields));
      io.stdout(json(maskConfig(config)));
      io.stdout(t(lang, 'configUpdated', { name }) + '\n');
      return 0;
    }
    case 'delete': {
      if (!name) throw usageError(t(lang, 'missingArg', { arg: 'name' }));
      io.stdout(json(maskConfig(unwrap(api.delete_profile(name)))));
      io.stdout(t(lang, 'configDeleted', { name }) + '\n');
      return 0;
    }
    case 'set-default': {
      if (!name) throw usageError(t(lang, 'missingArg', { arg: 'name' }));
      io.stdout(json(maskConfig(unwrap(api.set_default_profile(name)))));
      io.stdout(t(lang, 'defaultSet', { name }) + '\n');
      return 0;
    }
    case 'list': {
      const list = unwrap(api.list_profiles());
      io.stdout(json({ default_profile: list.default_profile, profiles: Object.keys(list.profiles) }));
      return 0;
    }
    case 'show': {
      const list = unwrap(api.list_profiles());
      const id = name || list.default_profile;
      const profile = id && Object.prototype.hasOwnProperty.call(list.profiles, id) ? list.profiles[id] : undefined;
      if (!profile) {
        throw new CliFailure({ code: 'NO_PROFILE', message: id ? t(lang, 'noProfile', { name: id }) : t(lang, 'noDefaultProfile') });
      }
      io.stdout(json({ profile_id: id, profile: maskProfile(profile) }));
      return 0;
    }
    case 'export': {
      const list = unwrap(api.list_profiles());
      io.stdout(json(maskConfig({ default_profile: list.default_profile, profiles: list.profiles })));
      return 0;
    }
    case 'presets': {
      io.stdout(json(api.list_presets()));
      return 0;
    }
    default: {
      const near = closest(sub, CONFIG_COMMANDS);
      throw usageError(t(lang, 'unknownCommand', { cmd: `config ${sub}` }), near && `config ${near}`);
    }
  }
}

function printDoctor(report: DoctorReport, io: CliIo, lang: Lang): void {
  const list = api.list_profiles();
  const url = report.profile && list.success ? (list.data.profiles[report.profile]?.base_url ?? '') : '';
  io.stdout(t(lang, 'doctorHeader', { name: report.profile ?? '-', url: url || '-' }) + '\n');
  for (const c of report.checks) {
    const mark = c.ok ? '✓' : c.skipped ? '-' : '✗';
    io.stdout(`  ${mark} ${c.id.padEnd(9)} ${c.message}\n`);
    if (c.fix) io.stdout(`      → ${c.fix}\n`);
  }
  const tr = report.transport;
  if (tr) {
    const c = tr.capabilities;
    const how = c ? t(lang, 'transportProbed', { at: c.probed_at.slice(0, 10), tools: c.tools ? '✓' : '✗', schema: c.json_schema ? '✓' : '✗' }) : t(lang, 'transportNotProbed', { name: report.profile ?? '' });
    io.stdout(`  · ${t(lang, 'chkTransport', { transport: tr.setting === 'auto' ? `auto → ${tr.effective}` : tr.effective, how })}\n`);
  }
  io.stdout((report.ok ? t(lang, 'doctorOk') : t(lang, 'doctorFailed')) + '\n');
}

function printProbe(report: ProbeReport, io: CliIo, lang: Lang): void {
  io.stdout(t(lang, 'probeHeader', { name: report.profile, model: report.model }) + '\n');
  for (const id of ['tools', 'json_schema', 'json_object', 'vision'] as const) io.stdout(`  ${report[id].ok ? '✓' : '✗'} ${id.padEnd(11)} ${report[id].detail}\n`);
  io.stdout(t(lang, 'probeAuto', { transport: effectiveTransport({ transport: 'auto', capabilities: report.capabilities }) }) + '\n');
}

async function interactive(io: CliIo, lang: Lang): Promise<number> {
  if (!io.interactive) throw usageError(t(lang, 'notInteractive'));
  const ask = prompts();
  const pickProfile = async (): Promise<string | undefined> => {
    const list = unwrap(api.list_profiles());
    const names = Object.keys(list.profiles);
    if (names.length === 0) {
      io.stdout(t(lang, 'noDefaultProfile') + '\n');
      return undefined;
    }
    const { name } = await ask({
      type: 'select',
      name: 'name',
      message: t(lang, 'chooseProfile'),
      choices: names.map((n) => ({ title: n === list.default_profile ? `${n} *` : n, value: n })),
    });
    return name;
  };
  for (;;) {
    const { action } = await ask({
      type: 'select',
      name: 'action',
      message: t(lang, 'menuTitle'),
      choices: [
        { title: t(lang, 'menuCreate'), value: 'create' },
        { title: t(lang, 'menuUpdate'), value: 'update' },
        { title: t(lang, 'menuDelete'), value: 'delete' },
        { title: t(lang, 'menuList'), value: 'list' },
        { title: t(lang, 'menuSetDefault'), value: 'set-default' },
        { title: t(lang, 'menuShow'), value: 'show' },
        { title: t(lang, 'menuExport'), value: 'export' },
        { title: t(lang, 'menuDoctor'), value: 'doctor' },
        { title: t(lang, 'menuExit'), value: 'exit' },
      ],
    });
    if (!action || action === 'exit') return 0;
    try {
      if (action === 'create') {
        await configCommand({ positionals: ['config', 'create'], flags: {} }, io, lang);
      } else if (action === 'list' || action === 'export') {
        await configCommand({ positionals: ['config', action], flags: {} }, io, lang);
      } else {
        const name = await pickProfile();
        if (!name) continue;
        if (action === 'delete') {
          const { yes } = await ask({ type: 'confirm', name: 'yes', message: t(lang, 'confirmDelete', { name }), initial: false });
          if (!yes) continue;
        }
        if (action === 'doctor') printDoctor(await api.doctor(name), io, lang);
        else await configCommand({ positionals: ['config', action, name], flags: {} }, io, lang);
      }
    } catch (err) {
      if (!(err instanceof CliFailure || err instanceof ArgsError || err instanceof UsageFailure)) throw err;
      io.stderr((err instanceof CliFailure ? err.error.message : err instanceof ArgsError ? argsProblem(err, lang) : err.message) + '\n');
    }
    io.stdout('\n');
  }
}

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
      const suggestion = err instanceof UsageFailure ? err.suggestion : err.key === 'argUnknownOption' ? closest(err.vars.option, OPTION_NAMES) : undefined;
      const detail = err instanceof UsageFailure ? err.message : err.key ? argsProblem(err, lang) : t(lang, 'badArgs', { issues: err.message });
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

/** An argument problem in the user's language (zod's own issue texts stay as zod wrote them). */
function argsProblem(err: ArgsError, lang: Lang): string {
  return err.key ? t(lang, err.key, err.vars) : err.message;
}
