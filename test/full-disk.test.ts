import { promises as fs } from 'fs';
import * as os from 'os';
import * as path from 'path';
import { runProcess, useAiFixture, type RunResult } from '@holic512/testkit';

// A full disk, for real: bubblewrap mounts a small tmpfs (`--size`) over the folder a program
// writes to, the test fills it, and the program runs against it. For each writer: the user is
// told what happened and what to do, the files that were there are byte for byte the same, no
// temp file is left behind, and once there is space again the same action works.
// (bubblewrap is required, as for the sandbox tests; .ci/run installs it.)

const root = path.resolve(__dirname, '..');
const AI_BIN = path.join(root, 'packages/plugin-ai/bin/ai.js');

/** Run `sh -c script` with a `size`-byte tmpfs over each of `dirs` (they start empty). */
function withFullDisk(dirs: string[], script: string, env: NodeJS.ProcessEnv, size = 65536): Promise<RunResult> {
  const args = ['--dev-bind', '/', '/'];
  for (const d of dirs) args.push('--size', String(size), '--tmpfs', d);
  return runProcess('bwrap', [...args, 'sh', '-c', script], { env });
}

/** Fill the tmpfs at "$1" up to the last byte (the write fails with ENOSPC, as it should). */
const FILL = 'fill() { head -c 100000000 /dev/zero > "$1/.fill" 2>/dev/null; true; }';

// The home: llm-base registered, its profile on the scripted server, ai without the OS sandbox
// (bubblewrap runs around ai here; a sandbox inside it is not what is tested).
const fx = useAiFixture({
  profile: { api_key: 'sk-local-test-key-0000', low_model: 'test-low', high_model: 'test-high', timeout: 30000 },
  aiConfig: { sandbox: 'off' },
});
let scratch: string;
beforeEach(async () => {
  scratch = await fs.mkdtemp(path.join(os.tmpdir(), 'full-disk-'));
});
afterEach(async () => {
  await fs.rm(scratch, { recursive: true, force: true });
});

test('json-patch on a full disk: a clear IO_ERROR, the config byte for byte the same, no temp file left; with space again it applies', async () => {
  const disk = path.join(scratch, 'disk');
  await fs.mkdir(disk);
  const original = `${JSON.stringify({ name: 'demo', scripts: { test: 'jest' }, pad: 'p'.repeat(2000) }, null, 2)}\n`;
  const script = `
    ${FILL}
    printf '%s' "$ORIGINAL" > "$DISK/package.json"
    fill "$DISK"
    node -e '
      const { patchFile, describeError } = require(process.env.JSON_PATCH);
      const fs = require("fs");
      const file = process.env.DISK + "/package.json";
      const patch = [{ op: "add", path: "/big", value: "x".repeat(20000) }];
      (async () => {
        const out = {};
        try { await patchFile(file, patch, { allowedRoots: [process.env.DISK] }); out.first = "applied"; }
        catch (e) { out.first = { code: e.code, message: describeError(e, "en") }; }
        out.same = fs.readFileSync(file, "utf8") === process.env.ORIGINAL;
        out.files = fs.readdirSync(process.env.DISK).sort();
        fs.unlinkSync(process.env.DISK + "/.fill");
        const again = await patchFile(file, patch, { allowedRoots: [process.env.DISK] });
        out.second = again.status;
        out.big = JSON.parse(fs.readFileSync(file, "utf8")).big.length;
        console.log(JSON.stringify(out));
      })().catch((e) => { console.log(JSON.stringify({ crash: String(e && e.stack || e) })); });
    '`;
  const r = await withFullDisk([disk], script, {
    ...fx.env,
    DISK: disk,
    ORIGINAL: original,
    JSON_PATCH: path.join(root, 'packages/json-patch'),
  });
  expect(r.stderr).toBe('');
  const out = JSON.parse(r.stdout.trim());
  expect(out.first.code).toBe('IO_ERROR');
  expect(out.first.message).toMatch(/no space left on device/i);
  expect(out.same).toBe(true);
  // Only the file and the filler: no half-written temp file, no stray backup.
  expect(out.files.filter((f: string) => !f.startsWith('.fill') && !f.includes('.bak') && f !== '.slothtool-backups')).toEqual([
    'package.json',
  ]);
  expect(out.files.some((f: string) => /tmp|\.\d+$/.test(f))).toBe(false);
  expect(out.second).toBe('applied');
  expect(out.big).toBe(20000);
});

test('llm-base on a full disk: saving a profile fails with a message, llm-base.json is unchanged; with space again it saves', async () => {
  const configs = path.join(fx.temp.slothtoolHome, 'plugin-configs');
  const saved = path.join(scratch, 'saved');
  await fs.mkdir(saved);
  const before = `${JSON.stringify({ default_profile: 'a', profiles: { a: { base_url: 'http://127.0.0.1:9/v1', api_key: 'k-test-0000', low_model: 'l', high_model: 'h' } } }, null, 2)}\n`;
  await fs.writeFile(path.join(saved, 'llm-base.json'), before, { mode: 0o600 });
  const script = `
    ${FILL}
    cp -p "$SAVED/llm-base.json" "$CONFIGS/llm-base.json"
    fill "$CONFIGS"
    node -e '
      const llm = require(process.env.LLM_BASE);
      const fs = require("fs");
      const file = process.env.CONFIGS + "/llm-base.json";
      const profile = { base_url: "http://127.0.0.1:9/v1", api_key: "k-test-1111", low_model: "l2", high_model: "h2", notes: "n".repeat(30000) };
      const out = { first: llm.create_profile("b", profile) };
      out.same = fs.readFileSync(file, "utf8") === fs.readFileSync(process.env.SAVED + "/llm-base.json", "utf8");
      out.files = fs.readdirSync(process.env.CONFIGS).sort();
      fs.unlinkSync(process.env.CONFIGS + "/.fill");
      out.second = llm.create_profile("b", profile).success;
      out.profiles = Object.keys(JSON.parse(fs.readFileSync(file, "utf8")).profiles).sort();
      console.log(JSON.stringify(out));
    '`;
  const r = await withFullDisk([configs], script, {
    ...fx.env,
    SAVED: saved,
    CONFIGS: configs,
    LLM_BASE: path.join(root, 'packages/plugin-llm-base'),
  });
  expect(r.stderr).toBe('');
  const out = JSON.parse(r.stdout.trim());
  expect(out.first.success).toBe(false);
  expect(out.first.error.message).toMatch(/no space left on device/i);
  expect(out.first.error.message).toContain('llm-base.json');
  expect(out.same).toBe(true);
  expect(out.files).toEqual(['.fill', 'llm-base.json']);
  expect(out.second).toBe(true);
  expect(out.profiles).toEqual(['a', 'b']);
});

describe('ai -p on a full disk', () => {
  test('the answer still comes, the session that cannot be written is said, the configs are unchanged (the call log is skipped)', async () => {
    const home = fx.temp.slothtoolHome;
    const saved = path.join(scratch, 'saved');
    await fs.cp(path.join(home, 'plugin-configs'), saved, { recursive: true });
    const aiDir = path.join(home, 'ai');
    await fs.mkdir(aiDir, { recursive: true });
    const configs = path.join(home, 'plugin-configs');
    fx.server.enqueue({ json: { type: 'chat', message: 'the answer is 42' } });
    const script = `
      ${FILL}
      cp -p "$SAVED"/* "$CONFIGS"/
      fill "$CONFIGS"; fill "$AIDIR"
      cd "$PROJECT"
      node "$AI_BIN" -p "what is the answer"; echo "rc=$?"
      for f in "$SAVED"/*; do cmp -s "$f" "$CONFIGS/$(basename "$f")" && echo "same=$(basename "$f")"; done
    `;
    const r = await withFullDisk([configs, aiDir], script, {
      ...fx.env,
      SAVED: saved,
      CONFIGS: configs,
      AIDIR: aiDir,
      PROJECT: fx.cwd,
      AI_BIN,
    });
    expect(r.stdout).toContain('the answer is 42');
    expect(r.stdout).toContain('rc=0');
    expect(r.stderr).toMatch(/session can no longer be saved \(ENOSPC: no space left on device/);
    const names = (await fs.readdir(saved)).sort();
    expect(r.stdout.match(/same=\S+/g)?.sort()).toEqual(names.map((n) => `same=${n}`));
  });
});
