import { placeholders } from '@holic512/shared/lib/messages';
import { messageKeys, messageTables, sharedKeys, t } from '../src/i18n';

test('every message exists in zh and en with the same placeholders', () => {
  const tables = messageTables();
  for (const key of messageKeys()) {
    const en = tables.en[key];
    const zh = tables.zh[key];
    expect(zh).toBeTruthy();
    const names = (s: string) => placeholders(s);
    expect([key, names(zh)]).toEqual([key, names(en)]);
  }
});

test('placeholders are filled', () => {
  expect(t('en', 'stepLimit', { n: 3 })).toBe('Stopped after 3 automatic steps. Say "continue" to let the assistant go on.');
  expect(t('zh', 'llmBaseMissing')).toContain('slothtool install @holic512/plugin-llm-base');
});

test('one lookup over every catalogue: no key names two messages, and each area is found', () => {
  expect(sharedKeys()).toEqual([]);
  expect(t('en', 'sessionSaved', { id: 's1' })).toContain('s1');
  expect(t('en', 'screenResumed', { id: 's1', messages: 2 })).toContain('2 records');
  expect(t('zh', 'mcpScreenTrusted')).toContain('已信任');
  expect(t('en', 'saved', { name: 'p', file: 'f' })).toContain('"p"');
});
