import { parseArgs as parseTokens } from 'node:util';
import { z } from 'zod';
import { LLM_BASE_OPTIONS } from '@holic512/shared/lib/llm-base-options';
import { formatIssues, JSON_MODES } from './config-schema';

/** argv split into positionals and `--flag value` / `--flag=value` / boolean flags. */
export interface ParsedArgs {
  positionals: string[];
  flags: Record<string, string | true>;
}

/** Every option of `llm-base` (parsed by `node:util` parseArgs; the help lists them from here): the one
 * table tool-runner also reads a step that runs llm-base with. */
export const OPTIONS = LLM_BASE_OPTIONS;

/** A problem with the command line: `key` names the message (in both languages), `message` is its English text. */
export class ArgsError extends Error {
  constructor(
    message: string,
    readonly key?: 'argUnknownOption' | 'argNeedsValue',
    readonly vars: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'ArgsError';
  }
}

export function parseArgs(argv: string[]): ParsedArgs {
  const positionals: string[] = [];
  const flags: Record<string, string | true> = {};
  const { tokens = [] } = parseTokens({ args: argv, options: OPTIONS, strict: false, allowPositionals: true, tokens: true });
  for (const tok of tokens) {
    if (tok.kind === 'positional') positionals.push(tok.value);
    if (tok.kind !== 'option') continue;
    const spec = Object.prototype.hasOwnProperty.call(OPTIONS, tok.name) ? OPTIONS[tok.name as keyof typeof OPTIONS] : undefined;
    if (!spec) throw new ArgsError(`unknown option ${tok.rawName}`, 'argUnknownOption', { option: tok.rawName });
    if (spec.type === 'boolean') flags[tok.name] = true;
    else if (tok.value === undefined) throw new ArgsError(`${tok.rawName} needs a value`, 'argNeedsValue', { option: tok.rawName });
    else flags[tok.name] = tok.value;
  }
  return { positionals, flags };
}

const ProfileFlagsSchema = z.object({
  'base-url': z.string().optional(),
  'api-key': z.string().optional(),
  'low-model': z.string().min(1).optional(),
  'high-model': z.string().min(1).optional(),
  timeout: z.coerce.number().int().positive().optional(),
  'json-mode': z.enum(JSON_MODES).optional(),
  'max-retries': z.coerce.number().int().min(0).max(10).optional(),
  transport: z.enum(['auto', 'tools', 'json_schema', 'json']).optional(),
});

/** Profile fields given as options, in profile-field names. */
export function profileFlags(flags: ParsedArgs['flags']): Record<string, unknown> {
  const picked: Record<string, unknown> = {};
  for (const k of Object.keys(ProfileFlagsSchema.shape)) if (flags[k] !== undefined) picked[k] = flags[k];
  const parsed = ProfileFlagsSchema.safeParse(picked);
  if (!parsed.success) throw new ArgsError(formatIssues(parsed.error));
  const f = parsed.data;
  const out: Record<string, unknown> = {};
  if (f['base-url'] !== undefined) out.base_url = f['base-url'];
  if (f['api-key'] !== undefined) out.api_key = f['api-key'];
  if (f['low-model'] !== undefined) out.low_model = f['low-model'];
  if (f['high-model'] !== undefined) out.high_model = f['high-model'];
  if (f.timeout !== undefined) out.timeout = f.timeout;
  if (f['json-mode'] !== undefined) out.json_mode = f['json-mode'];
  if (f['max-retries'] !== undefined) out.max_retries = f['max-retries'];
  if (f.transport !== undefined) out.transport = f.transport;
  return out;
}

/** `--mode` (low|high, default low) and `--profile`. */
export function chatFlags(flags: ParsedArgs['flags']): { mode: string; profile: string | null } {
  const parsed = z
    .object({ mode: z.string().default('low'), profile: z.string().min(1).optional() })
    .safeParse({ mode: flags.mode, profile: flags.profile });
  if (!parsed.success) throw new ArgsError(formatIssues(parsed.error));
  return { mode: parsed.data.mode, profile: parsed.data.profile ?? null };
}

/** The JSON payload of `raw`: an object. */
export function parseRawPayload(text: string): Record<string, unknown> {
  let json: unknown;
  try {
    json = text.trim() === '' ? {} : JSON.parse(text);
  } catch (err) {
    throw new ArgsError((err as Error).message);
  }
  const parsed = z.record(z.string(), z.unknown()).safeParse(json);
  if (!parsed.success) throw new ArgsError('expected a JSON object');
  return parsed.data;
}
