import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { createSandbox, exec } from '../src';
import { globalNpmrcs } from '../src/sandbox/secrets';
import { describeWithBwrap } from './bwrap-available';

// Registry tokens kept where the registries class of secrets.ts did not reach before: npm's global
// config inside a node version manager (bound back at L0 with the manager's folder), yarn v1's,
// pnpm's and bun's user configs. A temp HOME with each planted; a step at either level reads none.
const run = describeWithBwrap();

let root: string;
let home: string;
let ws: string;
const TOKENS: Record<string, string> = {
  '.nvm/versions/node/v20.11.1/etc/npmrc': '//registry.npmjs.org/:_authToken=NVM-GLOBAL-NPMRC-5c1e',
  '.volta/tools/image/node/22.1.0/etc/npmrc': '//npm.example.com/:_authToken=VOLTA-GLOBAL-NPMRC-82aa',
  '.yarnrc': 'registry "https://npm.example.com"\n"//npm.example.com/:_authToken" YARN-V1-RC-0d3f',
  '.config/pnpm/rc': '//npm.example.com/:_authToken=PNPM-RC-61b2',
  '.bunfig.toml': '[install.registry]\ntoken = "BUNFIG-TOKEN-9e07"',
};
const leaked = (text: string) =>
  Object.values(TOKENS)
    .map((t) => t.match(/[A-Z0-9]+(?:-[A-Z0-9]+){2,}/)![0])
    .filter((t) => text.includes(t));

beforeAll(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'bwrap-npmrc-')));
  home = path.join(root, 'home');
  ws = path.join(home, 'proj');
  for (const [rel, text] of Object.entries(TOKENS)) {
    fs.mkdirSync(path.dirname(path.join(home, rel)), { recursive: true });
    fs.writeFileSync(path.join(home, rel), text);
  }
  // the rest of the installation stays readable
  fs.mkdirSync(path.join(home, '.nvm/versions/node/v20.11.1/lib'), { recursive: true });
  fs.writeFileSync(path.join(home, '.nvm/versions/node/v20.11.1/lib/README'), 'node lib ok\n');
  fs.mkdirSync(ws, { recursive: true });
});
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

test('the plan lists the global npmrc of each installed version, the system prefixes and the running node', () => {
  const found = globalNpmrcs(home, (dir) => (fs.existsSync(dir) ? fs.readdirSync(dir) : []), '/opt/node-x/bin/node');
  expect(found).toEqual(
    expect.arrayContaining([
      path.join(home, '.nvm/versions/node/v20.11.1/etc/npmrc'),
      path.join(home, '.volta/tools/image/node/22.1.0/etc/npmrc'),
      '/etc/npmrc',
      '/usr/local/etc/npmrc',
      '/opt/node-x/etc/npmrc',
    ]),
  );
});

run('registry tokens of node installations and other package managers, for real', () => {
  const env = () => ({ ...process.env, HOME: home });
  const inBox = async (level: 'L0' | 'L1', program: string, args: string[]) => {
    const w = createSandbox({ workspace: ws, home, slothtoolHome: path.join(home, '.slothtool'), env: env() }).wrap(
      level,
      false,
      ws,
      program,
      args,
    )!;
    return exec({ ...w, cwd: ws, env: env(), timeoutMs: 30_000 });
  };

  test.each(['L0', 'L1'] as const)('%s: each file reads as empty; the installation around it stays readable', async (level) => {
    const read = await inBox(
      level,
      'cat',
      Object.keys(TOKENS).map((rel) => path.join(home, rel)),
    );
    expect(leaked(read.stdoutTail + read.stderrTail)).toEqual([]);
    const lib = await inBox(level, 'cat', [path.join(home, '.nvm/versions/node/v20.11.1/lib/README')]);
    expect([lib.exitCode, lib.stdoutTail]).toEqual([0, 'node lib ok\n']);
    const grep = await inBox(level, 'grep', ['-r', 'TOKEN\\|authToken', path.join(home, '.nvm')]);
    expect(leaked(grep.stdoutTail)).toEqual([]);
  });
});
