import { describeStep } from '../src/agent/step-label';
import { extractJsonObject, parseReply } from '../src/context/protocol';

describe('parseReply', () => {
  test.each<[string, unknown, boolean]>([
    ['chat', { type: 'chat', message: 'hi' }, true],
    ['chat with data', { type: 'chat', message: 'hi', data: { format: 'markdown', suggestions: ['a'] } }, true],
    ['chat with null data', { type: 'chat', message: 'hi', data: null }, true],
    [
      'original cmd shape (no tool)',
      { type: 'cmd', message: 'x', data: { cwd: null, commands: [{ program: 'ls', args: ['-la'] }] } },
      true,
    ],
    [
      'exec with requires',
      { type: 'cmd', message: '', data: { commands: [{ tool: 'exec', program: 'git', args: [], requires: { write: true } }] } },
      true,
    ],
    ['plugin.run', { type: 'cmd', data: { commands: [{ tool: 'plugin.run', plugin: 'loc', args: ['./src'] }] } }, true],
    [
      'json_patch',
      {
        type: 'cmd',
        message: 'm',
        data: {
          commands: [
            { tool: 'config.json_patch', file: '~/.slothtool/settings.json', patch: [{ op: 'replace', path: '/language', value: 'en' }] },
          ],
        },
      },
      true,
    ],
    ['error', { type: 'error', message: 'no' }, true],
    ['empty commands', { type: 'cmd', message: '', data: { commands: [] } }, false],
    ['unknown tool', { type: 'cmd', message: '', data: { commands: [{ tool: 'shell', cmd: 'ls' }] } }, false],
    ['args not strings', { type: 'cmd', message: '', data: { commands: [{ program: 'ls', args: [1] }] } }, false],
    ['missing message', { type: 'chat' }, false],
    ['unknown type', { type: 'answer', message: 'x' }, false],
    ['fallback object', { result: 'prose', _fallback: true }, false],
    ['null', null, false],
    ['string of JSON', '{"type":"chat","message":"ok"}', true],
    ['fenced JSON text', 'Sure:\n```json\n{"type":"chat","message":"ok"}\n```', true],
    ['prose', 'just words', false],
  ])('%s', (_name, value, valid) => {
    const r = parseReply(value);
    expect(r.success).toBe(valid);
    if (!r.success) {
      expect(r.error.length).toBeGreaterThan(0);
      expect(typeof r.raw).toBe('string');
    }
  });

  test('the default tool is exec', () => {
    const r = parseReply({ type: 'cmd', message: '', data: { commands: [{ program: 'ls' }] } });
    expect(r.success && r.reply.type === 'cmd' && r.reply.data.commands[0]).toEqual({ tool: 'exec', program: 'ls', args: [] });
  });

  test('a fallback whose text holds a valid reply is accepted', () => {
    const r = parseReply({ result: 'here: {"type":"chat","message":"ok"} done', _fallback: true });
    expect(r).toMatchObject({ success: true, reply: { type: 'chat', message: 'ok' } });
  });

  test('errors name the field', () => {
    const r = parseReply({ type: 'cmd', message: '', data: { commands: [{ program: '' }] } });
    expect(!r.success && r.error).toMatch(/data\.commands\.0\.program/);
  });
});

test.each([
  ['{"a":{"b":"}"}} tail', '{"a":{"b":"}"}}'],
  ['no object', undefined],
  ['{"open": ', undefined],
])('extractJsonObject(%j)', (text, expected) => {
  expect(extractJsonObject(text)).toBe(expected);
});

test('describeStep', () => {
  expect(describeStep({ tool: 'exec', program: 'git', args: ['status'] })).toBe('git status');
  expect(describeStep({ tool: 'plugin.run', plugin: 'loc', args: ['.'] })).toBe('plugin loc .');
  expect(describeStep({ tool: 'config.json_patch', file: 'f.json', patch: [{ op: 'remove', path: '/a' }] })).toBe(
    'json_patch f.json (1 op)',
  );
});
