import { parseArgs } from '../src/cli/args';

test.each<[string[], object]>([
  [['--version'], { kind: 'version' }],
  [['-h'], { kind: 'help' }],
  [['-p', 'hello'], { kind: 'run', prompt: 'hello', json: false }],
  [['hello', 'world'], { kind: 'run', prompt: 'hello world' }],
  [['-p', 'x', '--json', '--mode', 'high', '--profile', 'work', '--continue', '--approve-l1', '--max-steps', '5'], { kind: 'run', prompt: 'x', json: true, mode: 'high', profile: 'work', continue: true, approveL1: true, maxSteps: 5 }],
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
])('parseArgs(%j)', (argv, expected) => {
  expect(parseArgs(argv)).toMatchObject(expected);
});
