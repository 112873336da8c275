import { spawn } from 'child_process';
import * as path from 'path';
import { useAiFixture } from '@holic512/testkit';

// `slothtool list | head -1` and the like: when the reader of stdout goes away, every CLI ends
// quietly with status 0 instead of an EPIPE stack trace.
const root = path.resolve(__dirname, '..');
const bins: Array<[string, string, string[]]> = [
  ['slothtool', 'packages/slothtool/bin/slothtool.js', ['--help']],
  ['llm-base', 'packages/plugin-llm-base/bin/llm-base.js', ['--help']],
  ['ai', 'packages/plugin-ai/bin/ai.js', ['--help']],
];

// One home for the file: `--help` needs no model.
const fx = useAiFixture({ profile: false }, 'all');

test.each(bins)('%s with its reader gone: status 0, no stack trace', async (_name, bin, args) => {
  const child = spawn(process.execPath, [path.join(root, bin), ...args], { env: fx.env, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout.destroy(); // the reader is gone before anything is written
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
  expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
});
