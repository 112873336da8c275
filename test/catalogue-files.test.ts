import * as fs from 'fs';
import * as path from 'path';
import { catalogueProblems, tablesFromRecords } from '../packages/shared/src/messages';
import { MESSAGES } from '../packages/tool-runner/src/i18n';

// The JSON catalogues (packages/*/src/messages/*.json, docs/architecture.md, Messages): one record
// per key with the text in both languages side by side and, for a rule, its hint in both or in
// neither. The types check this where a catalogue is loaded; this test reads the files themselves,
// so a misspelt field ("hintZH") or an empty text is caught too, and checks that the build copies
// each one into lib/ (what the packages ship and the bundles inline).
const ROOT = path.join(__dirname, '..');
const FIELDS = new Set(['en', 'zh', 'hintEn', 'hintZh']);

const files = fs
  .readdirSync(path.join(ROOT, 'packages'))
  .map((pkg) => path.join('packages', pkg, 'src', 'messages'))
  .filter((dir) => fs.existsSync(path.join(ROOT, dir)))
  .flatMap((dir) =>
    fs
      .readdirSync(path.join(ROOT, dir))
      .filter((f) => f.endsWith('.json'))
      .map((f) => path.join(dir, f)),
  );

const read = (file: string): Record<string, Record<string, unknown>> => JSON.parse(fs.readFileSync(path.join(ROOT, file), 'utf8'));

test('the catalogues are found (tool-runner, plugin-ai, llm-base)', () => {
  expect(files.length).toBeGreaterThanOrEqual(8);
});

test.each(files)('%s: every record has en and zh, a hint in both or neither, and nothing else', (file) => {
  const problems: string[] = [];
  const records = read(file);
  for (const [key, record] of Object.entries(records)) {
    for (const field of Object.keys(record)) if (!FIELDS.has(field)) problems.push(`${key}: unknown field ${field}`);
    for (const field of ['en', 'zh'])
      if (typeof record[field] !== 'string' || (record[field] as string).trim() === '') problems.push(`${key}: no ${field}`);
    if ((record.hintEn === undefined) !== (record.hintZh === undefined)) problems.push(`${key}: a hint in one language only`);
  }
  const texts = records as Record<string, { en: string; zh: string; hintEn?: string; hintZh?: string }>;
  const hints = Object.fromEntries(
    Object.entries(texts)
      .filter(([, r]) => r.hintEn !== undefined)
      .map(([k, r]) => [k, { en: r.hintEn!, zh: r.hintZh! }]),
  );
  problems.push(...catalogueProblems(file, tablesFromRecords(texts)), ...catalogueProblems(`${file} hints`, tablesFromRecords(hints)));
  expect(problems).toEqual([]);
});

test.each(files)('%s is built into lib/ as it is', (file) => {
  const built = file.replace(`${path.sep}src${path.sep}`, `${path.sep}lib${path.sep}`);
  expect(read(built)).toEqual(read(file));
});

test('tool-runner fills {config} (the policy file) into its records as the catalogue loads', () => {
  expect(JSON.stringify(read(path.join('packages', 'tool-runner', 'src', 'messages', 'runner.json')))).toContain('{config}');
  const left = Object.entries(MESSAGES).filter(([, m]) => [m.en, m.zh, m.hintEn, m.hintZh].some((text) => text?.includes('{config}')));
  expect(left.map(([id]) => id)).toEqual([]);
  expect(MESSAGES['program.unknown'].hintEn).toBe(
    'To allow it, add "{p}" to allowedPrograms in ~/.slothtool/plugin-configs/ai.json (it will then ask before each run)',
  );
});
