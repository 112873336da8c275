import { closedPort, useAiFixture } from '@holic512/testkit';
import { spawn } from 'child_process';
import { promises as fs } from 'fs';
import * as path from 'path';

// A user whose language is Chinese sees Chinese: the output of real command lines, in a temp home
// with settings.json naming zh, holds no English words beyond an allow-list of names (programs,
// flags, paths, ids, protocol terms). The model's own words are Chinese here too, so anything
// English left is ours.
const ROOT = path.join(__dirname, '..');
const BIN = {
  slothtool: path.join(ROOT, 'packages/slothtool/bin/slothtool.js'),
  ai: path.join(ROOT, 'packages/plugin-ai/bin/ai.js'),
  'llm-base': path.join(ROOT, 'packages/plugin-llm-base/bin/llm-base.js'),
};

// Names that stay as they are in Chinese text: products, protocols, units, tool and rule words.
const ALLOWED = new Set(
  (
    'SlothTool slothtool ai llm base plugin plugins configs config JSON json API MCP npm node Node git Ollama ollama tokens token ' +
    'transport auto tools json_schema probe ' +
    'OpenAI openai DeepSeek deepseek qwen glm kimi lmstudio vllm llamacpp low high prompt response format stdin stdout stderr ' +
    'bubblewrap Seatbelt macOS Linux sandbox exec fs read edit write http get proc start status kill run patch json_patch ' +
    'help version interactive mode profile continue approve max steps risk mcp list add remove test zh en language ' +
    'install uninstall update purge yes keep verbose create delete set default show export presets chat raw doctor url key ' +
    'model models env VAR id ms tgz Ctrl Enter Esc Tab Shift Home SLOTHTOOL_HOME HOME PATH LANG sessions audit jsonl rm rf ' +
    'build Seatbelt preset timeout retries base low-model high-model json-mode max-retries api-key base-url allowedPrograms ' +
    'scope the cmd tool response_format false true null plan yolo auto-edit ' +
    'badport api_key reachable auth serve lms server ' + // a profile's name, doctor's check ids, the servers' start commands
    'text acp docs OpenTelemetry printf'
  ) // --input-format's value, docs/acp.md, the tracing standard, a shell command in an example
    .split(/\s+/),
);

function englishWords(text: string): string[] {
  const stripped = text
    .replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '') // colours
    .replace(/^\s*(\$ )?(slothtool|git|ai|llm-base)\b.*$/gm, ' ') // example command lines
    .replace(/https?:\/\/\S+/g, ' ')
    .replace(/(^|[\s(（:：=])[~.]?\/[^\s，。、)）]*/g, ' ') // paths
    .replace(/`[^`]*`/g, ' ') // code
    .replace(/"(\w+)":/g, ' ') // JSON keys
    .replace(/"[\x20-\x7e]*"/g, ' ') // quoted ASCII values
    .replace(/(^|[\s(（])--?[\w-]+/g, ' ') // flags
    .replace(/\b[\w-]+(\.[\w-]+)+\b/g, ' ') // ids and file names: delete.recursive, ai.json
    .replace(/\b\w+(-\w+)+\b/g, ' ') // hyphenated names: llm-base, plugin-configs
    .replace(/@[\w/.-]+/g, ' ') // package names
    .replace(/<[^>]*>/g, ' ') // placeholders in usage lines
    .replace(/\b[A-Z][A-Z0-9_]+\b/g, ' '); // codes and variables: PROVIDER_ERROR, API_KEY
  return [...stripped.matchAll(/[A-Za-z][A-Za-z_-]{2,}/g)].map((m) => m[0]).filter((w) => !ALLOWED.has(w) && !ALLOWED.has(w.toLowerCase()));
}

// One home for the file, in Chinese, with llm-base and ai registered (the host runs ai).
const fx = useAiFixture(
  async () => ({
    language: 'zh' as const,
    registerAi: true,
    profile: { low_model: 'test-low', high_model: 'test-high' },
    // a profile whose server is gone (a port bound, then released)
    profiles: { badport: { base_url: `http://127.0.0.1:${await closedPort()}/v1`, api_key: '' } },
  }),
  'all',
);

/** Run a CLI without blocking: the scripted model server answers from this process. */
function run(bin: keyof typeof BIN, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN[bin], ...args], {
      cwd: fx.cwd,
      env: { ...fx.env, LANG: 'en_US.UTF-8' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (out += c.toString('utf8')));
    child.on('error', reject);
    child.on('close', () => resolve(out));
  });
}

test.each<[string, keyof typeof BIN, string[]]>([
  ['slothtool --help', 'slothtool', ['--help']],
  ['slothtool list', 'slothtool', ['list']],
  ['slothtool with an unknown option', 'slothtool', ['--nope']],
  ['ai --help', 'ai', ['--help']],
  ['ai with a bad option', 'ai', ['--mode', 'max']],
  ['ai risk of a destructive command', 'ai', ['risk', '--', 'rm', '-rf', '/']],
  ['ai risk of a write', 'ai', ['risk', '--', 'sort', '-o', 'out.txt', 'a.txt']],
  ['llm-base --help', 'llm-base', ['--help']],
  ['llm-base with an unknown option', 'llm-base', ['--nope']],
  // a newcomer's first errors (issue #36)
  ['llm-base with a mistyped option', 'llm-base', ['config', 'create', 'x', '--base-ur', 'http://a']],
  ['ai with a mistyped option', 'ai', ['--profle', 'x']],
  ['ai on a profile whose server is gone', 'ai', ['-p', 'hi', '--profile', 'badport']],
  ['llm-base doctor of that profile', 'llm-base', ['doctor', 'badport']],
])('%s: Chinese when settings.json says zh (even with LANG=en_US)', async (_name, bin, args) => {
  const out = await run(bin, args);
  expect(out.trim().length).toBeGreaterThan(0);
  expect(/[\u4e00-\u9fff]/.test(out)).toBe(true);
  expect(englishWords(out)).toEqual([]);
});

test('a turn of ai -p with a step: the step, its reason and the end are Chinese', async () => {
  await fs.writeFile(path.join(fx.cwd, 'a.txt'), 'x\n');
  fx.server.enqueue(
    { json: { type: 'cmd', message: '先看看文件', data: { cwd: null, commands: [{ tool: 'exec', program: 'ls', args: [] }] } } },
    { json: { type: 'chat', message: '目录里有 a.txt。', data: null } },
  );
  const out = await run('ai', ['-p', '目录里有什么']);
  expect(out).toContain('目录里有 a.txt。');
  expect(out).toMatch(/ls/); // the step was shown
  expect(englishWords(out)).toEqual([]);
});

test('the check finds English', () => {
  expect(englishWords('已完成 the file was written')).toEqual(['file', 'was', 'written']);
});

test('no English sentence is left in a Chinese message table (issue #36: "已拒绝 — declined by the user")', async () => {
  const tables: Record<string, Record<string, string>> = {
    ai: (await import('../packages/plugin-ai/src/i18n')).messageTables().zh,
    'llm-base': (await import('../packages/plugin-llm-base/src/i18n')).MESSAGE_TABLES.zh,
    slothtool: (await import('../packages/slothtool/src/i18n')).MESSAGE_TABLES.zh,
    usage: (await import('../packages/shared/src/usage')).USAGE_TABLES.zh,
  };
  const left: string[] = [];
  for (const [name, table] of Object.entries(tables)) {
    for (const [key, text] of Object.entries(table)) {
      // commands, code, placeholders, addresses and flags are names, not sentences
      const prose = text
        .replace(/\{[^{}]*\}/g, ' ')
        .replace(/`[^`]*`/g, ' ')
        .replace(/https?:\S+/g, ' ')
        .replace(/\b(slothtool|npm|node|ollama|lms|vllm|llama-server|git|apt-get|export|bwrap)\b[^。，,；;：:()（）\n]*/g, ' ')
        .replace(/--?[a-z][\w-]*/g, ' ')
        .replace(/\/[a-z]+/g, ' ');
      for (const m of prose.matchAll(/\b[A-Za-z]{2,}(?: [A-Za-z]{2,}){2,}\b/g)) left.push(`${name} ${key}: ${m[0]}`);
    }
  }
  expect(left).toEqual([]);
});
