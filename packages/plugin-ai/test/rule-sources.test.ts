// Every place that says what the rules are reads the same sources: `ai risk` and `/permissions`
// apply and list the project's `.slothtool/settings.json` and Claude Code's settings files as the
// session does, not ai.json alone.
import * as fs from 'fs';
import * as path from 'path';
import { PassThrough } from 'stream';
import { createTempHome, type TempHome } from '@holic512/testkit';
import { runRisk } from '../src/cli/risk-command';
import { sessionRules } from '../src/config/session-policy';
import { loadConfig } from '../src/config/config';
import { aiPaths } from '../src/home';
import { permissionsText } from '../src/interactive/trust-view';

let temp: TempHome;
let ws: string;
beforeEach(async () => {
  temp = await createTempHome({ language: 'en' });
  ws = path.join(temp.home, 'ws');
  fs.mkdirSync(path.join(ws, '.claude'), { recursive: true });
  fs.mkdirSync(path.join(temp.home, '.claude'), { recursive: true });
});
afterEach(() => temp.cleanup());

const write = (file: string, data: unknown) => fs.writeFileSync(file, JSON.stringify(data));
async function risk(argv: string[]): Promise<{ level: string; rules: Array<{ id: string; reason: string }> }> {
  const stdout = new PassThrough();
  let out = '';
  stdout.on('data', (d) => (out += d));
  expect(await runRisk({ json: true, argv }, 'en', { stdout, env: temp.env, cwd: ws })).toBe(0);
  return JSON.parse(out);
}

test("ai risk applies Claude Code's user rules and a project's deny rules, as a session there would", async () => {
  expect((await risk(['git', 'push'])).level).toBe('L1');
  write(path.join(temp.home, '.claude', 'settings.json'), { permissions: { deny: ['Bash(git push:*)'], allow: ['Bash(npm test)'] } });
  const push = await risk(['git', 'push', 'origin']);
  expect(push.level).toBe('L2');
  expect(push.rules.find((r) => r.id === 'permission.deny')!.reason).toContain(path.join(temp.home, '.claude', 'settings.json'));
  expect((await risk(['npm', 'test'])).level).toBe('L0');
  // An untrusted project's files still add their deny rules (never their allow rules).
  write(path.join(ws, '.claude', 'settings.json'), { permissions: { deny: ['Bash(make:*)'], allow: ['Bash(curl:*)'] } });
  expect((await risk(['make', 'all'])).level).toBe('L2');
  expect((await risk(['curl', 'https://example.com'])).level).toBe('L1');
});

test("/permissions lists the rules of the other files with their file, after ai.json's own", () => {
  write(path.join(temp.home, '.claude', 'settings.json'), { permissions: { deny: ['Bash(git push:*)'] } });
  fs.mkdirSync(path.join(ws, '.slothtool'));
  write(path.join(ws, '.slothtool', 'settings.json'), { permissions: { deny: ['exec(rm *)'] } });
  const paths = aiPaths(path.join(temp.home, '.slothtool'));
  const { otherRules } = sessionRules(loadConfig(paths.config), paths, ws, temp.env);
  const plain = { dim: (s: string) => s } as Parameters<typeof permissionsText>[3];
  const text = permissionsText('', paths.config, ws, plain, 'en', otherRules);
  expect(text.split('\n')).toEqual([
    expect.stringMatching(/^No permission rules in /),
    'Rules from other files (they apply too; change them in their file):',
    `  deny   exec(rm *)  · ${path.join(ws, '.slothtool', 'settings.json')}`,
    `  deny   exec(git push *)  · ${path.join(temp.home, '.claude', 'settings.json')}`,
    `  deny   proc.start(git push *)  · ${path.join(temp.home, '.claude', 'settings.json')}`,
  ]);
  fs.mkdirSync(path.dirname(paths.config), { recursive: true });
  write(paths.config, { permissions: { allow: ['exec(ls)'] } });
  const both = permissionsText('', paths.config, ws, plain, 'zh', otherRules).split('\n');
  expect(both[1]).toBe('  allow  exec(ls)');
  expect(both[2]).toMatch(/^来自其他文件的规则/);
  expect(both.at(-1)).toMatch(/^\/permissions remove/);
});
