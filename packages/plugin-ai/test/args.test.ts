import { parseArgs } from '../src/args';

test.each<[string[], object]>([
  [['--version'], { kind: 'version' }],
  [['-h'], { kind: 'help' }],
  [['-p', 'hello'], { kind: 'run', prompt: 'hello', json: false }],
  [['hello', 'world'], { kind: 'run', prompt: 'hello world' }],
  [['-p', 'x', '--json', '--mode', 'high', '--profile', 'work', '--continue', '--approve-l1', '--max-steps', '5'], { kind: 'run', prompt: 'x', json: true, mode: 'high', profile: 'work', continue: true, approveL1: true, maxSteps: 5 }],
  [['--mode=low', '-p=ignored?'], { kind: 'error', key: 'unknownOption' }],
  [['--mode=low', 'x'], { kind: 'run', mode: 'low', prompt: 'x' }],
  [['-i'], { kind: 'run', interactive: true }],
  [['--mode', 'max'], { kind: 'error', key: 'badMode' }],
  [['--max-steps', '0'], { kind: 'error', key: 'badMaxSteps' }],
  [['-p'], { kind: 'error', key: 'missingValue' }],
  [['--nope'], { kind: 'error', key: 'unknownOption' }],
  [['risk', '--', 'git', 'push'], { kind: 'risk', json: false, argv: ['git', 'push'] }],
  [['risk', '--json', '--', 'rm', '-rf', '/'], { kind: 'risk', json: true, argv: ['rm', '-rf', '/'] }],
  [['risk', 'ls'], { kind: 'risk', argv: ['ls'] }],
  [['risk'], { kind: 'error', key: 'riskUsage' }],
  [['--', '-p', 'as text'], { kind: 'run', prompt: '-p as text' }],
])('parseArgs(%j)', (argv, expected) => {
  expect(parseArgs(argv)).toMatchObject(expected);
});
