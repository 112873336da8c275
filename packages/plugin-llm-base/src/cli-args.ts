import { z } from 'zod';
import { formatIssues, JSON_MODES } from './config-schema';

/** argv split into positionals and `--flag value` / `--flag=value` / boolean flags. */
export interface ParsedArgs {
  positionals: string[];
  flags: Record<string, string | true>;
}

const BOOLEAN_FLAGS: Record<string, string> = {
  '-i': 'interactive',
  '--interactive': 'interactive',
  '-h': 'help',
  '--help': 'help',
  '-v': 'version',
  '--version': 'version',
  '-y': 'yes',
  '--yes': 'yes',
  '--json': 'json',
};

const VALUE_FLAGS = ['mode', 'profile', 'preset', 'base-url', 'api-key', 'low-model', 'high-model', 'timeout', 'json-mode', 'max-retries'];

export class ArgsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ArgsError';
  }
}

export function parseArgs(argv: string[]): ParsedArgs {
  const positionals: string[] = [];
  const flags: Record<string, string | true> = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--') {
      positionals.push(...argv.slice(i + 1));
      break;
    }
    if (BOOLEAN_FLAGS[arg]) {
      flags[BOOLEAN_FLAGS[arg]] = true;
      continue;
    }
    if (arg.startsWith('--')) {
      const eq = arg.indexOf('=');
      const name = eq >= 0 ? arg.slice(2, eq) : arg.slice(2);
      if (!VALUE_FLAGS.includes(name)) throw new ArgsError(`unknown option --${name}`);
      if (eq >= 0) flags[name] = arg.slice(eq + 1);
      else {
        const value = argv[i + 1];
        if (value === undefined) throw new ArgsError(`--${name} needs a value`);
        flags[name] = value;
        i++;
      }
      continue;
    }
    positionals.push(arg);
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
