import { spawn } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { createToolRunner } from '../src';

const tempRoot = (prefix: string): string => fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));

/** A temp folder holding a workspace `ws` with a folder `ws/dir-real`, and a folder `evil` outside it. */
interface RaceWorld {
  root: string;
  ws: string;
  evil: string;
}

const raceWorld = (prefix: string, evilName: string): RaceWorld => {
  const root = tempRoot(prefix);
  const world = { root, ws: path.join(root, 'ws'), evil: path.join(root, evilName) };
  fs.mkdirSync(path.join(world.ws, 'dir-real'), { recursive: true });
  fs.mkdirSync(world.evil);
  return world;
};

/**
 * Runs `race` while a second process runs `swap` over and over for up to 20 s, as fast as it can
 * (`swap` is JavaScript with `fs`, `d` = `<ws>/dir`, `real` = `<ws>/dir-real` and `evil` in scope).
 * Then the swapper is killed and, once it has exited, the world's folder is removed.
 */
async function whileSwapping({ root, ws, evil }: RaceWorld, swap: string, race: () => Promise<void>): Promise<void> {
  const [d, real] = [path.join(ws, 'dir'), path.join(ws, 'dir-real')].map((p) => JSON.stringify(p));
  const loop = `const fs=require('fs');const d=${d};const real=${real};const evil=${JSON.stringify(evil)};
       const end=Date.now()+20000;
       while(Date.now()<end){${swap}}`;
  const swapper = spawn(process.execPath, ['-e', loop], { stdio: 'ignore' });
  const exited = new Promise((resolve) => swapper.once('exit', resolve));
  try {
    await race();
  } finally {
    swapper.kill('SIGKILL');
    await exited;
    fs.rmSync(root, { recursive: true, force: true });
  }
}

// Check-then-use: fs.read judges a path, then reads it. Another process swaps a folder on the
// way for a link to a secret, as fast as it can, while the model's reads run. The secret never
// comes back: the file is opened once and checked through its descriptor.
test('a folder swapped for a link between the judgement and the read never yields the secret', async () => {
  const world = raceWorld('fs-race-', 'secret');
  const { ws } = world;
  fs.writeFileSync(path.join(world.evil, 'notes.txt'), 'TOP-SECRET-CONTENT\n');
  fs.writeFileSync(path.join(ws, 'dir-real', 'notes.txt'), 'harmless notes\n');
  fs.symlinkSync(path.join(ws, 'dir-real'), path.join(ws, 'dir-link-ok'));
  // The swapper: `dir` is a real folder one moment and a link to the secret folder the next.
  const swap =
    "try{fs.symlinkSync(real,d)}catch{} try{fs.renameSync(d,d+'.x')}catch{} try{fs.symlinkSync(evil,d)}catch{} try{fs.unlinkSync(d)}catch{} try{fs.renameSync(d+'.x',d)}catch{} try{fs.unlinkSync(d)}catch{}";
  await whileSwapping(world, swap, async () => {
    const runner = createToolRunner({ cwd: ws, workspace: ws, lang: 'en', sandbox: 'off', confirm: () => ({ action: 'decline' }) });
    let read = 0;
    for (let i = 0; i < 1500; i++) {
      const r = (await runner.run({ tool: 'fs.read', path: 'dir/notes.txt' })) as { content?: string; status?: string };
      expect(JSON.stringify(r)).not.toContain('TOP-SECRET');
      if (typeof r.content === 'string' && r.content.includes('harmless')) read++;
    }
    // the test raced for real: some reads saw the harmless file
    expect(read).toBeGreaterThan(0);
  });
}, 60_000);

// The same race on the way out: fs.write judges `dir/out.txt` inside the workspace, then writes.
// A folder swapped for a link to a folder outside between the two must never receive the file:
// the write goes through the folder held open and checked (or fails with MOVED).
test('a folder swapped for a link between the judgement and the write never gets a file outside', async () => {
  const world = raceWorld('fs-race-w-', 'outside');
  const { ws, evil: outside } = world;
  const swap =
    'try{fs.renameSync(real,d)}catch{} try{fs.renameSync(d,real)}catch{} try{fs.symlinkSync(evil,d)}catch{} try{fs.unlinkSync(d)}catch{}';
  await whileSwapping(world, swap, async () => {
    // The user approves writing inside the workspace only: a step judged (at that moment) to go
    // through the link to the outside folder is declined, as a user reading the question would.
    const inside = (req: { decision: { rules: Array<{ id: string }> } }) => !req.decision.rules.some((r) => /outside|escape/.test(r.id));
    const runner = createToolRunner({
      cwd: ws,
      workspace: ws,
      lang: 'en',
      sandbox: 'off',
      confirm: (req) => (inside(req) ? { action: 'run' } : { action: 'decline' }),
    });
    let written = 0;
    for (let i = 0; i < 1500; i++) {
      const r = (await runner.run({ tool: 'fs.write', path: 'dir/out.txt', content: `n${i}\n` })) as {
        status?: string;
        error?: { code?: string };
      };
      if (r.status === 'applied') written++;
      expect(fs.readdirSync(outside)).toEqual([]);
    }
    // the test raced for real: some writes went through
    expect(written).toBeGreaterThan(0);
  });
}, 60_000);

// The same swap made deterministic: the path was judged while `dir` was a folder of the
// workspace; by the time of the write it is a link to a folder outside.
test('the atomic write refuses a judged folder that became a link (MOVED), and writes nothing there', () => {
  const { writeFileAtomicSync } = require('../src/atomic-write') as typeof import('../src/atomic-write');
  const root = tempRoot('fs-swap-');
  try {
    const dir = path.join(root, 'ws', 'dir');
    const outside = path.join(root, 'outside');
    fs.mkdirSync(dir, { recursive: true });
    fs.mkdirSync(outside);
    writeFileAtomicSync(path.join(dir, 'a.txt'), 'one\n');
    expect(fs.readFileSync(path.join(dir, 'a.txt'), 'utf8')).toBe('one\n');
    fs.renameSync(dir, `${dir}.old`);
    fs.symlinkSync(outside, dir);
    expect(() => writeFileAtomicSync(path.join(dir, 'a.txt'), 'two\n')).toThrow(expect.objectContaining({ code: 'MOVED' }));
    expect(fs.readdirSync(outside)).toEqual([]);
    // A link in a parent further up is caught too.
    fs.unlinkSync(dir);
    fs.renameSync(`${dir}.old`, dir);
    fs.renameSync(path.join(root, 'ws'), path.join(root, 'ws.old'));
    fs.symlinkSync(path.join(root, 'ws.old'), path.join(root, 'ws'));
    expect(() => writeFileAtomicSync(path.join(dir, 'a.txt'), 'three\n')).toThrow(expect.objectContaining({ code: 'MOVED' }));
    expect(fs.readFileSync(path.join(root, 'ws.old', 'dir', 'a.txt'), 'utf8')).toBe('one\n');
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
});
