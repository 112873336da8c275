/**
 * CLI entry: the only place that prints and sets the exit code. What only some commands need
 * loads through lazy-modules, so that `slothtool <alias>` (on every start of a plugin run as its
 * own process) loads only what running needs.
 */
import { onClosedPipe } from '@holic512/shared/lib/epipe';
import { closest, didYouMean, usageMessage } from '@holic512/shared/lib/usage';
import { parseArgs as parseTokens } from 'node:util';
import { BUILTIN_COMMANDS } from './commands';
import { SlothToolError } from './errors';
import { t, type MessageId } from './i18n';
import { os, readline } from './lazy-libraries';
import { installerModule, listModule, registryModule, settingsModule, uninstallModule } from './lazy-modules';
import { isInside, pluginDir, resolveHome, type HomePaths } from './paths';
import { terminalProgress, type Progress } from './progress';
import { lookupRunnable } from './registry-lookup';
import { runInProcess, runPlugin, runsInProcess } from './runner';
import type { Language } from './settings';
import { VERSION } from './version';

const BUILTIN = new Set<string>(BUILTIN_COMMANDS);

/** Official plugins of the original host, for the "install it with ..." hint. */
const KNOWN_PACKAGES: Record<string, string> = {
  ai: '@holic512/plugin-ai',
  'llm-base': '@holic512/plugin-llm-base',
  loc: '@holic512/plugin-loc',
  svn: '@holic512/plugin-svn',
  systemd: '@holic512/plugin-systemd',
  'codex-switch': '@holic512/plugin-codex-switch',
};

/** Thrown inside the CLI to stop with a message already printed. */
class ExitError extends Error {
  constructor(readonly exitCode: number) {
    super(`exit ${exitCode}`);
  }
}

/** Everything a command needs: where the home is and how to talk. Language is read on first use. */
class Io {
  private language?: Language;
  constructor(readonly paths: HomePaths) {}

  lang(): Language {
    if (this.language) return this.language;
    const settings = settingsModule();
    try {
      this.language = settings.languageOf(settings.readSettings(this.paths));
    } catch (err) {
      this.language = 'zh';
      const e = err as SlothToolError;
      this.err(this.t('settingsWarning', e.params ?? { file: this.paths.settings, detail: String(err) }));
    }
    return this.language;
  }

  t(id: MessageId, params: Record<string, string> = {}): string {
    return t(this.lang(), id, params);
  }

  out(text: string): void {
    process.stdout.write(text + '\n');
  }

  err(text: string): void {
    process.stderr.write(text + '\n');
  }

  /** Print a usage problem and stop with exit code 2. An unknown option reads as in every
   * SlothTool CLI (shared/usage): the closest of `known` offered, where the options are listed. */
  usage(id: MessageId, params: Record<string, string>, known: readonly string[] = []): never {
    if (id === 'unknownOption') {
      this.err(usageMessage(this.lang(), { detail: this.t(id, params), suggestion: closest(params.arg, known), help: 'slothtool --help' }));
    } else this.err(this.t(id, params));
    throw new ExitError(2);
  }
}

/**
 * Split a command's argv into positionals and flags with `node:util` parseArgs (`-y` and `--yes`
 * are one flag; `--` ends the options), rejecting options the command does not know.
 */
function parseArgs(
  io: Io,
  args: string[],
  known: Record<string, { type: 'boolean'; short?: string }>,
): { positionals: string[]; flags: Set<string> } {
  const positionals: string[] = [];
  const flags = new Set<string>();
  const { tokens = [] } = parseTokens({ args, options: known, strict: false, allowPositionals: true, tokens: true });
  for (const tok of tokens) {
    if (tok.kind === 'positional') positionals.push(tok.value);
    if (tok.kind !== 'option') continue;
    if (!Object.prototype.hasOwnProperty.call(known, tok.name) || tok.inlineValue) {
      io.usage(
        'unknownOption',
        { arg: tok.inlineValue ? `${tok.rawName}=${tok.value}` : tok.rawName },
        tok.inlineValue ? [] : Object.keys(known).map((name) => `--${name}`),
      );
    }
    flags.add(tok.name);
  }
  return { positionals, flags };
}

/** The options of each command (the help lists them; a test checks both languages name each). */
export const COMMAND_OPTIONS = {
  install: { verbose: { type: 'boolean' } },
  update: { verbose: { type: 'boolean' } },
  // --keep-config is the default now and still accepted; --purge also removes the config files.
  uninstall: { 'keep-config': { type: 'boolean' }, purge: { type: 'boolean' }, yes: { type: 'boolean', short: 'y' } },
  list: { json: { type: 'boolean' } },
  config: {},
} as const;

function exactlyOne(io: Io, positionals: string[], what: MessageId, usage: string): string {
  if (positionals.length === 0) io.usage('missingArgument', { what: io.t(what), usage });
  if (positionals.length > 1) io.usage('extraArguments', { args: positionals.slice(1).join(' '), usage });
  return positionals[0];
}

function help(io: Io): void {
  io.out(`${io.t('title')} ${VERSION}\n\n${io.t('usage', { home: io.paths.home })}`);
}

async function runAlias(io: Io, alias: string, args: string[]): Promise<void> {
  const entry = lookupRunnable(io.paths, alias);
  if (!entry) throw new SlothToolError('NOT_INSTALLED', { alias });
  // Plugins run through the host name their commands as `slothtool <alias> …` in hints
  // (shared/usage commandFor); the original host sets nothing and is recognised by the bin path.
  process.env.SLOTHTOOL_HOST = '1';
  // A plugin that says it can (our ai and llm-base) runs in this process: no second node start.
  if (runsInProcess(entry)) return runInProcess(alias, entry, args);
  const outcome = await runPlugin(alias, entry, args);
  if (outcome.signal) {
    // End the same way the plugin did, so a parent shell sees the signal, not an exit code.
    process.exitCode = 128 + (os().constants.signals[outcome.signal] ?? 1);
    process.kill(process.pid, outcome.signal);
    return;
  }
  process.exitCode = outcome.code ?? 1;
}

/** A progress line for an npm run on a terminal (elapsed time, npm's last line); none in logs. */
function npmProgress(io: Io): Progress | undefined {
  return terminalProgress(io.t('npmRunning'));
}

/**
 * Run `work` with an AbortSignal that fires on SIGINT/SIGTERM, so an interrupted npm install
 * is stopped and cleaned up instead of leaving a staging folder behind.
 */
async function abortable<T>(work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  const onSignal = (): void => controller.abort();
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    return await work(controller.signal);
  } finally {
    process.removeListener('SIGINT', onSignal);
    process.removeListener('SIGTERM', onSignal);
  }
}

async function install(io: Io, args: string[]): Promise<void> {
  const { positionals, flags } = parseArgs(io, args, COMMAND_OPTIONS.install);
  const spec = exactlyOne(io, positionals, 'argSpec', 'slothtool install <name|folder|.tgz>');
  const { installPlugin, createDefaultInstallerDeps } = installerModule();
  io.err(io.t('installing', { spec }));
  const progress = flags.has('verbose') ? undefined : npmProgress(io);
  const onNpmOutput = flags.has('verbose')
    ? (chunk: string) => void process.stderr.write(chunk)
    : progress && ((chunk: string) => progress.output(chunk));
  const result = await abortable((signal) => installPlugin(io.paths, spec, createDefaultInstallerDeps(), { onNpmOutput, signal })).finally(
    () => progress?.stop(),
  );
  io.out(io.t('installed', { alias: result.alias, name: result.entry.name, version: result.entry.version }));
  if (result.interactiveFlag) io.out(io.t('installedInteractive', { alias: result.alias, flag: result.interactiveFlag }));
}

async function update(io: Io, args: string[]): Promise<void> {
  const { positionals, flags } = parseArgs(io, args, COMMAND_OPTIONS.update);
  const alias = exactlyOne(io, positionals, 'argAlias', 'slothtool update <alias>');
  const { readRegistry, getEntry } = registryModule();
  const entry = getEntry(readRegistry(io.paths), alias);
  if (entry) io.err(io.t('updating', { alias, name: entry.name, version: entry.version }));
  const { updatePlugin, createDefaultInstallerDeps } = installerModule();
  const progress = flags.has('verbose') ? undefined : npmProgress(io);
  const onNpmOutput = flags.has('verbose')
    ? (chunk: string) => void process.stderr.write(chunk)
    : progress && ((chunk: string) => progress.output(chunk));
  const r = await abortable((signal) => updatePlugin(io.paths, alias, createDefaultInstallerDeps(), { onNpmOutput, signal })).finally(() =>
    progress?.stop(),
  );
  io.out(
    r.fromVersion === r.toVersion
      ? io.t('updatedSame', { alias, version: r.toVersion })
      : io.t('updated', { alias, from: r.fromVersion, to: r.toVersion }),
  );
}

async function uninstall(io: Io, args: string[]): Promise<void> {
  const { positionals, flags } = parseArgs(io, args, COMMAND_OPTIONS.uninstall);
  const alias = exactlyOne(io, positionals, 'argAlias', 'slothtool uninstall <alias> [--purge [--yes]]');
  const { planUninstall, applyUninstall } = uninstallModule();
  const plan = planUninstall(io.paths, alias, { purge: flags.has('purge') });
  const lines = [io.t('uninstallWillRemove'), io.t('uninstallEntry', { alias, name: plan.entry.name, version: plan.entry.version })];
  if (plan.pluginDir) lines.push(io.t('uninstallDir', { dir: plan.pluginDir }));
  for (const file of plan.configFiles) lines.push(io.t('uninstallConfig', { file }));
  if (!plan.pluginDir) lines.push(io.t('uninstallNoDir', { binPath: plan.entry.binPath }));
  for (const file of plan.keptConfigFiles) lines.push(io.t('uninstallKeepConfig', { file, alias }));
  io.out(lines.join('\n'));
  if (plan.configFiles.length && !flags.has('yes')) {
    // Profiles and keys are the user's: deleting them is asked, or needs --yes without a terminal.
    if (!process.stdin.isTTY) io.usage('purgeNeedsYes', { alias });
    if (!(await askYesNo(io.t('purgeConfirm')))) {
      io.out(io.t('uninstallCancelled'));
      return;
    }
  }
  applyUninstall(io.paths, plan);
  io.out(io.t('uninstalled', { alias }));
}

/** A y/N question on the terminal; anything but y or yes is no. */
async function askYesNo(question: string): Promise<boolean> {
  const rl = readline().createInterface({ input: process.stdin, output: process.stdout });
  try {
    const answer = await new Promise<string>((resolve) => rl.question(`${question} [y/N] `, resolve));
    return /^y(es)?$/i.test(answer.trim());
  } finally {
    rl.close();
  }
}

/** Terminal columns of a string: CJK and other wide characters take two. */
function displayWidth(text: string): number {
  let width = 0;
  for (const ch of text)
    width += /[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]/.test(ch) ? 2 : 1;
  return width;
}

function list(io: Io, args: string[]): void {
  const { positionals, flags } = parseArgs(io, args, COMMAND_OPTIONS.list);
  if (positionals.length) io.usage('extraArguments', { args: positionals.join(' '), usage: 'slothtool list [--json]' });
  const { listPlugins } = listModule();
  const rows = listPlugins(io.paths);
  if (flags.has('json')) {
    io.out(JSON.stringify(rows, null, 2));
    return;
  }
  if (rows.length === 0) {
    io.out(io.t('listEmpty'));
    return;
  }
  const table = [
    [io.t('colAlias'), io.t('colName'), io.t('colVersion'), io.t('colInstalled'), io.t('colStatus')],
    ...rows.map((r) => [
      r.alias,
      r.name,
      r.version,
      r.installedAt.replace('T', ' ').slice(0, 16),
      !r.binExists ? io.t('statusBinMissing') : r.source === 'linked' ? `${io.t('statusLinked')} ${r.binPath}` : io.t('statusInstalled'),
    ]),
  ];
  const widths = table[0].map((_, col) => Math.max(...table.map((row) => displayWidth(row[col]))));
  for (const row of table) {
    io.out(
      row
        .map((cell, col) => (col === row.length - 1 ? cell : cell + ' '.repeat(widths[col] - displayWidth(cell))))
        .join('  ')
        .trimEnd(),
    );
  }
}

function config(io: Io, args: string[]): void {
  const { positionals } = parseArgs(io, args, COMMAND_OPTIONS.config);
  if (positionals.length === 0) {
    io.out(io.t('currentLanguage', { language: io.lang() }));
    return;
  }
  if (positionals[0] !== 'language') io.usage('unknownOption', { arg: positionals[0] }, ['language']);
  const usage = 'slothtool config language <zh|en>';
  const language = exactlyOne(io, positionals.slice(1), 'argLanguage', usage);
  if (language !== 'zh' && language !== 'en') io.usage('invalidLanguage', { language });
  settingsModule().setLanguage(io.paths, language);
  io.out(t(language, 'languageSet', { language })); // in the language just chosen
}

/** The built-in command or installed plugin closest to a name that is neither. */
function nearCommand(io: Io, name: string): string | undefined {
  let aliases: string[] = [];
  try {
    aliases = Object.keys(registryModule().readRegistry(io.paths).plugins);
  } catch {
    // a corrupt registry is reported where it is used; here it only means no plugin names to offer
  }
  return closest(name, [...BUILTIN_COMMANDS, ...aliases]);
}

/** Print a library error in the user's language; unknown errors are reported as unexpected. */
function report(io: Io, err: unknown): number {
  if (!SlothToolError.isInstance(err)) {
    io.err(io.t('unexpected', { message: err instanceof Error ? (err.stack ?? err.message) : String(err) }));
    return 1;
  }
  const params = { ...err.params };
  let id: MessageId = err.code as MessageId;
  if (err.code === 'NOT_INSTALLED') params.package = KNOWN_PACKAGES[params.alias] ?? '<package>';
  if (err.code === 'SPEC_NOT_FOUND') params.kindText = io.t(params.kind === 'folder' ? 'specFolder' : 'specTarball');
  if (err.code === 'BIN_MISSING') {
    if (!isInside(pluginDir(io.paths, params.alias), params.binPath)) id = 'BIN_MISSING_LINKED';
  }
  io.err(io.t(id, params));
  if (err.code === 'NOT_INSTALLED') {
    // `slothtool instal x`, `slothtool llm-bse`: the command or plugin probably meant.
    const near = nearCommand(io, params.alias);
    if (near) io.err(didYouMean(io.lang(), `slothtool ${near}`));
  }
  return err.code === 'INTERRUPTED' ? 130 : 1;
}

async function dispatch(io: Io, argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  if (command === undefined || command === '--help' || command === '-h') return help(io);
  if (command === '--version' || command === '-v') return io.out(VERSION);
  if (command === '-i' || command === '--interactive') return io.usage('noInteractiveMenu', {});
  if (!BUILTIN.has(command)) {
    if (command.startsWith('-')) io.usage('unknownOption', { arg: command }, ['--help', '--version']);
    return runAlias(io, command, rest);
  }
  switch (command) {
    case 'install':
      return install(io, rest);
    case 'update':
      return update(io, rest);
    case 'uninstall':
      return uninstall(io, rest);
    case 'list':
      return list(io, rest);
    case 'config':
      return config(io, rest);
    case 'run': {
      if (rest.length === 0 || rest[0].startsWith('-')) {
        io.usage('missingArgument', { what: io.t('argAlias'), usage: 'slothtool run <alias> [args...]' });
      }
      return runAlias(io, rest[0], rest.slice(1));
    }
  }
}

/** What the bin says when its bundle (dist/cli.js) cannot be loaded and lib/ runs instead. */
export function bundleUnusableMessage(file: string, err: unknown): string {
  const detail = String((err as Error)?.message ?? err).split('\n')[0];
  return new Io(resolveHome(process.env)).t('bundleUnusable', { file, detail });
}

/** Run the CLI with `argv` (without node and script). Sets `process.exitCode`; never calls exit. */
export async function main(argv: string[]): Promise<void> {
  // A reader that goes away (`| head -1`) ends the CLI quietly with status 0.
  for (const stream of [process.stdout, process.stderr]) onClosedPipe(stream, () => process.exit(0));
  const io = new Io(resolveHome(process.env));
  try {
    await dispatch(io, argv);
  } catch (err) {
    process.exitCode = err instanceof ExitError ? err.exitCode : report(io, err);
  }
}
