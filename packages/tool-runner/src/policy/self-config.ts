/**
 * Self-configuration through any tool is refused (L2): SlothTool's own configuration (the
 * profiles with their base URL and API key, the installed plugins, the settings) is the
 * user's to change, never a step's. One yes to `llm-base config update p --base-url …` would
 * send the key elsewhere, outside every sandbox.
 */
import { operands } from './args';
import { finding, type Finding } from './finding';

/** The package whose `config` subcommands write `~/.slothtool/plugin-configs/llm-base.json`. */
export const LLM_BASE_PACKAGE = '@holic512/plugin-llm-base';

/** llm-base options that take a value (packages/plugin-llm-base/src/cli-args.ts OPTIONS). */
const LLM_BASE_VALUED = [
  '--mode',
  '--profile',
  '--preset',
  '--base-url',
  '--api-key',
  '--low-model',
  '--high-model',
  '--timeout',
  '--json-mode',
  '--max-retries',
  '--transport',
];

/** `config` subcommands of llm-base that only print (the rest create, change or delete profiles). */
const LLM_BASE_CONFIG_READS = new Set(['list', 'show', 'export', 'presets']);

/**
 * The llm-base command line that writes its configuration, or undefined: `config create|update|
 * delete|set-default`, and the interactive menu (`-i`, or no command), which edits profiles.
 * `--help` and `--version` win over everything (the CLI prints and stops).
 */
export function llmBaseConfigWrite(args: readonly string[]): string | undefined {
  const end = args.indexOf('--');
  // Options before `--`, without the values of the options that take one (`--base-url -h` sets a URL).
  const opts = (end < 0 ? args : args.slice(0, end)).filter((a, i, all) => !(i > 0 && LLM_BASE_VALUED.includes(all[i - 1])));
  if (opts.some((a) => a === '--help' || a === '-h' || a === '--version' || a === '-v' || /^-[a-z]*[hv]/.test(a))) return undefined;
  const ops = operands(args, LLM_BASE_VALUED);
  if (opts.some((a) => a === '--interactive' || /^-[a-z]*i/.test(a))) return `${ops[0] ?? ''} --interactive`.trim();
  if (ops[0] !== 'config' || ops[1] === undefined) return undefined;
  return LLM_BASE_CONFIG_READS.has(ops[1]) ? undefined : `config ${ops[1]}`;
}

/** `slothtool` subcommands that change what is installed or its settings. */
const SLOTHTOOL_WRITES = new Set(['install', 'uninstall', 'update', 'remove', 'link', 'unlink']);

/**
 * slothtool's own command line: install/uninstall/update/link change what runs as a plugin,
 * `config <key> <value>` changes the settings, and `llm-base config …` (directly or through
 * `run`) changes the profiles. Undefined when it does none of these.
 */
export function slothtoolSelfConfig(args: readonly string[]): Finding | undefined {
  const ops = operands(args);
  const [sub, alias] = ops;
  if (sub === undefined) return undefined;
  if (SLOTHTOOL_WRITES.has(sub)) return selfConfig(`slothtool ${sub}`);
  if (sub === 'config' && ops.length > 1) return selfConfig(`slothtool config ${ops.slice(1).join(' ')}`);
  const pluginArgs = sub === 'run' ? args.slice(args.indexOf('run') + 2) : args.slice(args.indexOf(sub) + 1);
  const plugin = sub === 'run' ? alias : sub;
  if (plugin === 'llm-base') {
    const w = llmBaseConfigWrite(pluginArgs);
    if (w) return selfConfig(`llm-base ${w}`);
  }
  return undefined;
}

/** The L2 finding: changing SlothTool's own configuration. */
export function selfConfig(what: string): Finding {
  return finding('self.config', 'L2', { a: what });
}

/** A node script that is slothtool's own CLI (`node …/slothtool/dist/cli.js`, `node …/bin/slothtool.js`). */
export function isSlothtoolScript(script: string): boolean {
  const s = script.replace(/\\/g, '/');
  return /(^|\/)slothtool(\.[cm]?js)?$/.test(s) || /(^|\/)(@holic512\/slothtool|packages\/slothtool)\/(bin|dist|lib)\//.test(s);
}

/** A node script that is llm-base's own CLI (`node …/plugin-llm-base/bin/llm-base.js`). */
export function isLlmBaseScript(script: string): boolean {
  const s = script.replace(/\\/g, '/');
  return /(^|\/)llm-base(\.[cm]?js)?$/.test(s) || /(^|\/)plugin-llm-base\/(bin|dist|lib)\//.test(s);
}
