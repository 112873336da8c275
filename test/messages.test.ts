import { catalogueProblems, fill, tablesFromRecords, type MessageTables } from '../packages/shared/src/messages';
import { messageTables } from '../packages/plugin-ai/src/i18n';
import { MESSAGE_TABLES as LLM_BASE } from '../packages/plugin-llm-base/src/i18n';
import { MESSAGE_TABLES as HOST } from '../packages/slothtool/src/i18n';
import { MESSAGES as RULES } from '../packages/tool-runner/src/i18n';
import { tools } from '../packages/tool-runner/src/registry';
import { TEXT_TABLES } from '../packages/json-patch/src/i18n';
import { WHAT } from '../packages/json-patch/src/errors';
import { USAGE_TABLES } from '../packages/shared/src/usage';

// Every user-facing message of every package, through the one catalogue mechanism of
// @holic512/shared: each id has an English and a Chinese text with the same placeholders.
const hints = Object.fromEntries(
  Object.entries(RULES)
    .filter(([, m]) => m.hintEn !== undefined || m.hintZh !== undefined)
    .map(([id, m]) => [id, { en: m.hintEn ?? '', zh: m.hintZh ?? '' }]),
);
const CATALOGUES: Array<[string, MessageTables<string>]> = [
  ['plugin-ai', messageTables() as MessageTables<string>],
  ['llm-base', LLM_BASE as unknown as MessageTables<string>],
  ['slothtool', HOST as MessageTables<string>],
  ['tool-runner rules', tablesFromRecords(RULES)],
  ['tool-runner hints', tablesFromRecords(hints)],
  ['tool-runner tool descriptions', tablesFromRecords(Object.fromEntries(tools.map((t) => [t.name, t.description])))],
  ['json-patch', tablesFromRecords(TEXT_TABLES as Record<string, { en: string; zh: string }>)],
  ['json-patch errors', tablesFromRecords(WHAT)],
  ['shared usage', USAGE_TABLES as MessageTables<string>],
];

test.each(CATALOGUES)('%s: every message in both languages with the same placeholders', (name, tables) => {
  expect(Object.keys(tables.en).length).toBeGreaterThan(2);
  expect(catalogueProblems(name, tables)).toEqual([]);
});

test('every placeholder of every message is filled when its values are given (no stray braces)', () => {
  const leftover: string[] = [];
  for (const [name, tables] of CATALOGUES) {
    for (const lang of ['en', 'zh'] as const) {
      for (const [key, text] of Object.entries(tables[lang])) {
        const names = [...text.matchAll(/\{(\w+)/g)].map((m) => m[1]);
        const vars = Object.fromEntries(names.map((n) => [n, 2]));
        const out = fill(text, vars, lang);
        if (/\{\w+\}|, plural,/.test(out)) leftover.push(`${name} ${lang} ${key}: ${out}`);
      }
    }
  }
  expect(leftover).toEqual([]);
});

test('no English message says "1 things": a count before a plural noun is a plural form', () => {
  // `{n} files` reads "1 files" for one: such messages use `{n, plural, one {# file} other {# files}}`.
  // A placeholder followed by a verb (`{file} is`), or a fixed limit or unit (`{max} bytes`, `{ms} ms`) is not a count.
  const VERBS = /^(is|was|has|needs|declares|gives|waits|contains|lets|setting|for|as|brings|exists)$/;
  const naive: string[] = [];
  for (const [name, tables] of CATALOGUES) {
    for (const [key, text] of Object.entries(tables.en)) {
      for (const m of text.matchAll(/\{(\w+)\} ((?:[a-z-]+ )?([a-z]+s))\b/g)) {
        const next = m[2].split(' ')[0];
        // An option after a placeholder (`{file} --force replaces it`) is not a noun it counts.
        if (['max', 'ms', 'budget', 'input', 'before', 'total'].includes(m[1]) || VERBS.test(next) || next.startsWith('-')) continue;
        naive.push(`${name} ${key}: ${m[0]}`);
      }
    }
  }
  expect(naive).toEqual([]);
});
