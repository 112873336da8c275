import { chat, cmd, usePtyFixture } from './pty/pty-session';
import { renderScreen } from './pty/screen-model';

// `ai -i` in a real pseudo-terminal (issue #46): the model's latest plan is drawn above the prompt,
// replaced when the model updates it, and back after `ai -i -c` resumes the session.
const fx = usePtyFixture();

const PLAN = [
  { step: 'Read the config loader', status: 'done' },
  { step: 'Change the default port', status: 'in_progress' },
  { step: 'Update the README', status: 'pending' },
  { step: 'Run the tests', status: 'pending' },
];

/** The rows of the screen from the last plan head to the prompt's rule. */
function planBlock(raw: string): string[] {
  const rows = renderScreen(raw, 100);
  const head =
    rows
      .map((r, i) => (/^Plan \d+\/\d+/.test(r) ? i : -1))
      .filter((i) => i >= 0)
      .pop() ?? -1;
  const rule = rows.findIndex((r, i) => i > head && r.startsWith('───'));
  return head < 0 ? [] : rows.slice(head, rule);
}

test('the plan shows above the prompt, follows its updates, and is there again after -c', async () => {
  fx.server.enqueue(cmd('plan', { tool: 'plan.update', items: PLAN }), chat('Planned the work.'));
  const s = await fx.ready();
  await s.submit('move the server to 8080', 'Planned the work.');
  await s.waitIdle();
  expect(planBlock(s.raw())).toEqual([
    'Plan 1/4',
    '  ✓ Read the config loader',
    '  ▸ Change the default port',
    '  ○ Update the README',
    '  ○ Run the tests',
  ]);
  const next = PLAN.map((p, i) => ({ ...p, status: i < 2 ? 'done' : i === 2 ? 'in_progress' : 'pending' }));
  fx.server.enqueue(cmd('next', { tool: 'plan.update', items: next }), chat('Port changed.'));
  await s.submit('go on', 'Port changed.');
  await s.waitIdle();
  expect(planBlock(s.raw())[0]).toBe('Plan 2/4');
  expect(planBlock(s.raw())).toContain('  ▸ Update the README');
  expect(await s.quit()).toBe(0);

  const again = await fx.start(['-i', '-c']);
  await again.waitFor('Plan 2/4');
  await again.waitIdle();
  expect(planBlock(again.raw())).toContain('  ▸ Update the README');
  expect(await again.quit()).toBe(0);
});
