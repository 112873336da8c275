import { promises as fsp } from 'fs';
import * as path from 'path';
import { createToolRunner, type ConfirmAnswer, type ConfirmRequest, type FileAccess, type ToolRunnerOptions } from '../src';
import { tempWorld } from './tools-session';

// The runner's file-access seam (`createToolRunner({fileAccess})`, what an editor driving the
// assistant over ACP passes): fs.read reads the caller's text (an unsaved buffer), fs.edit and
// fs.write change that text and write through the caller. Judging, asking, the disk's checks and
// the undo journal are the same as without it.

let world: Awaited<ReturnType<typeof tempWorld>>;
beforeEach(async () => {
  world = await tempWorld();
  await fsp.writeFile(path.join(world.ws, 'a.txt'), 'on disk\n');
  await fsp.mkdir(path.join(world.home, '.ssh'));
  await fsp.writeFile(
    path.join(world.home, '.ssh', 'id_ed25519'),
    '-----BEGIN OPENSSH PRIVATE KEY-----\nx\n-----END OPENSSH PRIVATE KEY-----\n',
  );
  await fsp.symlink(path.join(world.home, '.ssh', 'id_ed25519'), path.join(world.ws, 'innocent.txt'));
});
afterEach(async () => {
  await world.cleanup();
});

/** An editor: buffers by real path, the writes it was asked for, and whether it refuses them. */
function editor(buffers: Record<string, string> = {}, options: { refuseWrites?: boolean; failReads?: boolean } = {}) {
  const writes: Array<{ file: string; text: string }> = [];
  const reads: string[] = [];
  const access: FileAccess = {
    async read(file) {
      reads.push(file);
      if (options.failReads) throw new Error('the editor is gone');
      return buffers[file];
    },
    async write(file, text) {
      if (options.refuseWrites) throw new Error('the editor refused the write');
      writes.push({ file, text });
      buffers[file] = text;
    },
  };
  return { access, writes, reads, buffers };
}

function make(fileAccess: FileAccess, answers: ConfirmAnswer[] = [], opts: Partial<ToolRunnerOptions> = {}) {
  const asked: ConfirmRequest[] = [];
  const runner = createToolRunner({
    cwd: world.ws,
    workspace: world.ws,
    lang: 'en',
    env: { ...process.env, HOME: world.home, SLOTHTOOL_HOME: path.join(world.home, '.slothtool') },
    confirm: async (req) => {
      asked.push(req);
      return answers.shift() ?? { action: 'decline' };
    },
    fileAccess,
    ...opts,
  });
  return { runner, asked };
}

const file = (rel: string) => path.join(world.ws, rel);

test('fs.read reads the buffer the caller holds; without one, the disk', async () => {
  const ed = editor({ [file('a.txt')]: 'unsaved line\n' });
  const { runner } = make(ed.access);
  const r = await runner.run({ tool: 'fs.read', path: 'a.txt' });
  expect(r).toMatchObject({ tool: 'fs.read', content: '     1\tunsaved line', decision: { level: 'L0' } });
  expect(ed.reads).toEqual([file('a.txt')]);
  delete ed.buffers[file('a.txt')];
  expect(await runner.run({ tool: 'fs.read', path: 'a.txt' })).toMatchObject({ content: '     1\ton disk' });
});

test('a caller that cannot read leaves the disk text', async () => {
  const { runner } = make(editor({}, { failReads: true }).access);
  expect(await runner.run({ tool: 'fs.read', path: 'a.txt' })).toMatchObject({ content: '     1\ton disk' });
});

test('the buffer passes the redaction gate like the disk', async () => {
  const ed = editor({ [file('a.txt')]: 'API_KEY=sk-abcdefghijklmnopqrstuvwx\n' });
  const r = (await make(ed.access).runner.run({ tool: 'fs.read', path: 'a.txt' })) as { content: string };
  expect(r.content).not.toContain('sk-abcdefghij');
});

test('fs.edit changes the buffer text and writes it through the caller: asked with its diff, journaled, the disk left to the editor', async () => {
  const ed = editor({ [file('a.txt')]: 'unsaved line\n' });
  const { runner, asked } = make(ed.access, [{ action: 'run' }]);
  const mark = runner.mark();
  const r = await runner.run({ tool: 'fs.edit', path: 'a.txt', old_string: 'unsaved', new_string: 'edited' });
  expect(r).toMatchObject({ status: 'applied', added: 1, removed: 1, undoable: true });
  expect(asked).toHaveLength(1);
  expect(asked[0].preview).toContain('-unsaved line');
  expect(asked[0].preview).toContain('+edited line');
  expect(ed.writes).toEqual([{ file: file('a.txt'), text: 'edited line\n' }]);
  expect(await fsp.readFile(file('a.txt'), 'utf8')).toBe('on disk\n');
  expect(runner.changes(mark).map((c) => c.path)).toEqual([file('a.txt')]);
});

test('a text the disk has but the buffer does not is not found', async () => {
  const ed = editor({ [file('a.txt')]: 'unsaved line\n' });
  const r = await make(ed.access, [{ action: 'run' }]).runner.run({
    tool: 'fs.edit',
    path: 'a.txt',
    old_string: 'on disk',
    new_string: 'x',
  });
  expect(r).toMatchObject({ status: 'error', error: { code: 'NOT_FOUND_IN_FILE' } });
  expect(ed.writes).toEqual([]);
});

test('fs.write creates a file through the caller; declined, nothing is written anywhere', async () => {
  const ed = editor();
  const { runner } = make(ed.access, [{ action: 'decline' }, { action: 'run' }]);
  expect(await runner.run({ tool: 'fs.write', path: 'sub/new.txt', content: 'hello\n' })).toMatchObject({ status: 'declined' });
  expect(ed.writes).toEqual([]);
  const r = await runner.run({ tool: 'fs.write', path: 'sub/new.txt', content: 'hello\n' });
  expect(r).toMatchObject({ status: 'applied', created: true });
  expect(ed.writes).toEqual([{ file: path.join(world.ws, 'sub', 'new.txt'), text: 'hello\n' }]);
});

test('a write the caller refuses fails the step and writes nothing to the disk instead', async () => {
  const ed = editor({}, { refuseWrites: true });
  const r = await make(ed.access, [{ action: 'run' }]).runner.run({
    tool: 'fs.edit',
    path: 'a.txt',
    old_string: 'on disk',
    new_string: 'x',
  });
  expect(r).toMatchObject({ status: 'error', error: { message: expect.stringContaining('the editor refused the write') } });
  expect(await fsp.readFile(file('a.txt'), 'utf8')).toBe('on disk\n');
});

test('a buffer changed while the question was open is not overwritten', async () => {
  const ed = editor({ [file('a.txt')]: 'unsaved line\n' });
  const confirm = async (): Promise<ConfirmAnswer> => {
    ed.buffers[file('a.txt')] = 'typed meanwhile\n';
    return { action: 'run' };
  };
  const { runner } = make(ed.access, [], { confirm });
  const r = await runner.run({ tool: 'fs.edit', path: 'a.txt', old_string: 'unsaved', new_string: 'edited' });
  expect(r).toMatchObject({ status: 'error', error: { code: 'CHANGED' } });
  expect(ed.writes).toEqual([]);
});

test('the judgement is the path on the disk: a secret behind an innocent name stays L2 and the caller is never asked for it', async () => {
  const ed = editor({ [file('innocent.txt')]: 'harmless' });
  const { runner, asked } = make(ed.access, [{ action: 'run' }]);
  const r = await runner.run({ tool: 'fs.read', path: 'innocent.txt' });
  expect(r).toMatchObject({ status: 'blocked', decision: { level: 'L2' } });
  expect(asked).toEqual([]);
  expect(ed.reads).toEqual([]);
  const w = await runner.run({ tool: 'fs.write', path: '~/.bashrc', content: 'x' });
  expect(w).toMatchObject({ status: 'blocked', decision: { level: 'L2' } });
  expect(ed.writes).toEqual([]);
});

test('a caller that only reads: edits are written to the disk atomically, from its buffer', async () => {
  const buffers: Record<string, string> = { [file('a.txt')]: 'unsaved line\n' };
  const { runner } = make({ read: async (f) => buffers[f] }, [{ action: 'run' }]);
  expect(await runner.run({ tool: 'fs.edit', path: 'a.txt', old_string: 'unsaved', new_string: 'edited' })).toMatchObject({
    status: 'applied',
  });
  expect(await fsp.readFile(file('a.txt'), 'utf8')).toBe('edited line\n');
});
