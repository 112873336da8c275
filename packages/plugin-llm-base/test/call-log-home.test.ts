import { promises as fs } from 'fs';
import * as path from 'path';
import { createTempHome, type TempHome } from '@holic512/testkit';
import { addCall, flushCalls } from '../src/call-log';
import type { CallRecord } from '../src/types';

// A call-log line is written after the call (when the event loop is idle, or at exit). It goes to
// the log of the home the call was made in, even when the environment it was given (often the live
// process.env) names another home, or none, by then: a test that restores SLOTHTOOL_HOME after its
// calls must not leave lines in the real ~/.slothtool.

let made: TempHome;
let later: TempHome;
beforeEach(async () => {
  made = await createTempHome({ language: 'en' });
  later = await createTempHome({ language: 'en' });
});
afterEach(async () => {
  await made.cleanup();
  await later.cleanup();
});

const record = (id: string): CallRecord =>
  ({ call_id: id, timestamp: '2026-11-29T00:00:00.000Z', profile: 'p', model: 'm', duration_ms: 1, success: true }) as CallRecord;
const lines = async (home: TempHome): Promise<string[]> => {
  try {
    return (await fs.readFile(path.join(home.slothtoolHome, 'plugin-configs', 'llm-base.calls.jsonl'), 'utf8')).trim().split('\n');
  } catch {
    return [];
  }
};

test.each([
  ['names another home', (env: NodeJS.ProcessEnv) => (env.SLOTHTOOL_HOME = later.slothtoolHome)],
  [
    'names no SlothTool home (only HOME)',
    (env: NodeJS.ProcessEnv) => {
      delete env.SLOTHTOOL_HOME;
      env.HOME = later.home;
    },
  ],
])('a line queued while the environment named one home, written after it %s, lands in the first', async (_what, change) => {
  const env: NodeJS.ProcessEnv = { SLOTHTOOL_HOME: made.slothtoolHome, HOME: made.home };
  addCall(record('c-1'), env, 'en');
  change(env);
  flushCalls();
  expect((await lines(made)).map((l) => JSON.parse(l).call_id)).toEqual(['c-1']);
  expect(await lines(later)).toEqual([]);
});
