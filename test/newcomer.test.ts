/**
 * A newcomer's first hour (issue #36), asserted on the text a user sees, in English and Chinese:
 * a fresh home with this checkout's host and plugins registered (as `npm run setup` does), every
 * command run through the host as the README writes it (`slothtool …`). The Quick start itself,
 * from the local registry, is in install-path.test.ts (which also meets the Ollama preset with
 * no server). Servers: the testkit's scripted ones on free ports; "no server" is a port just
 * closed; OLLAMA_HOST points the Ollama preset there.
 */
import { closedPort, runProcess, useAiFixture, type RunResult } from '@holic512/testkit';
import { promises as fs } from 'fs';
import * as path from 'path';

const ROOT = path.join(__dirname, '..');
const HOST = path.join(ROOT, 'packages/slothtool/bin/slothtool.js');
const AI_BIN = path.join(ROOT, 'packages/plugin-ai/bin/ai.js');

/** A port just closed: "no server there". */
let closed: number;
// One home for the file: its profile `local` on a server with one model, and `badport`, whose
// server is gone; llm-base and ai registered (the host runs them).
const fx = useAiFixture(async () => {
  closed = await closedPort();
  return {
    registerAi: true,
    server: { models: ['one-model'] },
    profile: { api_key: '', low_model: 'one-model', high_model: 'one-model' },
    profiles: { badport: { base_url: `http://127.0.0.1:${closed}/v1`, api_key: '' } },
  };
}, 'all');

/** Run a program without blocking (the scripted model answers from this process); stdin closed. */
const exec = (program: string, args: string[], env: NodeJS.ProcessEnv = fx.env): Promise<RunResult> =>
  runProcess(program, args, { cwd: fx.cwd, env: { ...env, LANG: 'C', LC_ALL: '', NO_COLOR: '1' } });

/** `slothtool …` as the README writes it: the checkout's host, which runs the registered plugins. */
const slothtool = (...args: string[]) => exec(process.execPath, [HOST, ...args]);
const language = (lang: 'en' | 'zh') => fx.temp.writeJson('settings.json', { language: lang });

afterEach(() => language('en'));

describe('the README commands', () => {
  test('slothtool config language zh|en chooses the language, said in the language chosen', async () => {
    expect(await slothtool('config', 'language', 'zh')).toMatchObject({ code: 0 });
    expect((await slothtool('config')).stdout).toMatch(/zh/);
    const en = await slothtool('config', 'language', 'en');
    expect(en.code).toBe(0);
    expect(en.stdout).not.toMatch(/[\u4e00-\u9fff]/);
  });

  test('slothtool llm-base --help in English has no Chinese left (its chat example included)', async () => {
    const r = await slothtool('llm-base', '--help');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('slothtool llm-base chat "describe yourself in JSON" --mode low --profile ds');
    expect(r.stdout).not.toMatch(/[\u4e00-\u9fff]/);
    await language('zh');
    expect((await slothtool('llm-base', '--help')).stdout).toContain('slothtool llm-base chat "用 JSON 介绍一下你自己"');
  });

  test('slothtool ai --help: usage lines as typed through the host, and --permission-mode with the --mode alias noted', async () => {
    const r = await slothtool('ai', '--help');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^ {2}slothtool ai -p "<prompt>" +run one turn/m);
    expect(r.stdout).not.toMatch(/^ {2}ai /m);
    expect(r.stdout).toContain('--permission-mode plan|default|auto-edit|yolo');
    expect(r.stdout).toContain('--mode plan\n                            and the other permission modes still work as --permission-mode');
  });

  test('slothtool ai -p "hello" answers', async () => {
    fx.server.enqueue({ json: { type: 'chat', message: 'Hello, newcomer.' } });
    const r = await slothtool('ai', '-p', 'hello');
    expect(r).toMatchObject({ code: 0, stdout: 'Hello, newcomer.\n' });
  });
});

describe('1. a model server that is not there: refused, not "cut", with the fix', () => {
  const texts = {
    en: {
      start: (hint: string) => `Start it: ${hint}; or if the address is wrong, set it`,
      generic: 'Start the model server, or if the address is wrong, set it',
      line: (url: string, name: string, start: string) =>
        `The model call failed (NETWORK_ERROR): Cannot connect to ${url} (ECONNREFUSED): nothing is listening there. ${start}: slothtool llm-base config update ${name} --base-url <url>. Check with: slothtool llm-base doctor ${name}\n`,
    },
    zh: {
      start: (hint: string) => `请启动它：${hint}；如果地址不对，改正它`,
      generic: '请启动模型服务；如果地址不对，改正它',
      line: (url: string, name: string, start: string) =>
        `模型调用失败(NETWORK_ERROR): 无法连接 ${url}（ECONNREFUSED）：那里没有服务在监听。${start}：slothtool llm-base config update ${name} --base-url <地址>。检查：slothtool llm-base doctor ${name}\n`,
    },
  };
  test.each(['en', 'zh'] as const)(
    '%s: the Ollama preset (native API) names ollama serve; an OpenAI-compatible profile says the same otherwise',
    async (lang) => {
      await language(lang);
      const text = texts[lang];
      const preset = await exec(process.execPath, [HOST, 'llm-base', 'config', 'create', `ollama-${lang}`, '--preset', 'ollama'], {
        ...fx.env,
        OLLAMA_HOST: `127.0.0.1:${closed}`,
      });
      expect(preset.code).toBe(0);
      const url = `http://127.0.0.1:${closed}/v1`;
      const viaOllama = await slothtool('ai', '-p', 'hello', '--profile', `ollama-${lang}`);
      expect(viaOllama).toEqual({ code: 1, stdout: '', stderr: text.line(url, `ollama-${lang}`, text.start('ollama serve')) });
      // 4. the profile named on the command line is the one the hint names
      const viaOpenAi = await slothtool('ai', '-p', 'hi', '--profile', 'badport');
      expect(viaOpenAi).toEqual({ code: 1, stdout: '', stderr: text.line(url, 'badport', text.generic) });
    },
  );
});

describe('2. a mistyped option: the same usage message and exit 2 in every CLI', () => {
  test.each([
    ['en', 'Invalid usage: unknown option --base-ur. Did you mean --base-url? Run `slothtool llm-base --help` for the options.\n'],
    ['zh', '用法错误：未知选项 --base-ur。是不是想输入 --base-url？运行 `slothtool llm-base --help` 查看选项。\n'],
  ] as const)('%s: slothtool llm-base config create x --base-ur http://a', async (lang, expected) => {
    await language(lang);
    expect(await slothtool('llm-base', 'config', 'create', 'x', '--base-ur', 'http://a')).toEqual({
      code: 2,
      stdout: '',
      stderr: expected,
    });
  });

  test('slothtool ai and slothtool itself read the same way', async () => {
    expect(await slothtool('ai', '-p', 'hi', '--profle', 'local')).toEqual({
      code: 2,
      stdout: '',
      stderr: 'Invalid usage: unknown option --profle. Did you mean --profile? Run `slothtool ai --help` for the options.\n',
    });
    expect(await slothtool('list', '--jsn')).toEqual({
      code: 2,
      stdout: '',
      stderr: 'Invalid usage: unknown option "--jsn". Did you mean --json? Run `slothtool --help` for the options.\n',
    });
    await language('zh');
    expect((await slothtool('ai', '--profle', 'local')).stderr).toBe(
      '用法错误：未知选项 --profle。是不是想输入 --profile？运行 `slothtool ai --help` 查看选项。\n',
    );
  });

  test('a mistyped command or plugin name: the one probably meant', async () => {
    const r = await slothtool('instal', '@holic512/plugin-ai');
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      'Plugin "instal" is not installed.\nSee installed plugins: slothtool list\nInstall: slothtool install <package>\nDid you mean slothtool install?\n',
    );
    expect((await slothtool('llm-bse', 'doctor')).stderr).toMatch(/\nDid you mean slothtool llm-base\?\n$/);
    await language('zh');
    expect((await slothtool('instal', 'x')).stderr).toMatch(/\n是不是想输入 slothtool install？\n$/);
  });
});

describe('4. doctor for the profile named, with the address as a possible cause', () => {
  test.each([
    [
      'en',
      'start the local server (ollama serve / lms server start / vllm serve / llama-server), or if the address is wrong: slothtool llm-base config update badport --base-url <url>',
    ],
    [
      'zh',
      '启动本地服务（ollama serve / lms server start / vllm serve / llama-server）；如果地址不对：slothtool llm-base config update badport --base-url <地址>',
    ],
  ] as const)('%s: slothtool llm-base doctor badport', async (lang, fix) => {
    await language(lang);
    const r = await slothtool('llm-base', 'doctor', 'badport');
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(`"badport"`);
    expect(r.stdout).toContain(`http://127.0.0.1:${closed}/v1`);
    expect(r.stdout).toContain(`      → ${fix}\n`);
  });
});

describe('5. commands named as the user types them', () => {
  test('through the host: slothtool ai; started on its own by its bare name: ai', async () => {
    expect((await slothtool('ai', 'risk')).stderr).toBe('usage: slothtool ai risk [--json] -- <program> [args...]\n');
    // `npm install -g @holic512/plugin-ai` links bin/ai.js as `ai` on PATH
    const bin = path.join(fx.temp.home, 'bin');
    await fs.mkdir(bin, { recursive: true });
    await fs.symlink(AI_BIN, path.join(bin, 'ai')).catch(() => undefined);
    const direct = await exec(path.join(bin, 'ai'), ['risk'], {
      ...fx.env,
      PATH: `${path.dirname(process.execPath)}${path.delimiter}${process.env.PATH ?? ''}`,
    });
    expect(direct.stderr).toBe('usage: ai risk [--json] -- <program> [args...]\n');
  });
});

describe('6. a corrupt llm-base.json is a bad config, said before the first message', () => {
  const file = () => path.join(fx.temp.slothtoolHome, 'plugin-configs', 'llm-base.json');
  let saved: string;
  beforeEach(async () => {
    saved = await fs.readFile(file(), 'utf8');
    await fs.writeFile(file(), '{"default_profile": ');
  });
  afterEach(() => fs.writeFile(file(), saved));

  test.each([
    [
      'en',
      (f: string) =>
        `Config file ${f} is invalid: Unexpected end of JSON input. Fix the file (or delete it and run slothtool llm-base config create again)\n`,
    ],
    [
      'zh',
      (f: string) =>
        `配置文件 ${f} 无效：Unexpected end of JSON input。请修正该文件（或删除后重新运行 slothtool llm-base config create）\n`,
    ],
  ] as const)('%s: ai -p exits 2 (as its help says) before any model call; ai -i shows it when it opens', async (lang, expected) => {
    await language(lang);
    const before = fx.server.requests.length;
    expect(await slothtool('ai', '-p', 'hi')).toEqual({ code: 2, stdout: '', stderr: expected(file()) });
    const interactive = await slothtool('ai', '-i');
    expect(interactive.stdout + interactive.stderr).toContain(expected(file()).trim());
    expect(fx.server.requests.length).toBe(before);
  });
});

describe('7. words a newcomer reads', () => {
  test('one model is "model present", not "models present"', async () => {
    fx.server.setHandler(() => ({ json: { ok: true } }));
    try {
      const en = await slothtool('llm-base', 'doctor', 'local');
      expect(en.stdout).toContain('✓ models    model present: one-model\n');
      await language('zh');
      expect((await slothtool('llm-base', 'doctor', 'local')).stdout).toContain('✓ models    模型存在：one-model（1 个）\n');
    } finally {
      fx.server.setHandler(null);
    }
  });
});
