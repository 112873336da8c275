/** CLI arguments, parsed without dependencies (this runs on the `--help` fast path). */
export interface RunArgs {
  kind: 'run';
  prompt?: string;
  interactive: boolean;
  json: boolean;
  mode?: 'low' | 'high';
  profile?: string;
  continue: boolean;
  approveL1: boolean;
  maxSteps?: number;
}

export type ParsedArgs =
  | { kind: 'help' }
  | { kind: 'version' }
  | { kind: 'risk'; json: boolean; argv: string[] }
  | { kind: 'mcp'; argv: string[] }
  | { kind: 'sandbox' }
  | RunArgs
  | { kind: 'error'; key: 'unknownOption' | 'missingValue' | 'badMode' | 'badMaxSteps' | 'riskUsage' | 'missingPrompt'; vars: Record<string, string> };

/** Parse `ai`'s argv (without node and the script). Pure. */
export function parseArgs(argv: string[]): ParsedArgs {
  if (argv[0] === 'risk') return parseRisk(argv.slice(1));
  if (argv[0] === 'mcp') return { kind: 'mcp', argv: argv.slice(1) };
  if (argv[0] === 'sandbox' && argv.length === 1) return { kind: 'sandbox' };
  const out: RunArgs = { kind: 'run', interactive: false, json: false, continue: false, approveL1: false };
  const words: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const value = (): string | undefined => {
      const eq = arg.indexOf('=');
      if (arg.startsWith('--') && eq > 0) return arg.slice(eq + 1);
      i++;
      return argv[i];
    };
    const name = arg.startsWith('--') && arg.includes('=') ? arg.slice(0, arg.indexOf('=')) : arg;
    switch (name) {
      case '-h':
      case '--help':
        return { kind: 'help' };
      case '-v':
      case '--version':
        return { kind: 'version' };
      case '-i':
      case '--interactive':
        out.interactive = true;
        break;
      case '--json':
        out.json = true;
        break;
      case '-c':
      case '--continue':
        out.continue = true;
        break;
      case '--approve-l1':
        out.approveL1 = true;
        break;
      case '-p':
      case '--prompt':
      case '--mode':
      case '--profile':
      case '--max-steps': {
        const v = value();
        if (v === undefined) return { kind: 'error', key: 'missingValue', vars: { option: name } };
        if (name === '--mode') {
          if (v !== 'low' && v !== 'high') return { kind: 'error', key: 'badMode', vars: { value: v } };
          out.mode = v;
        } else if (name === '--profile') out.profile = v;
        else if (name === '--max-steps') {
          const n = Number(v);
          if (!Number.isInteger(n) || n < 1) return { kind: 'error', key: 'badMaxSteps', vars: { value: v } };
          out.maxSteps = n;
        } else out.prompt = v;
        break;
      }
      case '--':
        words.push(...argv.slice(i + 1));
        i = argv.length;
        break;
      default:
        if (arg.startsWith('-') && arg !== '-') return { kind: 'error', key: 'unknownOption', vars: { option: arg } };
        words.push(arg);
    }
  }
  if (words.length) out.prompt = out.prompt !== undefined ? `${out.prompt} ${words.join(' ')}` : words.join(' ');
  return out;
}

function parseRisk(argv: string[]): ParsedArgs {
  let json = false;
  let i = 0;
  for (; i < argv.length; i++) {
    if (argv[i] === '--json') json = true;
    else if (argv[i] === '--') {
      i++;
      break;
    } else break;
  }
  const rest = argv.slice(i);
  if (!rest.length || rest[0].startsWith('-')) return { kind: 'error', key: 'riskUsage', vars: {} };
  return { kind: 'risk', json, argv: rest };
}
