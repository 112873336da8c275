import { spawnSync } from 'child_process';
import * as path from 'path';
import { createTempHome } from '@holic512/testkit';

// Every hint that names a command names one a user can type: `slothtool llm-base doctor`, not
// `llm-base doctor` (not on PATH), and the sub-command exists in that CLI's --help.
const root = path.resolve(__dirname, '..');
const catalogues = [
  'packages/plugin-llm-base/lib/i18n.js',
  'packages/plugin-ai/lib/i18n.js',
  'packages/tool-runner/lib/i18n.js',
  'packages/slothtool/lib/i18n.js',
];

function strings(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value);
  else if (value && typeof value === 'object') for (const v of Object.values(value)) strings(v, out);
  return out;
}
// plugin-ai's catalogues are read through its one lookup's tables (its module exports functions).
const aiTables = (require(path.join(root, 'packages/plugin-ai/lib/i18n.js')) as { messageTables(): unknown }).messageTables();
const texts = [...catalogues.flatMap((file) => strings(require(path.join(root, file)))), ...strings(aiTables)];

test('no message names llm-base as if it were on PATH', () => {
  const bare = texts.filter((t) => /(?<!slothtool )(?<![\w/.-])llm-base (config|doctor|chat|raw)\b/.test(t));
  expect(bare).toEqual([]);
});

test('every `slothtool llm-base <sub>` a message names is a sub-command of llm-base', async () => {
  // In a home of its own: the bin keeps its code cache under the SlothTool home it is given.
  const temp = await createTempHome({ language: 'en' });
  let help: string;
  try {
    help = spawnSync(process.execPath, [path.join(root, 'packages/plugin-llm-base/bin/llm-base.js'), '--help'], {
      encoding: 'utf8',
      env: { ...temp.env, LC_ALL: 'en_US.UTF-8' },
    }).stdout;
  } finally {
    await temp.cleanup();
  }
  const subs = new Set<string>();
  for (const t of texts)
    for (const m of t.matchAll(/slothtool llm-base (\w[\w-]*)(?: (\w[\w-]*))?/g))
      subs.add(m[1] === 'config' && m[2] ? `config ${m[2]}` : m[1]);
  expect(subs.size).toBeGreaterThan(3);
  for (const sub of subs) {
    const [first, second] = sub.split(' ');
    const mentioned = new RegExp(`slothtool llm-base ${first}\\b${second ? `.*\\b${second}\\b` : ''}`).test(help);
    expect({ sub, mentioned }).toEqual({ sub, mentioned: true });
  }
});
