import { promises as fsp } from 'fs';
import * as path from 'path';
import { runFsEdit, runFsWrite } from '../src/tools/fs-edit';
import { runFsRead } from '../src/tools/fs-read';
import { tempWorld, testCtx, testSession } from './tools-session';

let world: Awaited<ReturnType<typeof tempWorld>>;
beforeEach(async () => {
  world = await tempWorld();
});
afterEach(async () => {
  await world.cleanup();
});

const write = (rel: string, text: string | Buffer) => fsp.writeFile(path.join(world.ws, rel), text);
const read = (rel: string) => fsp.readFile(path.join(world.ws, rel), 'utf8');

describe('fs.read', () => {
  test('numbered lines, default limit, truncation note with the next offset', async () => {
    await write('big.txt', Array.from({ length: 2500 }, (_, i) => `line ${i + 1}`).join('\n') + '\n');
    const s = testSession(world.ws, world.home);
    const r = (await runFsRead({ tool: 'fs.read', path: 'big.txt' }, testCtx(s))) as Record<string, any>;
    expect(r.status).toBeUndefined();
    expect(r.content.split('\n')).toHaveLength(2000);
    expect(r.content.split('\n')[0]).toBe('     1\tline 1');
    expect(r).toMatchObject({ startLine: 1, endLine: 2000, totalLines: 2500, truncated: true, nextOffset: 2001 });
    expect(r.note).toContain('"offset": 2001');
    const more = (await runFsRead({ tool: 'fs.read', path: 'big.txt', offset: 2001 }, testCtx(s))) as Record<string, any>;
    expect(more).toMatchObject({ startLine: 2001, endLine: 2500, truncated: false });
    expect(more.nextOffset).toBeUndefined();
    const slice = (await runFsRead({ tool: 'fs.read', path: 'big.txt', offset: 10, limit: 2 }, testCtx(s))) as Record<string, any>;
    expect(slice.content).toBe('    10\tline 10\n    11\tline 11');
  });

  test.each([
    ['not found', 'missing.txt', 'NOT_FOUND', /does not exist/],
    ['a folder', 'sub', 'IS_DIRECTORY', /folder/],
    ['a binary file', 'bin.dat', 'BINARY', /binary file \(5 bytes\)/],
  ])('%s', async (_name, rel, code, message) => {
    await fsp.mkdir(path.join(world.ws, 'sub'));
    await write('bin.dat', Buffer.from([1, 2, 0, 3, 4]));
    const r = (await runFsRead({ tool: 'fs.read', path: rel }, testCtx(testSession(world.ws, world.home)))) as Record<string, any>;
    expect(r.status).toBe('error');
    expect(r.error.code).toBe(code);
    expect(r.error.message).toMatch(message);
  });

  test('secrets are redacted, line numbers stay right, a key block is masked even when the slice starts inside it', async () => {
    await write(
      '.env',
      [
        'A=1',
        'API_KEY=sk-abcdefghijklmnopqrstuvwx',
        '-----BEGIN RSA PRIVATE KEY-----',
        'MIIEpAIBAAKCAQEA',
        'abcdefSECRETBODY',
        '-----END RSA PRIVATE KEY-----',
        'Z=2',
      ].join('\n'),
    );
    const s = testSession(world.ws, world.home);
    const r = (await runFsRead({ tool: 'fs.read', path: '.env' }, testCtx(s))) as Record<string, any>;
    expect(r.content).not.toContain('sk-abcdefghij');
    expect(r.content).not.toContain('SECRETBODY');
    expect(r.content.split('\n')[6]).toBe('     7\tZ=2');
    const inside = (await runFsRead({ tool: 'fs.read', path: '.env', offset: 5, limit: 1 }, testCtx(s))) as Record<string, any>;
    expect(inside.content).toBe('     5\t[redacted]');
  });

  test('very long lines are cut and said so', async () => {
    await write('long.txt', 'x'.repeat(5000) + '\nshort\n');
    const r = (await runFsRead({ tool: 'fs.read', path: 'long.txt' }, testCtx(testSession(world.ws, world.home)))) as Record<string, any>;
    expect(r.content.split('\n')[0].length).toBeLessThan(2100);
    expect(r.truncated).toBe(true);
    expect(r.note).toMatch(/^1 line longer than 2000 characters was cut/);
  });
});

describe('fs.edit', () => {
  test('exact replacement, diff preview asked first, journal and snippet', async () => {
    await write('a.ts', 'const a = 1;\nconst b = 2;\n');
    const s = testSession(world.ws, world.home);
    const previews: string[] = [];
    const ctx = testCtx(s, { ask: async (p) => (previews.push(p ?? ''), true) });
    const r = (await runFsEdit({ tool: 'fs.edit', path: 'a.ts', old_string: 'const b = 2;', new_string: 'const b = 3;' }, ctx)) as Record<
      string,
      any
    >;
    expect(r).toMatchObject({ status: 'applied', replacements: 1, added: 1, removed: 1, undoable: true });
    expect(await read('a.ts')).toBe('const a = 1;\nconst b = 3;\n');
    expect(previews[0]).toContain('-const b = 2;\n+const b = 3;');
    expect(previews[0]).toContain('--- a.ts');
    expect(r.snippet).toContain('     2\tconst b = 3;');
    expect(s.journal.all()).toHaveLength(1);
  });

  test.each([
    ['not found', { old_string: 'nope', new_string: 'x' }, 'NOT_FOUND_IN_FILE', /was not found/],
    ['ambiguous', { old_string: 'x = 1', new_string: 'x = 2' }, 'AMBIGUOUS', /occurs 3 times.*add surrounding lines.*replace_all/],
    ['empty old_string', { old_string: '', new_string: 'x' }, 'EMPTY_OLD_STRING', /use fs.write/],
    ['no change', { old_string: 'x = 1', new_string: 'x = 1' }, 'NO_CHANGE', /the same/],
  ])('%s → error, file untouched', async (_n, edit, code, message) => {
    await write('m.txt', 'x = 1\nx = 1\nx = 1\n');
    const s = testSession(world.ws, world.home);
    let asked = 0;
    const r = (await runFsEdit({ tool: 'fs.edit', path: 'm.txt', ...edit }, testCtx(s, { ask: async () => (asked++, true) }))) as Record<
      string,
      any
    >;
    expect(r.status).toBe('error');
    expect(r.error.code).toBe(code);
    expect(r.error.message).toMatch(message);
    expect(asked).toBe(0);
    expect(await read('m.txt')).toBe('x = 1\nx = 1\nx = 1\n');
  });

  test('the preview masks secrets (a .env value, a private key body) but keeps the changed lines', async () => {
    await write('.env', 'A=1\nAPI_KEY=sk-abcdefghijklmnopqrstuvwx\n');
    const previews: string[] = [];
    const ask = async (p?: string) => (previews.push(p ?? ''), true);
    const s = testSession(world.ws, world.home);
    await runFsEdit(
      {
        tool: 'fs.edit',
        path: '.env',
        old_string: 'API_KEY=sk-abcdefghijklmnopqrstuvwx',
        new_string: 'API_KEY=sk-zyxwvutsrqponmlkjihgfedc',
      },
      testCtx(s, { ask }),
    );
    expect(previews[0]).toMatch(/^-API_KEY=sk-\[redacted openai key, 27 chars\]$/m);
    expect(previews[0]).toMatch(/^\+API_KEY=sk-\[redacted openai key, 27 chars\]$/m);
    expect(previews[0]).not.toMatch(/abcdefghij|zyxwvuts/);
    await runFsWrite(
      { tool: 'fs.write', path: 'k.pem.txt', content: '-----BEGIN RSA PRIVATE KEY-----\nMIIEsecretbody\n-----END RSA PRIVATE KEY-----\n' },
      testCtx(s, { ask }),
    );
    expect(previews[1]).not.toContain('MIIEsecretbody');
    expect(previews[1]).toContain('+[redacted]');
  });

  test('source read with fs.read can be edited by copying it; a masked secret cannot, and says why', async () => {
    await write('auth.ts', 'interface Auth {\n  token: string;\n}\nconst key = "sk-abcdefghijklmnopqrstuvwx";\n');
    const s = testSession(world.ws, world.home);
    const read = (await runFsRead({ tool: 'fs.read', path: 'auth.ts' }, testCtx(s))) as Record<string, any>;
    const line2 = read.content.split('\n')[1].split('\t')[1];
    expect(line2).toBe('  token: string;');
    const ok = (await runFsEdit(
      { tool: 'fs.edit', path: 'auth.ts', old_string: line2, new_string: '  token: string | null;' },
      testCtx(s),
    )) as Record<string, any>;
    expect(ok.status).toBe('applied');
    const line4 = read.content.split('\n')[3].split('\t')[1];
    expect(line4).toContain('[redacted openai key, 27 chars]');
    const masked = (await runFsEdit(
      { tool: 'fs.edit', path: 'auth.ts', old_string: line4, new_string: 'const key = process.env.KEY;' },
      testCtx(s),
    )) as Record<string, any>;
    expect(masked.error).toMatchObject({ code: 'NOT_FOUND_IN_FILE' });
    expect(masked.error.message).toMatch(/\[redacted/);
  });

  test('replace_all replaces every occurrence and counts them', async () => {
    await write('m.txt', 'x = 1\nx = 1\nx = 1\n');
    const r = (await runFsEdit(
      { tool: 'fs.edit', path: 'm.txt', old_string: 'x = 1', new_string: 'y = $&', replace_all: true },
      testCtx(testSession(world.ws, world.home)),
    )) as Record<string, any>;
    expect(r).toMatchObject({ status: 'applied', replacements: 3 });
    expect(await read('m.txt')).toBe('y = $&\ny = $&\ny = $&\n');
  });

  test('a binary file is refused', async () => {
    await write('b.bin', Buffer.from([0, 1, 2, 3]));
    const r = (await runFsEdit(
      { tool: 'fs.edit', path: 'b.bin', old_string: 'a', new_string: 'b' },
      testCtx(testSession(world.ws, world.home)),
    )) as Record<string, any>;
    expect(r.error.code).toBe('BINARY');
  });

  test('CRLF files match an old_string written with \\n', async () => {
    await write('w.txt', 'one\r\ntwo\r\nthree\r\n');
    const r = (await runFsEdit(
      { tool: 'fs.edit', path: 'w.txt', old_string: 'one\ntwo', new_string: 'uno\ndos' },
      testCtx(testSession(world.ws, world.home)),
    )) as Record<string, any>;
    expect(r.status).toBe('applied');
    expect(await read('w.txt')).toBe('uno\r\ndos\r\nthree\r\n');
  });

  test('declined: nothing written; changed while asking: refused', async () => {
    await write('a.txt', 'hello\n');
    const s = testSession(world.ws, world.home);
    const declined = (await runFsEdit(
      { tool: 'fs.edit', path: 'a.txt', old_string: 'hello', new_string: 'bye' },
      testCtx(s, { ask: async () => false }),
    )) as Record<string, any>;
    expect(declined.status).toBe('declined');
    expect(await read('a.txt')).toBe('hello\n');
    const raced = (await runFsEdit(
      { tool: 'fs.edit', path: 'a.txt', old_string: 'hello', new_string: 'bye' },
      testCtx(s, { ask: async () => (await write('a.txt', 'hello there\n'), true) }),
    )) as Record<string, any>;
    expect(raced.error.code).toBe('CHANGED');
    expect(await read('a.txt')).toBe('hello there\n');
  });
});

describe('fs.write', () => {
  test('creates a file (and its folders) with a head preview; overwrites with a diff; same content is unchanged', async () => {
    const s = testSession(world.ws, world.home);
    const previews: string[] = [];
    const ask = async (p?: string) => (previews.push(p ?? ''), true);
    const created = (await runFsWrite({ tool: 'fs.write', path: 'new/dir/f.txt', content: 'a\nb\n' }, testCtx(s, { ask }))) as Record<
      string,
      any
    >;
    expect(created).toMatchObject({ status: 'applied', created: true, added: 2, undoable: true });
    expect(previews[0]).toContain('--- /dev/null');
    expect(previews[0]).toContain('+a\n+b');
    const over = (await runFsWrite({ tool: 'fs.write', path: 'new/dir/f.txt', content: 'a\nc\n' }, testCtx(s, { ask }))) as Record<
      string,
      any
    >;
    expect(over).toMatchObject({ status: 'applied', created: false, added: 1, removed: 1 });
    expect(previews[1]).toContain('-b\n+c');
    const same = (await runFsWrite({ tool: 'fs.write', path: 'new/dir/f.txt', content: 'a\nc\n' }, testCtx(s, { ask }))) as Record<
      string,
      any
    >;
    expect(same.status).toBe('unchanged');
    expect(previews).toHaveLength(2);
  });

  test('writes through a symlink land in the real file; the link stays a link', async () => {
    await fsp.writeFile(path.join(world.ws, 'real.txt'), 'old\n');
    await fsp.symlink(path.join(world.ws, 'real.txt'), path.join(world.ws, 'link.txt'));
    const r = (await runFsWrite(
      { tool: 'fs.write', path: 'link.txt', content: 'new\n' },
      testCtx(testSession(world.ws, world.home)),
    )) as Record<string, any>;
    expect(r.status).toBe('applied');
    expect(await read('real.txt')).toBe('new\n');
    expect((await fsp.lstat(path.join(world.ws, 'link.txt'))).isSymbolicLink()).toBe(true);
  });

  test('a target re-pointed after judging is refused', async () => {
    const s = testSession(world.ws, world.home);
    const judged = s.resolve('x.txt');
    await fsp.writeFile(path.join(world.outside, 'x.txt'), 'theirs');
    await fsp.symlink(path.join(world.outside, 'x.txt'), path.join(world.ws, 'x.txt'));
    const r = (await runFsWrite({ tool: 'fs.write', path: 'x.txt', content: 'mine' }, testCtx(s, { judged }))) as Record<string, any>;
    expect(r.error.code).toBe('MOVED');
    expect(await fsp.readFile(path.join(world.outside, 'x.txt'), 'utf8')).toBe('theirs');
  });

  test('writes outside the workspace are not journalled', async () => {
    const s = testSession(world.ws, world.home);
    const r = (await runFsWrite({ tool: 'fs.write', path: path.join(world.outside, 'o.txt'), content: 'x' }, testCtx(s))) as Record<
      string,
      any
    >;
    expect(r).toMatchObject({ status: 'applied', undoable: false });
    expect(s.journal.all()).toHaveLength(0);
  });
});

describe('undo journal', () => {
  test('restores edited files, deletes created ones, leaves files changed since', async () => {
    await write('a.txt', 'one\n');
    await write('b.txt', 'two\n');
    const s = testSession(world.ws, world.home);
    const mark = s.journal.mark();
    await runFsEdit({ tool: 'fs.edit', path: 'a.txt', old_string: 'one', new_string: 'ONE' }, testCtx(s));
    await runFsEdit({ tool: 'fs.edit', path: 'a.txt', old_string: 'ONE', new_string: 'uno' }, testCtx(s));
    await runFsWrite({ tool: 'fs.write', path: 'c.txt', content: 'new\n' }, testCtx(s));
    await runFsEdit({ tool: 'fs.edit', path: 'b.txt', old_string: 'two', new_string: 'TWO' }, testCtx(s));
    await write('b.txt', 'user changed it\n');
    const r = s.journal.undo(mark);
    expect(r.restored).toEqual(
      expect.arrayContaining([
        { path: path.join(world.ws, 'a.txt'), action: 'restored' },
        { path: path.join(world.ws, 'c.txt'), action: 'deleted' },
      ]),
    );
    expect(r.skipped).toEqual([{ path: path.join(world.ws, 'b.txt'), reason: 'changed_since' }]);
    expect(await read('a.txt')).toBe('one\n');
    await expect(fsp.access(path.join(world.ws, 'c.txt'))).rejects.toThrow();
    expect(await read('b.txt')).toBe('user changed it\n');
    expect(s.journal.all()).toHaveLength(0);
  });
});
