import { promises as fsp } from 'fs';
import { eachReturns } from '@holic512/testkit';
import * as path from 'path';
import { classify } from '../src/policy/classify';
import { runFsGlob } from '../src/tools/fs-glob';
import { runFsGrep } from '../src/tools/fs-grep';
import { findRipgrep, literalGlob } from '../src/tools/grep-rg';
import { tempWorld, testCtx, testSession } from './tools-session';

let world: Awaited<ReturnType<typeof tempWorld>>;
beforeEach(async () => {
  world = await tempWorld();
});
afterEach(async () => {
  await world.cleanup();
});

async function put(rel: string, text: string | Buffer, mtimeSec?: number): Promise<void> {
  const file = path.join(world.ws, rel);
  await fsp.mkdir(path.dirname(file), { recursive: true });
  await fsp.writeFile(file, text);
  if (mtimeSec !== undefined) await fsp.utimes(file, mtimeSec, mtimeSec);
}

const deps = { now: () => Date.now() } as never;
const ctxOf = (env: NodeJS.ProcessEnv = process.env, extra: Record<string, unknown> = {}) =>
  testCtx(testSession(world.ws, world.home), { deps, env, ...extra });

/** Each engine this machine has: ripgrep when it is on PATH (CI installs it), and the Node fallback always. */
const RG = findRipgrep(process.env, '/nonexistent-workspace');
const ENGINES: Array<['rg' | 'node', NodeJS.ProcessEnv]> = [
  ...(RG ? [['rg', process.env] as ['rg', NodeJS.ProcessEnv]] : []),
  ['node', { ...process.env, SLOTHTOOL_GREP: 'node' }],
];

describe('fs.glob', () => {
  test('matches relative to path, newest first, nested .gitignore files (and their negations) respected, .git skipped, dot files listed', async () => {
    await put('.gitignore', 'dist/\n*.log\n');
    await put('src/a.ts', 'a', 1000);
    await put('src/b.ts', 'b', 3000);
    await put('src/deep/c.ts', 'c', 2000);
    await put('src/deep/.gitignore', 'gen.ts\n!keep.log\n');
    await put('src/deep/gen.ts', 'g');
    await put('src/deep/keep.log', 'k');
    await put('src/deep/drop.log', 'd');
    await put('dist/out.ts', 'o');
    await put('.github/x.ts', 'x', 500);
    await put('.git/y.ts', 'y');
    const r = (await runFsGlob({ tool: 'fs.glob', pattern: '**/*.ts' }, ctxOf())) as Record<string, any>;
    expect(r.files).toEqual(['src/b.ts', 'src/deep/c.ts', 'src/a.ts', '.github/x.ts']);
    expect(r).toMatchObject({ total: 4, truncated: false });
    const logs = (await runFsGlob({ tool: 'fs.glob', pattern: '**/*.log' }, ctxOf())) as Record<string, any>;
    expect(logs.files).toEqual(['src/deep/keep.log']);
  });

  test('a sub-folder: paths come back as fs.read takes them, and the workspace .gitignore still applies', async () => {
    await put('.gitignore', 'secret-build/\n');
    await put('pkg/src/a.ts', 'a');
    await put('pkg/secret-build/b.ts', 'b');
    const r = (await runFsGlob({ tool: 'fs.glob', pattern: '**/*.ts', path: 'pkg' }, ctxOf())) as Record<string, any>;
    expect(r.files).toEqual(['pkg/src/a.ts']);
  });

  test('capped at 200, newest first, with the total', async () => {
    for (let i = 0; i < 250; i++) await put(`many/f${String(i).padStart(3, '0')}.txt`, '', 10_000 + i);
    const r = (await runFsGlob({ tool: 'fs.glob', pattern: 'many/*.txt' }, ctxOf())) as Record<string, any>;
    expect(r.files).toHaveLength(200);
    expect(r.files[0]).toBe('many/f249.txt');
    expect(r).toMatchObject({ total: 250, truncated: true });
    expect(r.note).toMatch(/250 files match/);
  });

  test('links are not followed out of the workspace', async () => {
    await fsp.writeFile(path.join(world.outside, 'leak.ts'), 'x');
    await fsp.symlink(world.outside, path.join(world.ws, 'out'));
    await put('in.ts', 'y');
    const r = (await runFsGlob({ tool: 'fs.glob', pattern: '**/*.ts' }, ctxOf())) as Record<string, any>;
    expect(r.files).toEqual(['in.ts']);
  });

  test.each([['../*'], ['/etc/*'], ['a/../../b']])('pattern %s that leaves the folder is refused with what to do', async (pattern) => {
    const r = (await runFsGlob({ tool: 'fs.glob', pattern }, ctxOf())) as Record<string, any>;
    expect(r.status).toBe('error');
    expect(r.error.code).toBe('INVALID_PATTERN');
    expect(r.error.message).toMatch(/set path/);
  });
});

describe.each(ENGINES)('fs.grep with %s', (engine, env) => {
  test('finds a symbol: {file, line, text} with context lines, the engine named', async () => {
    await put('src/a.ts', 'import x\n\nexport function parseThing(a) {\n  return a;\n}\n');
    await put('src/b.ts', 'parseThing(1);\n');
    const r = (await runFsGrep({ tool: 'fs.grep', pattern: 'function\\s+parseThing', context: 1 }, ctxOf(env))) as Record<string, any>;
    expect(r.engine).toBe(engine);
    expect(r.matches).toEqual([
      { file: 'src/a.ts', line: 3, text: 'export function parseThing(a) {', before: [''], after: ['  return a;'] },
    ]);
    expect(r).toMatchObject({ total: 1, truncated: false, skipped: [] });
  });

  test('.gitignore respected, .git and binary files skipped, glob and ignoreCase applied', async () => {
    await put('.gitignore', 'build/\n');
    await put('build/out.js', 'needle\n');
    await put('.git/HEAD', 'needle\n');
    await put('bin.dat', Buffer.concat([Buffer.from('needle\n'), Buffer.from([0, 1, 2])]));
    await put('a.ts', 'NEEDLE\n');
    await put('b.md', 'needle\n');
    const all = (await runFsGrep({ tool: 'fs.grep', pattern: 'needle', ignoreCase: true }, ctxOf(env))) as Record<string, any>;
    expect(all.matches.map((m: { file: string }) => m.file).sort()).toEqual(['a.ts', 'b.md']);
    const ts = (await runFsGrep({ tool: 'fs.grep', pattern: 'needle', ignoreCase: true, glob: '*.ts' }, ctxOf(env))) as Record<string, any>;
    expect(ts.matches.map((m: { file: string }) => m.file)).toEqual(['a.ts']);
    const exact = (await runFsGrep({ tool: 'fs.grep', pattern: 'needle' }, ctxOf(env))) as Record<string, any>;
    expect(exact.matches.map((m: { file: string }) => m.file)).toEqual(['b.md']);
  });

  test('secret files are not searched, only named (odd characters in their names too); their content never appears', async () => {
    await put('.env', 'TOKEN=needle-in-env\n');
    await put('config/.env.pr[o]d*', 'needle-in-weird\n');
    await put('keys/deploy.pem', 'needle-in-pem\n');
    await put('keys/id_ed25519', 'needle-in-key\n');
    await put('src/a.ts', 'const needle = 1;\n');
    const r = (await runFsGrep({ tool: 'fs.grep', pattern: 'needle' }, ctxOf(env))) as Record<string, any>;
    expect(r.matches).toEqual([{ file: 'src/a.ts', line: 1, text: 'const needle = 1;' }]);
    expect([...r.skipped].sort()).toEqual(['.env', 'config/.env.pr[o]d*', 'keys/deploy.pem', 'keys/id_ed25519']);
    expect(JSON.stringify(r)).not.toMatch(/needle-in/);
    expect(r.note).toMatch(/4 files that may hold secrets/);
    const one = (await runFsGrep({ tool: 'fs.grep', pattern: 'needle', path: '.env' }, ctxOf(env))) as Record<string, any>;
    expect(one.matches).toEqual([]);
    expect(one.skipped).toEqual(['.env']);
  });

  test('every shown line goes through the redaction gate (a key block is masked even in an ordinary file)', async () => {
    await put(
      'notes.md',
      [
        'token ghp_abcdefghijklmnopqrstuvwxyz0123456789 here',
        '-----BEGIN RSA PRIVATE KEY-----',
        'MIIEpAIBAAKCAQEAneedlebody',
        '-----END RSA PRIVATE KEY-----',
      ].join('\n') + '\n',
    );
    const r = (await runFsGrep({ tool: 'fs.grep', pattern: 'token|needle' }, ctxOf(env))) as Record<string, any>;
    expect(r.total).toBe(2);
    expect(JSON.stringify(r)).not.toMatch(/ghp_abcdef|needlebody/);
    expect(r.matches[1].text).toMatch(/^\[redacted/);
  });

  test('capped at 50 by default (maxResults lowers it), with the total', async () => {
    await put('many.txt', Array.from({ length: 60 }, (_, i) => `hit ${i}`).join('\n') + '\n');
    const r = (await runFsGrep({ tool: 'fs.grep', pattern: 'hit' }, ctxOf(env))) as Record<string, any>;
    expect(r.matches).toHaveLength(50);
    expect(r).toMatchObject({ total: 60, truncated: true });
    expect(r.note).toMatch(/60 lines match/);
    const five = (await runFsGrep({ tool: 'fs.grep', pattern: 'hit', maxResults: 5 }, ctxOf(env))) as Record<string, any>;
    expect(five.matches.map((m: { line: number }) => m.line)).toEqual([1, 2, 3, 4, 5]);
  });

  test('one file as path; an invalid pattern says what is wrong', async () => {
    await put('src/one.ts', 'a\nfind me\n');
    const r = (await runFsGrep({ tool: 'fs.grep', pattern: 'find', path: 'src/one.ts' }, ctxOf(env))) as Record<string, any>;
    expect(r.matches).toEqual([{ file: 'src/one.ts', line: 2, text: 'find me' }]);
    const bad = (await runFsGrep({ tool: 'fs.grep', pattern: '(unclosed' }, ctxOf(env))) as Record<string, any>;
    expect(bad.status).toBe('error');
    expect(bad.error.code).toBe('INVALID_PATTERN');
    expect(bad.error.message).toMatch(/not a valid regular expression/);
  });
});

describe('fs.grep engines', () => {
  test('a catastrophic pattern in the Node fallback stops at the search deadline and says so', async () => {
    await put('a.txt', `${'a'.repeat(40)}b\n`);
    const r = (await runFsGrep(
      { tool: 'fs.grep', pattern: '^(a+)+$' },
      ctxOf({ ...process.env, SLOTHTOOL_GREP: 'node' }, { timeoutMs: 300 }),
    )) as Record<string, any>;
    expect(r.engine).toBe('node');
    expect(r.truncated).toBe(true);
    expect(r.note).toMatch(/took more than/);
  });

  test.each([
    ['^b$', 'a\nb\nc\n', [2]],
    ['foo$', 'x\r\nfoo\r\nfoo bar\r\n', [2]],
    ['^$', 'a\n\nb\n', [2]],
    ['x(?!y)', 'xy\nx\n', [2]],
    ['(?<=a)b', 'a\nb\nab\n', [3]],
    ['a.c', 'a\nc\nabc\n', [3]],
  ])('the Node fallback tests line by line: %s', async (pattern, text, lines) => {
    await put('t.txt', text);
    const r = (await runFsGrep({ tool: 'fs.grep', pattern }, ctxOf({ ...process.env, SLOTHTOOL_GREP: 'node' }))) as Record<string, any>;
    expect(r.matches.map((m: { line: number }) => m.line)).toEqual(lines);
  });

  test('a backtracking .gitignore line (the repository is untrusted) or glob stops at the deadline instead of holding the process', async () => {
    await put('.gitignore', 'a*a*a*a*a*a*a*a*b\n');
    for (let i = 0; i < 3; i++) await put(`${'a'.repeat(90)}${i}`, 'needle\n');
    const short = { timeoutMs: 300 };
    const glob = (await runFsGlob({ tool: 'fs.glob', pattern: '**/*' }, ctxOf(process.env, short))) as Record<string, any>;
    expect(glob).toMatchObject({ truncated: true });
    expect(glob.note).toMatch(/took more than 0.3 s/);
    const grep = (await runFsGrep(
      { tool: 'fs.grep', pattern: 'needle' },
      ctxOf({ ...process.env, SLOTHTOOL_GREP: 'node' }, short),
    )) as Record<string, any>;
    expect(grep).toMatchObject({ engine: 'node', truncated: true });
    await fsp.rm(path.join(world.ws, '.gitignore'));
    const pattern = (await runFsGlob({ tool: 'fs.glob', pattern: '**/a*a*a*a*a*a*a*a*a*a*b' }, ctxOf(process.env, short))) as Record<
      string,
      any
    >;
    expect(pattern.truncated).toBe(true);
    if (RG) {
      // ripgrep's own matching is linear: the same tree is searched in full.
      await put('.gitignore', 'a*a*a*a*a*a*a*a*b\n');
      const viaRg = (await runFsGrep({ tool: 'fs.grep', pattern: 'needle' }, ctxOf(process.env, short))) as Record<string, any>;
      expect(viaRg).toMatchObject({ engine: 'rg', total: 3, truncated: false });
    }
  });

  test('an rg the workspace ships on PATH is never the one run', async () => {
    const bin = path.join(world.ws, 'bin');
    await fsp.mkdir(bin);
    await fsp.writeFile(path.join(bin, 'rg'), `#!/bin/sh\ntouch ${path.join(world.root, 'marker')}\n`, { mode: 0o755 });
    expect(findRipgrep({ PATH: bin }, world.ws)).toBeUndefined();
    // A PATH folder outside the workspace whose rg is a link into it: the workspace's program all the same.
    const linked = path.join(world.outside, 'bin');
    await fsp.mkdir(linked);
    await fsp.symlink(path.join(bin, 'rg'), path.join(linked, 'rg'));
    expect(findRipgrep({ PATH: linked }, world.ws)).toBeUndefined();
    if (RG) expect(findRipgrep({ PATH: [bin, path.dirname(RG)].join(path.delimiter) }, world.ws)).toBe(RG);
    await put('x.txt', 'needle\n');
    const r = (await runFsGrep({ tool: 'fs.grep', pattern: 'needle' }, ctxOf({ PATH: bin }))) as Record<string, any>;
    expect(r.engine).toBe('node');
    expect(r.total).toBe(1);
    await expect(fsp.stat(path.join(world.root, 'marker'))).rejects.toThrow();
  });

  (RG ? test : test.skip)('more secret files than rg is told by name: the Node fallback searches, still skipping them', async () => {
    for (let i = 0; i < 2001; i++) await put(`keys/k${i}.pem`, 'needle\n');
    await put('src/a.ts', 'needle\n');
    const r = (await runFsGrep({ tool: 'fs.grep', pattern: 'needle' }, ctxOf())) as Record<string, any>;
    expect(r.engine).toBe('node');
    expect(r.matches).toEqual([{ file: 'src/a.ts', line: 1, text: 'needle' }]);
    expect(r.skipped).toHaveLength(20);
    expect(r.note).toMatch(/2001 files that may hold secrets/);
  });

  (RG ? test : test.skip)('a glob ripgrep cannot read is an error that says so, not an empty result', async () => {
    await put('a.ts', 'needle\n');
    const r = (await runFsGrep({ tool: 'fs.grep', pattern: 'needle', glob: '[a.ts' }, ctxOf())) as Record<string, any>;
    expect(r.status).toBe('error');
    expect(r.error.code).toBe('INVALID_GLOB');
    expect(r.error.message).toMatch(/not a valid glob/);
  });

  (RG ? test : test.skip)('a look-behind ripgrep refuses is searched by the JavaScript fallback, with a note', async () => {
    await put('a.ts', 'export function go() {}\nfunction stay() {}\n');
    const r = (await runFsGrep({ tool: 'fs.grep', pattern: '(?<=export )function \\w+' }, ctxOf())) as Record<string, any>;
    expect(r.engine).toBe('node');
    expect(r.matches).toEqual([{ file: 'a.ts', line: 1, text: 'export function go() {}' }]);
    expect(r.note).toMatch(/JavaScript regular expression/);
  });

  eachReturns('literalGlob(%s) = %s', literalGlob, [
    ['.env', '/.env'],
    ['a/b[1]/*x?.pem', '/a/b\\[1\\]/\\*x\\?.pem'],
    ['{x}!.key', '/\\{x\\}\\!.key'],
  ]);
});

describe('judgement of fs.glob, fs.grep and web.search', () => {
  test.each([
    [{ tool: 'fs.glob', pattern: '**/*.ts' }, 'L0', 'fs.search'],
    [{ tool: 'fs.grep', pattern: 'x', path: 'src' }, 'L0', 'fs.search'],
    [{ tool: 'fs.grep', pattern: 'x', path: '../outside' }, 'L1', 'fs.outside'],
    [{ tool: 'fs.glob', pattern: '*', path: '~/.ssh' }, 'L2', 'secret.private_key'],
    [{ tool: 'fs.grep', pattern: 'x', path: '~/.aws' }, 'L2', 'secret.private_key'],
    [{ tool: 'web.search', query: 'zod' }, 'L1', 'web.search'],
  ])('%j → %s (%s)', (step, level, rule) => {
    const d = classify(step as never, {}, { cwd: world.ws, workspace: world.ws, home: world.home, lang: 'en' });
    expect(d.level).toBe(level);
    expect(d.rules.map((r) => r.id)).toContain(rule);
  });

  test('allowNetwork lowers web.search to L0; an invalid query is refused', () => {
    expect(classify({ tool: 'web.search', query: 'zod' } as never, { allowNetwork: true }, { lang: 'en' }).level).toBe('L0');
    expect(classify({ tool: 'web.search', query: ' ' } as never, {}, { lang: 'en' }).level).toBe('L2');
    expect(classify({ tool: 'fs.grep', pattern: 'x', context: 99 } as never, {}, { lang: 'en' }).level).toBe('L2');
  });
});
