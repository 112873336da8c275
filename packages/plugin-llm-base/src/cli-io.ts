/** How llm-base's CLI talks: where it writes, its help, and the failures it reports (a usage
 * problem, or a result in the original `{success: false, error}` shape). */
import type { ArgsError } from './cli-args';
import type { ApiError } from './errors';
import { t, type Lang } from './i18n';
import type { DataResult } from './index';
import { PRESETS } from './presets';

/** Where the CLI writes; the real process by default. */
export interface CliIo {
  stdout(text: string): void;
  stderr(text: string): void;
  /** Whether prompts may be shown. */
  interactive: boolean;
}

export function defaultIo(): CliIo {
  return {
    stdout: (s) => process.stdout.write(s),
    stderr: (s) => process.stderr.write(s),
    interactive: Boolean(process.stdin.isTTY && process.stdout.isTTY),
  };
}

/** A failure the CLI prints in the original `{success: false, error, call_id: null}` shape. */
export class CliFailure extends Error {
  constructor(readonly error: ApiError) {
    super(error.message);
  }
}

export const json = (v: unknown): string => JSON.stringify(v, null, 2) + '\n';

export function unwrap<T>(r: DataResult<T>): T {
  if (!r.success) throw new CliFailure(r.error);
  return r.data;
}

/** A bad command line: printed as a usage message (stderr, exit 2), never as a JSON envelope. */
export class UsageFailure extends Error {
  constructor(
    message: string,
    readonly suggestion?: string,
  ) {
    super(message);
  }
}

export const usageError = (message: string, suggestion?: string): UsageFailure => new UsageFailure(message, suggestion);

/** An argument problem in the user's language (zod's own issue texts stay as zod wrote them). */
export function argsProblem(err: ArgsError, lang: Lang): string {
  return err.key ? t(lang, err.key, err.vars) : err.message;
}

export function help(lang: Lang): string {
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
