import { parseArgs } from '../src/cli/args';

test.each<[string[], object]>([
  [['--version'], { kind: 'version' }],
  [['-h'], { kind: 'help' }],
  [['-p', 'hello'], { kind: 'run', prompt: 'hello', json: false }],
  [['hello', 'world'], { kind: 'run', prompt: 'hello world' }],
  [
    ['-p', 'x', '--json', '--mode', 'high', '--profile', 'work', '--continue', '--approve-l1', '--max-steps', '5'],
    { kind: 'run', prompt: 'x', json: true, mode: 'high', profile: 'work', continue: true, approveL1: true, maxSteps: 5 },
  ],
  // getopt: a short option's value may be attached, so `-p=x` is the prompt `=x`.
  [['--mode=low', '-p=x'], { kind: 'run', mode: 'low', prompt: '=x' }],
  [['-ic', 'hello'], { kind: 'run', interactive: true, continue: true, prompt: 'hello' }],
  [['-iz'], { kind: 'error', key: 'unknownOption', vars: { option: '-z' } }],
  [['hi', '-h', '--bogus'], { kind: 'help' }],
  [['--bogus', '-h'], { kind: 'error', key: 'unknownOption', vars: { option: '--bogus' } }],
  [['-p', '-x'], { kind: 'run', prompt: '-x' }],
  [['--mode=low', 'x'], { kind: 'run', mode: 'low', prompt: 'x' }],
  [['-i'], { kind: 'run', interactive: true }],
  [['--mode', 'max'], { kind: 'error', key: 'badMode' }],
  [['--max-steps', '0'], { kind: 'error', key: 'badMaxSteps' }],
  [['-p'], { kind: 'error', key: 'missingValue' }],
  [['-c', '-p'], { kind: 'run', continue: true, oneShot: true }],
  [['-p', '-c'], { kind: 'run', prompt: '-c' }],
  [['--nope'], { kind: 'error', key: 'unknownOption' }],
  [['risk', '--', 'git', 'push'], { kind: 'risk', json: false, argv: ['git', 'push'] }],
  [['risk', '--json', '--', 'rm', '-rf', '/'], { kind: 'risk', json: true, argv: ['rm', '-rf', '/'] }],
  [['risk', 'ls'], { kind: 'risk', argv: ['ls'] }],
  [['risk'], { kind: 'error', key: 'riskUsage' }],
  [['--', '-p', 'as text'], { kind: 'run', prompt: '-p as text' }],
  // --permission-mode (Claude Code's name); --mode plan etc. stays an alias, --mode low|high the tier
  [['--permission-mode', 'plan', '--mode', 'high', '-p', 'x'], { kind: 'run', runMode: 'plan', mode: 'high', prompt: 'x' }],
  [['--permission-mode=auto-edit'], { kind: 'run', runMode: 'auto-edit' }],
  [['--mode', 'yolo'], { kind: 'run', runMode: 'yolo' }],
  [['--permission-mode', 'high'], { kind: 'error', key: 'badPermissionMode', vars: { value: 'high' } }],
  // --acp: the editor sends the prompts; what would compete with the protocol is refused by name
  [['--acp'], { kind: 'run', acp: true }],
  [
    ['--acp', '--permission-mode', 'auto-edit', '--profile', 'work', '--append-system-prompt', 'be brief'],
    { kind: 'run', acp: true, runMode: 'auto-edit', profile: 'work', appendSystemPrompt: 'be brief' },
  ],
  [['--acp', '-p', 'hi'], { kind: 'error', key: 'acpWith', vars: { option: '-p' } }],
  [['--acp', 'hello'], { kind: 'error', key: 'acpWith', vars: { option: 'hello' } }],
  [['--json', '--acp'], { kind: 'error', key: 'acpWith', vars: { option: '--json' } }],
  [['--acp', '--approve-l1'], { kind: 'error', key: 'acpWith', vars: { option: '--approve-l1' } }],
  [['--acp', '-i'], { kind: 'error', key: 'acpWith', vars: { option: '-i' } }],
  [['--acp', '--permission-mode', 'yolo'], { kind: 'error', key: 'acpYolo' }],
  // --input-format stream-json: one-shot and --json by itself, prompts from stdin only
  [['-p', '--input-format', 'stream-json'], { kind: 'run', inputFormat: 'stream-json', oneShot: true, json: true }],
  [['--input-format=stream-json', '--approve-l1'], { kind: 'run', inputFormat: 'stream-json', oneShot: true, json: true, approveL1: true }],
  [['--input-format', 'stream-json', '-c'], { kind: 'run', inputFormat: 'stream-json', continue: true }],
  [['--input-format', 'text', '-p', 'x'], { kind: 'run', inputFormat: 'text', prompt: 'x' }],
  // -p followed by one of our own long options is -p without a prompt; other words stay the prompt
  [['-p', '--json', 'hi'], { kind: 'run', oneShot: true, json: true, prompt: 'hi' }],
  [['--prompt', '--json'], { kind: 'error', key: 'missingValue', vars: { option: '--prompt' } }],
  [['-p', '--no-such-option'], { kind: 'run', prompt: '--no-such-option' }],
  [['-p=--json'], { kind: 'run', prompt: '=--json' }],
  [['--input-format', 'yaml'], { kind: 'error', key: 'badInputFormat', vars: { value: 'yaml' } }],
  [['--input-format', 'stream-json', '-p', 'hi'], { kind: 'error', key: 'streamJsonWith', vars: { option: '-p' } }],
  [['--input-format', 'stream-json', 'hi'], { kind: 'error', key: 'streamJsonWith', vars: { option: 'hi' } }],
  [['--input-format', 'stream-json', '-i'], { kind: 'error', key: 'streamJsonWith', vars: { option: '-i' } }],
  // the system prompt flags take their values as given (a value may start with a dash)
  [
    ['-p', 'x', '--system-prompt-file', 'p.md', '--append-system-prompt', '-- no bullets'],
    { kind: 'run', prompt: 'x', systemPromptFile: 'p.md', appendSystemPrompt: '-- no bullets' },
  ],
  [['-p', 'x', '--system-prompt-file'], { kind: 'error', key: 'missingValue', vars: { option: '--system-prompt-file' } }],
])('parseArgs(%j)', (argv, expected) => {
  expect(parseArgs(argv)).toMatchObject(expected);
});
