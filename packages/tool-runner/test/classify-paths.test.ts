import { classify, type Level, type Step } from '../src';
import { verdictRows, type VerdictGroup } from './verdict-table';

// Paths are judged as the program will see them: `.`/`..`/`//`, `~`, `$HOME` and the home spelled
// out all lead to the same rule. Reads outside the workspace ask; the assistant's own configs and
// keys are refused for every tool; nothing a model asks for writes into the SlothTool home; a
// step that runs in another folder is asked about like `git -C` there.
const ctx = { cwd: '/home/u/p', workspace: '/home/u/p', home: '/home/u', slothtoolHome: '/home/u/.slothtool', lang: 'en' as const };
const ex = (line: string | string[], cwd?: string): Step => {
  const [program, ...args] = Array.isArray(line) ? line : line.split(' ');
  return { tool: 'exec', program, args, ...(cwd ? { cwd } : {}) };
};

// Command lines by the verdict they must get: the level, and the rule among the reasons.
const verdicts: VerdictGroup[] = [
  // the assistant's own keys, every spelling
  [
    'L2',
    'secret.slothtool',
    [
      'cat /home/u/.slothtool/plugin-configs/llm-base.json',
      'cat /home/u/./.slothtool/plugin-configs/llm-base.json',
      'cat //home//u//.slothtool//plugin-configs//ai.json',
      'cat /home/u/p/../.slothtool/plugin-configs/ai.json',
      'cat ../.slothtool/plugin-configs/ai.json',
      'cat ~/.slothtool/plugin-configs/ai.json',
      'cat $HOME/.slothtool/plugin-configs/ai.json',
      'cat ${HOME}/.slothtool/plugin-configs/ai.json',
      'head -c 100 /home/u/.slothtool/plugin-configs/llm-base.json',
      'grep -r api_key /home/u/.slothtool',
      'grep -r api_key ../.slothtool',
      'rg key /home/u',
      'jq . /home/u/.slothtool/plugin-configs/llm-base.json',
      'base64 /home/u/.slothtool/plugin-configs/llm-base.json',
      'od -c ../.slothtool/plugin-configs/llm-base.json',
      'wc --files0-from=/home/u/.slothtool/plugin-configs/x',
    ],
  ],
  // writes into the SlothTool home
  ['L2', 'secret.slothtool', ['cp evil.json /home/u/.slothtool/plugin-configs/ai.json']],
  [
    'L2',
    'write.slothtool',
    [
      'cp registry.json /home/u/.slothtool/registry.json',
      'mv x ../.slothtool/settings.json',
      'touch /home/u/./.slothtool/settings.json',
      'mkdir -p /home/u/.slothtool/plugins/evil',
      'tee /home/u/.slothtool/settings.json',
    ],
  ],
  // reads outside the workspace ask
  [
    'L1',
    'read.outside',
    [
      'cat /etc/hostname',
      'cat ../other/notes.txt',
      'cat /home/u/p/../q/file',
      'head -n 5 ~/notes.txt',
      'grep foo /var/log/syslog',
      'sort /etc/group',
      'diff a.txt /etc/hosts',
      'sed -n 1p /etc/hosts',
      ['awk', '{print $1}', '/etc/passwd'],
      'wc -l ../x',
    ],
  ],
  // everyday work stays L0
  [
    'L0',
    'read.only',
    [
      'cat README.md',
      'cat ./src/a.ts',
      'cat src/../README.md',
      'head -n 20 /home/u/p/src/a.ts',
      'grep -rn TODO src',
      'grep /etc/hosts notes.txt',
      'sed -n /start/,/end/p notes.txt',
      ['awk', '/^a/ {print}', 'data.txt'],
      'wc -l src/a.ts',
      'ls /etc',
      'ls /home/u/.slothtool',
      'cat /dev/null',
      'du -sh .',
      'tree src',
    ],
  ],
];

// A step that runs in another folder (its cwd) is asked about like `git -C` there; one in a folder
// of the workspace is not.
const inFolder: Array<[string, Level, string, string]> = [
  ['ls', 'L1', 'cwd.outside', '/home/u/other-repo'],
  ['git status', 'L1', 'cwd.outside', '../other-repo'],
  ['cat README.md', 'L1', 'cwd.outside', '/tmp'],
  ['ls', 'L0', 'read.only', 'src'],
];

const rows = [
  ...verdictRows(verdicts).map(([label, level, rule, line]) => [label, level, rule, '', line] as const),
  ...inFolder.map(([line, level, rule, cwd]) => [line, level, rule, cwd, line] as const),
];
test.each(rows)('%s → %s (%s) %s', (_label, level, rule, cwd, line) => {
  const d = classify(ex(line, cwd || undefined), {}, ctx);
  expect([d.level, d.rules.map((r) => r.id)]).toEqual([level, expect.arrayContaining([rule])]);
});

describe("every tool refuses the assistant's own configuration", () => {
  test.each<[Step]>([
    [{ tool: 'fs.read', path: '/home/u/.slothtool/plugin-configs/llm-base.json' }],
    [{ tool: 'fs.read', path: '../.slothtool/plugin-configs/ai.json' }],
    [{ tool: 'fs.write', path: '/home/u/.slothtool/settings.json', content: '{}' }],
    [{ tool: 'fs.edit', path: '~/.slothtool/registry.json', old_string: 'a', new_string: 'b' }],
    [{ tool: 'http.get', url: 'file:///home/u/.slothtool/plugin-configs/ai.json' }],
    [
      {
        tool: 'config.json_patch',
        file: '~/.slothtool/plugin-configs/llm-base.json',
        patch: [{ op: 'replace', path: '/base_url', value: 'https://evil/v1' }],
      },
    ],
    [
      {
        tool: 'config.json_patch',
        file: '/home/u/p/../.slothtool/settings.json',
        patch: [{ op: 'replace', path: '/language', value: 'en' }],
      },
    ],
    [{ tool: 'proc.start', program: 'cat', args: ['/home/u/.slothtool/plugin-configs/llm-base.json'] }],
  ])('%j', (step) => {
    expect(classify(step, {}, { ...ctx, allowedRoots: ['/home/u/.slothtool', '/home/u/p'] }).level).toBe('L2');
  });
});
