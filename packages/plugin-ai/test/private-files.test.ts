import { useAiFixture } from '@holic512/testkit';
import { promises as fs } from 'fs';
import * as path from 'path';
import { runAi } from './run-bin';

// Sessions, the audit log and llm-base's call log hold what the user said and ran: folders
// 0700, files 0600, and put back to that when found wider.
const fx = useAiFixture();

const mode = async (p: string) => (await fs.stat(p)).mode & 0o777;

test('new files are 0600 in 0700 folders, and wider ones found are narrowed', async () => {
  const ai = path.join(fx.temp.slothtoolHome, 'ai');
  const sessions = path.join(ai, 'sessions');
  // an older version left them world-readable
  await fs.mkdir(sessions, { recursive: true, mode: 0o755 });
  await fs.chmod(ai, 0o755);
  await fs.chmod(sessions, 0o755);
  await fs.writeFile(path.join(ai, 'audit.jsonl'), '', { mode: 0o644 });
  await fs.chmod(path.join(ai, 'audit.jsonl'), 0o644);
  await fs.chmod(path.join(fx.temp.slothtoolHome, 'plugin-configs'), 0o755);
  await fs.writeFile(path.join(fx.temp.slothtoolHome, 'plugin-configs', 'llm-base.calls.jsonl'), '', { mode: 0o644 });
  await fs.chmod(path.join(fx.temp.slothtoolHome, 'plugin-configs', 'llm-base.calls.jsonl'), 0o644);
  fx.server.enqueue(
    { json: { type: 'cmd', message: 'look', data: { cwd: null, commands: [{ program: 'ls', args: [] }] } } },
    { json: { type: 'chat', message: 'done' } },
  );
  const r = await runAi(['-p', 'hi'], { env: fx.temp.env, cwd: fx.temp.home });
  expect(r.code).toBe(0);
  const [session] = await fs.readdir(sessions);
  expect({
    ai: await mode(ai),
    sessions: await mode(sessions),
    session: await mode(path.join(sessions, session)),
    audit: await mode(path.join(ai, 'audit.jsonl')),
    configs: await mode(path.join(fx.temp.slothtoolHome, 'plugin-configs')),
    callLog: await mode(path.join(fx.temp.slothtoolHome, 'plugin-configs', 'llm-base.calls.jsonl')),
  }).toEqual({ ai: 0o700, sessions: 0o700, session: 0o600, audit: 0o600, configs: 0o700, callLog: 0o600 });
});
