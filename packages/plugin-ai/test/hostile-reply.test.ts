import { createTempHome, packageDir, startScriptedServer, type ScriptedServer, type TempHome } from '@holic512/testkit';
import { promises as fs } from 'fs';
import * as path from 'path';
import { parseReply } from '../src/protocol';
import { runAi } from './run-bin';

// A model reply holding a value nested 100 000 deep (or a huge one) is a protocol error the model
// is told about, never a crash.
const deepText = (n: number) => `{"type":"cmd","message":"","data":{"commands":[{"tool":"config.json_patch","file":"a.json","patch":[{"op":"add","path":"/a","value":${'['.repeat(n)}${']'.repeat(n)}}]}]}}`;

test('parseReply answers over-deep and over-large replies with an error, as text and as a value', () => {
  const r = parseReply(deepText(100_000));
  expect(r).toMatchObject({ success: false, error: expect.stringContaining('nested deeper than 64 levels') });
  let v: unknown = 1;
  for (let i = 0; i < 100_000; i++) v = { a: v };
  expect(parseReply({ type: 'cmd', message: '', data: { commands: [{ tool: 'config.json_patch', file: 'a.json', patch: [{ op: 'add', path: '/a', value: v }] }] } })).toMatchObject({ success: false });
  const wide = { type: 'chat', message: 'x', data: { suggestions: Array.from({ length: 300_000 }, () => 's') } };
  expect(parseReply(wide)).toMatchObject({ success: false, error: expect.stringContaining('more than 200000 values') });
  expect(parseReply({ type: 'chat', message: 'fine', data: { suggestions: ['a'] } })).toMatchObject({ success: true });
});

describe('end to end', () => {
  let temp: TempHome;
  let server: ScriptedServer;
  beforeEach(async () => {
    temp = await createTempHome({ language: 'en' });
    server = await startScriptedServer();
    await temp.registerPlugin('llm-base', packageDir('plugin-llm-base'));
    await temp.writeJson('plugin-configs/llm-base.json', {
      default_profile: 'local',
      profiles: { local: { base_url: server.baseURL, api_key: 'sk-test', low_model: 'm', high_model: 'm', timeout: 20000, max_retries: 0 } },
    });
  });
  afterEach(async () => {
    await server.close();
    await temp.cleanup();
  });

  test('ai -p with a 100 000-deep reply: one repair request says why, then a clear answer; no stack trace', async () => {
    server.enqueue({ content: deepText(100_000) }, { json: { type: 'chat', message: 'sorry, here is a small answer' } });
    const cwd = path.join(temp.home, 'p');
    await fs.mkdir(cwd);
    const r = await runAi(['-p', 'do it'], { env: temp.env, cwd });
    expect(r.stderr).not.toMatch(/RangeError|Maximum call stack|at .*\.js:\d+/);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('sorry, here is a small answer');
    const repair = server.requests[1].body.messages.at(-1).content as string;
    expect(repair).toContain('nested deeper than 64 levels');
  });
});
