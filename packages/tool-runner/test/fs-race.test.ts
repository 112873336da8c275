import { spawn } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { createToolRunner } from '../src';

// Check-then-use: fs.read judges a path, then reads it. Another process swaps a folder on the
// way for a link to a secret, as fast as it can, while the model's reads run. The secret never
// comes back: the file is opened once and checked through its descriptor.
test('a folder swapped for a link between the judgement and the read never yields the secret', async () => {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'fs-race-')));
  const ws = path.join(root, 'ws');
  const secretDir = path.join(root, 'secret');
  fs.mkdirSync(path.join(ws, 'dir'), { recursive: true });
  fs.mkdirSync(secretDir);
  fs.writeFileSync(path.join(ws, 'dir', 'notes.txt'), 'harmless notes\n');
  fs.writeFileSync(path.join(secretDir, 'notes.txt'), 'TOP-SECRET-CONTENT\n');
  fs.mkdirSync(path.join(ws, 'dir-real'));
  fs.writeFileSync(path.join(ws, 'dir-real', 'notes.txt'), 'harmless notes\n');
  fs.rmSync(path.join(ws, 'dir'), { recursive: true });
  fs.symlinkSync(path.join(ws, 'dir-real'), path.join(ws, 'dir-link-ok'));
  // The swapper: `dir` is a real folder one moment and a link to the secret folder the next.
  const swapper = spawn(
    process.execPath,
    [
      '-e',
      `const fs=require('fs');const d=${JSON.stringify(path.join(ws, 'dir'))};const real=${JSON.stringify(path.join(ws, 'dir-real'))};const evil=${JSON.stringify(secretDir)};
       const end=Date.now()+20000;
       while(Date.now()<end){try{fs.symlinkSync(real,d)}catch{} try{fs.renameSync(d,d+'.x')}catch{} try{fs.symlinkSync(evil,d)}catch{} try{fs.unlinkSync(d)}catch{} try{fs.renameSync(d+'.x',d)}catch{} try{fs.unlinkSync(d)}catch{}}`,
    ],
    { stdio: 'ignore' },
  );
  try {
    const runner = createToolRunner({ cwd: ws, workspace: ws, lang: 'en', sandbox: 'off', confirm: () => ({ action: 'decline' }) });
    let read = 0;
    for (let i = 0; i < 1500; i++) {
      const r = (await runner.run({ tool: 'fs.read', path: 'dir/notes.txt' })) as { content?: string; status?: string };
      expect(JSON.stringify(r)).not.toContain('TOP-SECRET');
      if (typeof r.content === 'string' && r.content.includes('harmless')) read++;
    }
    // the test raced for real: some reads saw the harmless file
    expect(read).toBeGreaterThan(0);
  } finally {
    swapper.kill('SIGKILL');
    fs.rmSync(root, { recursive: true, force: true });
  }
}, 60_000);

// The same race on the way out: fs.write judges `dir/out.txt` inside the workspace, then writes.
// A folder swapped for a link to a folder outside between the two must never receive the file:
// the write goes through the folder held open and checked (or fails with MOVED).
test('a folder swapped for a link between the judgement and the write never gets a file outside', async () => {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'fs-race-w-')));
  const ws = path.join(root, 'ws');
  const outside = path.join(root, 'outside');
  fs.mkdirSync(path.join(ws, 'dir-real'), { recursive: true });
  fs.mkdirSync(outside);
  const swapper = spawn(
    process.execPath,
    [
      '-e',
      `const fs=require('fs');const d=${JSON.stringify(path.join(ws, 'dir'))};const real=${JSON.stringify(path.join(ws, 'dir-real'))};const evil=${JSON.stringify(outside)};
       const end=Date.now()+20000;
       while(Date.now()<end){try{fs.renameSync(real,d)}catch{} try{fs.renameSync(d,real)}catch{} try{fs.symlinkSync(evil,d)}catch{} try{fs.unlinkSync(d)}catch{}}`,
    ],
    { stdio: 'ignore' },
  );
  try {
    // The user approves writing inside the workspace only: a step judged (at that moment) to go
    // through the link to the outside folder is declined, as a user reading the question would.
    const inside = (req: { decision: { rules: Array<{ id: string }> } }) => !req.decision.rules.some((r) => /outside|escape/.test(r.id));
    const runner = createToolRunner({ cwd: ws, workspace: ws, lang: 'en', sandbox: 'off', confirm: (req) => (inside(req) ? { action: 'run' } : { action: 'decline' }) });
    let written = 0;
    for (let i = 0; i < 1500; i++) {
      const r = (await runner.run({ tool: 'fs.write', path: 'dir/out.txt', content: `n${i}\n` })) as { status?: string; error?: { code?: string } };
      if (r.status === 'applied') written++;
      expect(fs.readdirSync(outside)).toEqual([]);
    }
    // the test raced for real: some writes went through
    expect(written).toBeGreaterThan(0);
  } finally {
    swapper.kill('SIGKILL');
    fs.rmSync(root, { recursive: true, force: true });
  }
}, 60_000);

// The same swap made deterministic: the path was judged while `dir` was a folder of the
// workspace; by the time of the write it is a link to a folder outside.
test('the atomic write refuses a judged folder that became a link (MOVED), and writes nothing there', () => {
  const { writeFileAtomicSync } = require('../src/atomic-write') as typeof import('../src/atomic-write');
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'fs-swap-')));
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
