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
