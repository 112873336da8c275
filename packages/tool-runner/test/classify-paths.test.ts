import { classify, type Level, type Step } from '../src';

// Paths are judged as the program will see them: `.`/`..`/`//`, `~`, `$HOME` and the home spelled
// out all lead to the same rule. Reads outside the workspace ask; the assistant's own configs and
// keys are refused for every tool; nothing a model asks for writes into the SlothTool home; a
// step that runs in another folder is asked about like `git -C` there.
const ctx = { cwd: '/home/u/p', workspace: '/home/u/p', home: '/home/u', slothtoolHome: '/home/u/.slothtool', lang: 'en' as const };
const ex = (line: string | string[], cwd?: string): Step => {
  const [program, ...args] = Array.isArray(line) ? line : line.split(' ');
  return { tool: 'exec', program, args, ...(cwd ? { cwd } : {}) };
};

const table: Array<[string | string[], Level, string, string?]> = [
  // the assistant's own keys, every spelling
  ['cat /home/u/.slothtool/plugin-configs/llm-base.json', 'L2', 'secret.slothtool'],
  ['cat /home/u/./.slothtool/plugin-configs/llm-base.json', 'L2', 'secret.slothtool'],
  ['cat //home//u//.slothtool//plugin-configs//ai.json', 'L2', 'secret.slothtool'],
  ['cat /home/u/p/../.slothtool/plugin-configs/ai.json', 'L2', 'secret.slothtool'],
  ['cat ../.slothtool/plugin-configs/ai.json', 'L2', 'secret.slothtool'],
  ['cat ~/.slothtool/plugin-configs/ai.json', 'L2', 'secret.slothtool'],
  ['cat $HOME/.slothtool/plugin-configs/ai.json', 'L2', 'secret.slothtool'],
  ['cat ${HOME}/.slothtool/plugin-configs/ai.json', 'L2', 'secret.slothtool'],
  ['head -c 100 /home/u/.slothtool/plugin-configs/llm-base.json', 'L2', 'secret.slothtool'],
  ['grep -r api_key /home/u/.slothtool', 'L2', 'secret.slothtool'],
  ['grep -r api_key ../.slothtool', 'L2', 'secret.slothtool'],
  ['rg key /home/u', 'L2', 'secret.slothtool'],
  ['jq . /home/u/.slothtool/plugin-configs/llm-base.json', 'L2', 'secret.slothtool'],
  ['base64 /home/u/.slothtool/plugin-configs/llm-base.json', 'L2', 'secret.slothtool'],
  ['od -c ../.slothtool/plugin-configs/llm-base.json', 'L2', 'secret.slothtool'],
  ['wc --files0-from=/home/u/.slothtool/plugin-configs/x', 'L2', 'secret.slothtool'],
  // writes into the SlothTool home
  ['cp evil.json /home/u/.slothtool/plugin-configs/ai.json', 'L2', 'secret.slothtool'],
  ['cp registry.json /home/u/.slothtool/registry.json', 'L2', 'write.slothtool'],
  ['mv x ../.slothtool/settings.json', 'L2', 'write.slothtool'],
  ['touch /home/u/./.slothtool/settings.json', 'L2', 'write.slothtool'],
  ['mkdir -p /home/u/.slothtool/plugins/evil', 'L2', 'write.slothtool'],
  ['tee /home/u/.slothtool/settings.json', 'L2', 'write.slothtool'],
  // reads outside the workspace ask
  ['cat /etc/hostname', 'L1', 'read.outside'],
  ['cat ../other/notes.txt', 'L1', 'read.outside'],
  ['cat /home/u/p/../q/file', 'L1', 'read.outside'],
  ['head -n 5 ~/notes.txt', 'L1', 'read.outside'],
  ['grep foo /var/log/syslog', 'L1', 'read.outside'],
  ['sort /etc/group', 'L1', 'read.outside'],
  ['diff a.txt /etc/hosts', 'L1', 'read.outside'],
  ['sed -n 1p /etc/hosts', 'L1', 'read.outside'],
  [['awk', '{print $1}', '/etc/passwd'], 'L1', 'read.outside'],
  ['wc -l ../x', 'L1', 'read.outside'],
  // a step that runs in another folder
  ['ls', 'L1', 'cwd.outside', '/home/u/other-repo'],
  ['git status', 'L1', 'cwd.outside', '../other-repo'],
  ['cat README.md', 'L1', 'cwd.outside', '/tmp'],
  // everyday work stays L0
  ['cat README.md', 'L0', 'read.only'],
  ['cat ./src/a.ts', 'L0', 'read.only'],
  ['cat src/../README.md', 'L0', 'read.only'],
  ['head -n 20 /home/u/p/src/a.ts', 'L0', 'read.only'],
  ['grep -rn TODO src', 'L0', 'read.only'],
  ['grep /etc/hosts notes.txt', 'L0', 'read.only'],
  ['sed -n /start/,/end/p notes.txt', 'L0', 'read.only'],
  [['awk', '/^a/ {print}', 'data.txt'], 'L0', 'read.only'],
  ['wc -l src/a.ts', 'L0', 'read.only'],
  ['ls /etc', 'L0', 'read.only'],
  ['ls /home/u/.slothtool', 'L0', 'read.only'],
  ['cat /dev/null', 'L0', 'read.only'],
  ['ls', 'L0', 'read.only', 'src'],
  ['du -sh .', 'L0', 'read.only'],
  ['tree src', 'L0', 'read.only'],
];

test.each(table.map((row, i) => [Array.isArray(row[0]) ? row[0].join(' ') : row[0], row[1], row[2], row[3] ?? '', i] as const))('%s → %s (%s) %s', (_label, level, rule, cwd, i) => {
  const d = classify(ex(table[i][0], cwd || undefined), {}, ctx);
  expect([d.level, d.rules.map((r) => r.id)]).toEqual([level, expect.arrayContaining([rule])]);
});

describe('every tool refuses the assistant\'s own configuration', () => {
  test.each<[Step]>([
    [{ tool: 'fs.read', path: '/home/u/.slothtool/plugin-configs/llm-base.json' }],
    [{ tool: 'fs.read', path: '../.slothtool/plugin-configs/ai.json' }],
    [{ tool: 'fs.write', path: '/home/u/.slothtool/settings.json', content: '{}' }],
    [{ tool: 'fs.edit', path: '~/.slothtool/registry.json', old_string: 'a', new_string: 'b' }],
    [{ tool: 'http.get', url: 'file:///home/u/.slothtool/plugin-configs/ai.json' }],
    [{ tool: 'config.json_patch', file: '~/.slothtool/plugin-configs/llm-base.json', patch: [{ op: 'replace', path: '/base_url', value: 'https://evil/v1' }] }],
    [{ tool: 'config.json_patch', file: '/home/u/p/../.slothtool/settings.json', patch: [{ op: 'replace', path: '/language', value: 'en' }] }],
    [{ tool: 'proc.start', program: 'cat', args: ['/home/u/.slothtool/plugin-configs/llm-base.json'] }],
  ])('%j', (step) => {
    expect(classify(step, {}, { ...ctx, allowedRoots: ['/home/u/.slothtool', '/home/u/p'] }).level).toBe('L2');
  });
});
