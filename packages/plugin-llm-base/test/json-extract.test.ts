import { extractJsonObject, fallbackData } from '../src/json-extract';

const obj = { type: 'chat', message: 'hi' };

// [name, model text, expected data]
const recovered: Array<[string, string, unknown]> = [
  ['plain object', '{"type":"chat","message":"hi"}', obj],
  ['surrounding whitespace', '\n\n  {"type":"chat","message":"hi"}  \n', obj],
  ['BOM', '\uFEFF{"type":"chat","message":"hi"}', obj],
  ['fence with language', '```json\n{"type":"chat","message":"hi"}\n```', obj],
  ['fence without language', '```\n{"type":"chat","message":"hi"}\n```', obj],
  ['fence with JSON5-ish tag and prose around', 'Here you go:\n```jsonc\n{"type":"chat","message":"hi"}\n```\nHope it helps!', obj],
  ['unclosed fence', '```json\n{"type":"chat","message":"hi"}', obj],
  ['<think> block (Qwen3)', '<think>\nThe user greets me. I should answer {briefly}.\n</think>\n\n{"type":"chat","message":"hi"}', obj],
  ['<think> with JSON-looking reasoning', '<think>maybe {"type":"cmd"}? no.</think>{"type":"chat","message":"hi"}', obj],
  ['only a closing </think> (DeepSeek-R1 via some servers)', 'reasoning with { braces\n</think>\n{"type":"chat","message":"hi"}', obj],
  ['prose before', 'Sure! Here is the JSON: {"type":"chat","message":"hi"}', obj],
  ['prose after', '{"type":"chat","message":"hi"}\nLet me know if you need more.', obj],
  ['prose before and after', 'Answer: {"type":"chat","message":"hi"} (done)', obj],
  ['braces in prose before the object', 'Use {curly} braces like {this}. {"type":"chat","message":"hi"}', obj],
  ['an unbalanced brace in prose before', 'Note: a { starts a block. {"type":"chat","message":"hi"}', obj],
  ['braces inside strings', 'x {"type":"chat","message":"use } and { freely"} y', { type: 'chat', message: 'use } and { freely' }],
  ['escaped quotes inside strings', '{"type":"chat","message":"say \\"}\\" now"}', { type: 'chat', message: 'say "}" now' }],
  ['two objects: the first wins', '{"type":"chat","message":"hi"}\n{"type":"cmd","message":"second"}', obj],
  ['two objects with prose between', 'first {"type":"chat","message":"hi"} then {"type":"cmd"}', obj],
  [
    'nested objects',
    'ok {"type":"cmd","data":{"commands":[{"program":"ls","args":["-la"]}]}}',
    { type: 'cmd', data: { commands: [{ program: 'ls', args: ['-la'] }] } },
  ],
  ['trailing commas', '{"type":"chat","message":"hi",}', obj],
  ['trailing comma in array', '{"a":[1,2,],"b":1}', { a: [1, 2], b: 1 }],
  ['single quotes', "{'type': 'chat', 'message': 'hi'}", obj],
  ['single quotes with prose apostrophe before', "Here's the answer: {'type': 'chat', 'message': 'hi'}", obj],
  ['Python literals', "{'ok': True, 'missing': None, 'bad': False}", { ok: true, missing: null, bad: false }],
  ['line comments', '{\n  // the kind\n  "type": "chat",\n  "message": "hi" // greeting\n}', obj],
  ['block comments', '{ /* kind */ "type": "chat", "message": /* text */ "hi" }', obj],
  ['comment containing a brace', '{ /* } */ "type": "chat", "message": "hi" }', obj],
  ['raw newline inside a string', '{"type":"chat","message":"line1\nline2"}', { type: 'chat', message: 'line1\nline2' }],
  ['unquoted keys', '{type: "chat", message: "hi"}', obj],
  ['a JSON string that encodes an object', '"{\\"type\\":\\"chat\\",\\"message\\":\\"hi\\"}"', obj],
  ['a doubly encoded object', JSON.stringify(JSON.stringify(JSON.stringify(obj))), obj],
  ['an encoded object inside a fence', '```json\n"{\\"type\\":\\"chat\\",\\"message\\":\\"hi\\"}"\n```', obj],
  ['CJK content', '好的：{"type":"chat","message":"你好，世界"}', { type: 'chat', message: '你好，世界' }],
  ['think + fence + trailing comma', '<think>ok</think>\n```json\n{"type":"chat","message":"hi",}\n```', obj],
  ['output cut off inside the object', '{"type":"chat","message":"hi', obj],
  ['empty object', 'result: {}', {}],
  ['a shell fence before the JSON fence', '```bash\nls {a}\n```\nThen:\n```json\n{"type":"chat","message":"hi"}\n```', obj],
  ['smart quotes', '{\u201ctype\u201d: \u201cchat\u201d, \u201cmessage\u201d: \u201chi\u201d}', obj],
  ['undefined literal', '{"type":"chat","message":"hi","x":undefined}', { ...obj, x: null }],
  ['Windows path with invalid escapes keeps its backslashes', '{"cwd":"C:\\Users\\x"}', { cwd: 'C:\\Users\\x' }],
  ['regex with an invalid escape', '{"pattern":"\\d+\\.ts"}', { pattern: '\\d+\\.ts' }],
  ['escaped single quote in a double-quoted string', '{"message":"it\\\'s"}', { message: "it's" }],
  ['an array around the object is kept as {result}', '[{"a":1}]', { result: [{ a: 1 }] }],
  ['a stray closing brace after the object', '{"type":"chat","message":"hi"} trailing } brace', obj],
  ['the word json before the object (fence lost)', 'json\n{"type":"chat","message":"hi"}', obj],
  [
    'multi-line cmd object with a trailing comma and prose',
    'Result:\n\n{\n  "type": "cmd",\n  "data": {"commands": [{"program": "ls", "args": ["-la"]}]},\n}\n\nI will list files.',
    { type: 'cmd', data: { commands: [{ program: 'ls', args: ['-la'] }] } },
  ],
];

test.each(recovered)('%s', (_name, text, expected) => {
  const r = extractJsonObject(text);
  expect(r.method).not.toBe('fallback');
  expect(r.data).toEqual(expected);
});

// Texts that are JSON but not an object keep the original llm-base shape {result: value}.
const values: Array<[string, string, unknown]> = [
  ['a number', '42', { result: 42 }],
  ['an array', '[1,2]', { result: [1, 2] }],
  ['a plain JSON string', '"hello"', { result: 'hello' }],
  ['true', 'true', { result: true }],
];
test.each(values)('JSON non-object: %s', (_name, text, expected) => {
  expect(extractJsonObject(text).data).toEqual(expected);
});

const unrecoverable: Array<[string, string]> = [
  ['plain prose', 'Hello! How can I help you today?'],
  ['prose with braces but no key/value', 'Use {curly} braces for {blocks}.'],
  ['empty text', ''],
  ['only reasoning', '<think>I am still thinking about {this}'],
  ['whitespace', '   \n '],
];
test.each(unrecoverable)('falls back: %s', (_name, text) => {
  const r = extractJsonObject(text);
  expect(r.method).toBe('fallback');
  expect(r.data).toEqual(fallbackData(text));
});

test('the fallback shape is byte for byte the DESIGN §3 one', () => {
  expect(JSON.stringify(extractJsonObject('  not json  ').data)).toBe(
    '{"result":"not json","_fallback":true,"_reason":"model_output_was_not_valid_json"}',
  );
});

test('non-string input', () => {
  expect(extractJsonObject({ a: 1 }).data).toEqual({ a: 1 });
  expect(extractJsonObject(null).data).toEqual({ result: null });
});
