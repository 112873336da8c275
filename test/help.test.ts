import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { OPTIONS as AI_OPTIONS } from '../packages/plugin-ai/src/cli/args';
import { OPTIONS as LLM_BASE_OPTIONS } from '../packages/plugin-llm-base/src/cli-args';
import { COMMAND_OPTIONS } from '../packages/slothtool/src/cli';

// `--help` of each CLI, in both languages, names every option its parser knows (long and short
// spelling), shows examples, and says how to switch the language.
const ROOT = path.join(__dirname, '..');
const home = fs.mkdtempSync(path.join(os.tmpdir(), 'help-'));
afterAll(() => fs.rmSync(home, { recursive: true, force: true }));

function help(bin: string, lang: 'zh' | 'en'): string {
  const r = spawnSync(process.execPath, [path.join(ROOT, bin), '--help'], {
    env: {
      ...process.env,
      HOME: home,
      SLOTHTOOL_HOME: path.join(home, '.slothtool'),
      LANG: lang === 'zh' ? 'zh_CN.UTF-8' : 'en_US.UTF-8',
      LC_ALL: '',
      LC_MESSAGES: '',
    },
    encoding: 'utf8',
  });
  expect(r.status).toBe(0);
  return r.stdout;
}

type Options = Record<string, { type: string; short?: string }>;
const spellings = (options: Options): string[] =>
  Object.entries(options).flatMap(([name, o]) => [`--${name}`, ...(o.short ? [`-${o.short}`] : [])]);

const CLIS: Array<[string, string, string[]]> = [
  ['ai', 'packages/plugin-ai/bin/ai.js', spellings(AI_OPTIONS as Options)],
  ['llm-base', 'packages/plugin-llm-base/bin/llm-base.js', spellings(LLM_BASE_OPTIONS as Options)],
  [
    'slothtool',
    'packages/slothtool/bin/slothtool.js',
    [...new Set(Object.values(COMMAND_OPTIONS).flatMap((o) => spellings(o as Options))), '--help', '-h', '--version', '-v'],
  ],
];

describe.each(CLIS)('%s --help', (_name, bin, options) => {
  test.each(['zh', 'en'] as const)('in %s lists every option, examples and the language switch', (lang) => {
    const text = help(bin, lang);
    const missing = options.filter((o) => !new RegExp(`(^|[\\s,/\\[])${o.replace(/[-]/g, '\\-')}(?![\\w-])`, 'm').test(text));
    expect(missing).toEqual([]);
    expect(text).toContain('slothtool config language');
    expect(text).toMatch(lang === 'zh' ? /示例/ : /Examples/);
  });
});
