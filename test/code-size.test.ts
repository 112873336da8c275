import * as fs from 'fs';
import * as path from 'path';
import * as ts from 'typescript';

// Rooms a newcomer can read: no source file over 450 lines, no function over 120 lines. A
// function is measured from its first to its last line (a named object literal of small
// functions is not a function); each nested function counts on its own too.
const ROOT = path.join(__dirname, '..');
const MAX_FILE = 450;
const MAX_FUNCTION = 120;

function sources(dir: string): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...sources(p));
    else if (/\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts')) out.push(p);
  }
  return out;
}

const files = fs
  .readdirSync(path.join(ROOT, 'packages'))
  .map((pkg) => path.join(ROOT, 'packages', pkg, 'src'))
  .filter((dir) => fs.existsSync(dir))
  .flatMap(sources);

function longFunctions(file: string): string[] {
  const text = fs.readFileSync(file, 'utf8');
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const out: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const start = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line;
      const end = sf.getLineAndCharacterOfPosition(node.getEnd()).line;
      if (end - start + 1 > MAX_FUNCTION) {
        const name =
          node.name && ts.isIdentifier(node.name)
            ? node.name.text
            : ts.isVariableDeclaration(node.parent) && ts.isIdentifier(node.parent.name)
              ? node.parent.name.text
              : '(anonymous)';
        out.push(`${path.relative(ROOT, file)}:${start + 1} ${name}: ${end - start + 1} lines`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}

test('the measure finds a long function and ignores a long object of short ones', () => {
  const tmp = fs.mkdtempSync(path.join(require('os').tmpdir(), 'size-'));
  try {
    const long = path.join(tmp, 'long.ts');
    fs.writeFileSync(long, `export function f() {\n${'  x();\n'.repeat(MAX_FUNCTION)}}\n`);
    const table = path.join(tmp, 'table.ts');
    fs.writeFileSync(table, `export const T = {\n${Array.from({ length: 200 }, (_v, i) => `  k${i}: () => ${i},\n`).join('')}};\n`);
    expect(longFunctions(long)).toEqual([`${path.relative(ROOT, long)}:1 f: ${MAX_FUNCTION + 2} lines`]);
    expect(longFunctions(table)).toEqual([]);
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
});

test(`no source file is over ${MAX_FILE} lines`, () => {
  expect(files.length).toBeGreaterThan(50);
  const long = files
    .map((f) => [path.relative(ROOT, f), fs.readFileSync(f, 'utf8').split('\n').length - 1] as const)
    .filter(([, n]) => n > MAX_FILE)
    .map(([f, n]) => `${f}: ${n} lines`);
  expect(long).toEqual([]);
});

test(`no function is over ${MAX_FUNCTION} lines`, () => {
  expect(files.flatMap(longFunctions)).toEqual([]);
});
