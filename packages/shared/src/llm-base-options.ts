/**
 * The options of the `llm-base` command line. llm-base parses its argv with them (node:util
 * parseArgs), and tool-runner reads a step that runs llm-base with them: an option that takes a
 * value swallows the next word (`--base-url -h` sets a URL, it asks for no help).
 */
export const LLM_BASE_OPTIONS = {
  interactive: { type: 'boolean', short: 'i' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'v' },
  yes: { type: 'boolean', short: 'y' },
  json: { type: 'boolean' },
  mode: { type: 'string' },
  profile: { type: 'string' },
  preset: { type: 'string' },
  'base-url': { type: 'string' },
  'api-key': { type: 'string' },
  'low-model': { type: 'string' },
  'high-model': { type: 'string' },
  timeout: { type: 'string' },
  'json-mode': { type: 'string' },
  'max-retries': { type: 'string' },
  transport: { type: 'string' },
} as const;

/** Every long option as typed (`--base-url`). */
export const LLM_BASE_FLAGS: readonly string[] = Object.keys(LLM_BASE_OPTIONS).map((name) => `--${name}`);

/** The long options that take a value, as typed. */
export const LLM_BASE_VALUED_FLAGS: readonly string[] = Object.entries(LLM_BASE_OPTIONS)
  .filter(([, spec]) => spec.type === 'string')
  .map(([name]) => `--${name}`);
