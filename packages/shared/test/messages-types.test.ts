import * as path from 'path';
import * as ts from 'typescript';

// The shape helpers are type checks: a catalogue whose zh table misses a key (or, written inline,
// has one too many), or a record message with one hint of two, must not compile.
const MESSAGES = path.join(__dirname, '..', 'src', 'messages.ts');

const head = `import { defineMessages, type RuleMessages } from ${JSON.stringify(MESSAGES.replace(/\.ts$/, ''))};\n`;

const CASES: Array<[string, string, RegExp[]]> = [
  [
    'both tables with the same keys',
    `const en = { a: 'A', b: 'B {n}' };\nconst zh: Record<keyof typeof en, string> = { a: '甲', b: '乙 {n}' };\nexport const c = defineMessages({ en, zh });`,
    [],
  ],
  [
    'a key missing from zh',
    `const en = { a: 'A', b: 'B' };\nconst zh = { a: '甲' };\nexport const c = defineMessages({ en, zh });`,
    [/Property 'b' is missing/],
  ],
  ['an extra key written inline', `export const c = defineMessages({ en: { a: 'A' }, zh: { a: '甲', x: '多' } });`, [/'x' does not exist/]],
  ['a rule message with both hints', `export const r: RuleMessages = { a: { zh: '甲', en: 'A', hintZh: '提示', hintEn: 'hint' } };`, []],
  ['a rule message with one hint of two', `export const r: RuleMessages = { a: { zh: '甲', en: 'A', hintEn: 'hint' } };`, [/hint/]],
  ['a rule message without its zh', `export const r: RuleMessages = { a: { en: 'A' } };`, [/zh/]],
];

/** Every case type-checked in one program (one file each), for speed; the diagnostics per case. */
let found: Map<string, string[]>;
beforeAll(() => {
  const files = new Map(CASES.map(([name, body], i) => [path.join(__dirname, `__shape_${i}__.ts`), { name, source: head + body }]));
  const options: ts.CompilerOptions = {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.CommonJS,
    types: [],
    skipLibCheck: true,
  };
  const host = ts.createCompilerHost(options);
  const read = host.readFile.bind(host);
  const exists = host.fileExists.bind(host);
  host.readFile = (name) => files.get(path.resolve(name))?.source ?? read(name);
  host.fileExists = (name) => files.has(path.resolve(name)) || exists(name);
  const program = ts.createProgram([...files.keys()], options, host);
  found = new Map(
    [...files].map(([file, { name }]) => [
      name,
      ts.getPreEmitDiagnostics(program, program.getSourceFile(file)).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n')),
    ]),
  );
});

test.each(CASES)('%s', (name, _body, expected) => {
  const errors = found.get(name)!;
  expect(errors.length).toBe(expected.length);
  expected.forEach((re, i) => expect(errors[i]).toMatch(re));
});
