import type { Lang } from '../i18n';
import { defineMessages } from '@holic512/shared/lib/messages';

/** Every user-facing string of the guided setup, in zh and en. */
const en = {
  choiceHint: '↑/↓ to move, Enter to choose',
  intro: 'No model is configured yet. A short setup connects ai to a model server (Ctrl-C cancels, nothing is saved until the end).',
  noLlmBase: 'ai talks to models through the llm-base plugin, which is not installed{detail}.',
  brokenDetail: ' (the copy registered at {path} is missing or broken)',
  offerInstall: 'Install it now? (runs: {command})',
  installing: 'Running: {command}',
  installFailed: 'The install did not finish ({detail}). Run it yourself, then start slothtool ai -i again: {command}',
  installedButMissing: 'The install finished, but llm-base is still not usable: {detail}',
  installed: 'llm-base is installed.',
  probing: 'Looking for local model servers: {targets}…',
  probeFound: 'Found: {list}.',
  probeNone: 'No local model server answered.',
  probeNoneHint:
    'To use a local model, start a server (ollama serve · lms server start · llama-server -m <model.gguf> --port 8080 · vllm serve <model>) and choose "Look again", or pick a hosted provider.',
  chooseServer: 'Which model server should ai use?',
  choiceLocal: '{label} at {url} (local, {models})',
  choiceLocalModels: '{n, plural, one {# model} other {# models}}',
  choiceLocalNoModels: 'no model list',
  choiceHosted: '{label} (hosted, needs an API key)',
  choiceHostedEnvSet: '{label} (hosted, key found in ${env})',
  choiceOther: 'Another OpenAI-compatible server (enter its URL)',
  choiceRescan: 'Look again for local servers',
  choiceCancel: 'Cancel',
  askUrl: 'Base URL of the server (e.g. http://127.0.0.1:8080/v1)',
  badUrl: 'Enter an http:// or https:// URL',
  keyHow: 'How should ai get the {label} API key?',
  keyUseEnv: 'From the environment variable {env} (set)',
  keyUseEnvUnset: 'From the environment variable {env} (not set in this shell)',
  keyOtherEnv: 'From another environment variable',
  keyPaste: 'Paste the key (hidden; stored in llm-base.json, readable only by you)',
  keyNone: 'No key (the server does not need one)',
  askEnvName: 'Name of the environment variable that holds the key',
  badEnvName: 'Letters, digits and _ only, not starting with a digit (e.g. DEEPSEEK_API_KEY)',
  envUnsetWarn: '${env} is not set in this shell; the check below will fail until you set it (export {env}=...).',
  askKey: 'API key (input is hidden)',
  keyEmpty: 'The key is empty',
  fetchingModels: 'Asking {url} for its models…',
  modelsNone: 'The server did not list its models ({detail}); type the names.',
  chooseLow: 'Model for everyday turns (low)',
  chooseHigh: 'Model for hard turns (high)',
  askLow: 'Model for everyday turns (low)',
  askHigh: 'Model for hard turns (high)',
  modelEmpty: 'Enter a model name',
  checking: 'Checking the new profile "{name}" with slothtool llm-base doctor…',
  checkOk: '  ✓ {id}: {message}',
  checkFail: '  ✗ {id}: {message}',
  checkSkip: '  - {id}: {message}',
  checkFix: '      → {fix}',
  verdictOk: 'The profile works.',
  verdictFail: 'The profile does not work yet.',
  noDoctor: 'This llm-base has no doctor; checking with one model call instead.',
  pingOk: 'The model answered.',
  transportProbing: 'Finding out what "{name}" can do best (native tool calls, JSON schema): slothtool llm-base probe…',
  transportProbed: 'Recorded: its turns use {transport}.',
  transportProbeFailed: 'The probe did not finish ({message}); turns use the JSON protocol. Run slothtool llm-base probe later.',
  pingFail: 'The model call failed ({code}): {message}',
  pingNotJson: 'the model did not answer with a JSON object',
  afterFail: 'What now?',
  afterRetry: 'Change the settings and try again',
  afterSaveAnyway: 'Save it anyway (fix it later with: slothtool llm-base doctor {name})',
  afterCancel: 'Cancel (save nothing)',
  saved: 'Saved profile "{name}" as the default in {file}.',
  savedUnverified: 'Saved profile "{name}" as the default in {file}, unverified. Check it later: slothtool llm-base doctor {name}',
  saveFailed: 'llm-base could not save the profile: {message}',
  cancelled: 'Setup cancelled; nothing was saved. Run slothtool ai -i again to restart it, or: slothtool llm-base config create --preset <name>',
  configBroken: 'The llm-base configuration cannot be read: {message}',
  nonTtyNoLlmBase: `ai needs the llm-base plugin, which is not installed{detail}, and there is no terminal to set it up here.
Fix it with:
  slothtool install @holic512/plugin-llm-base
  slothtool ai -i            (a guided setup finds a local model server or takes a hosted key)`,
  nonTtyNoProfile: `No llm-base profile is configured, and there is no terminal to set one up here.
Fix it with one of:
  slothtool ai -i                                        (guided setup)
  slothtool llm-base config create --preset ollama       (a local model server; also lmstudio, vllm, llamacpp)
  export DEEPSEEK_API_KEY=sk-...
  slothtool llm-base config create --preset deepseek     (a hosted key; also qwen, glm, kimi, openai)
  slothtool llm-base doctor                              (check it)`,
  // issue #36: a newcomer's first errors
  serverUnreachable: 'Nothing answers at {url} ({detail}): the server is not running, or the address is wrong. Start it, or type the address again.',
  unreachableRetype: 'Type the address again',
  unreachableGoOn: 'Go on anyway (type the model names)',
} as const;

export type SetupKey = keyof typeof en;

const zh: Record<SetupKey, string> = {
  choiceHint: '↑/↓ 选择,回车确认',
  intro: '尚未配置模型。接下来用一分钟把 ai 连接到一个模型服务(Ctrl-C 取消,结束前不会保存任何内容)。',
  noLlmBase: 'ai 通过 llm-base 插件调用模型,但它尚未安装{detail}。',
  brokenDetail: '(登记在 {path} 的副本不存在或已损坏)',
  offerInstall: '现在安装吗?(将运行: {command})',
  installing: '正在运行: {command}',
  installFailed: '安装未完成({detail})。请自行运行以下命令,然后重新启动 slothtool ai -i: {command}',
  installedButMissing: '安装已结束,但 llm-base 仍不可用: {detail}',
  installed: 'llm-base 已安装。',
  probing: '正在查找本机模型服务: {targets}…',
  probeFound: '找到: {list}。',
  probeNone: '没有本机模型服务响应。',
  probeNoneHint:
    '如需使用本机模型,请先启动服务(ollama serve · lms server start · llama-server -m <模型.gguf> --port 8080 · vllm serve <模型>),然后选择"重新查找",或选择一个云端服务。',
  chooseServer: 'ai 使用哪个模型服务?',
  choiceLocal: '{label},地址 {url}(本机,{models})',
  choiceLocalModels: '{n} 个模型',
  choiceLocalNoModels: '无模型列表',
  choiceHosted: '{label}(云端,需要 API key)',
  choiceHostedEnvSet: '{label}(云端,已在 ${env} 中找到 key)',
  choiceOther: '其他 OpenAI 兼容服务(输入地址)',
  choiceRescan: '重新查找本机服务',
  choiceCancel: '取消',
  askUrl: '服务的 Base URL(例如 http://127.0.0.1:8080/v1)',
  badUrl: '请输入 http:// 或 https:// 开头的地址',
  keyHow: 'ai 如何获取 {label} 的 API key?',
  keyUseEnv: '从环境变量 {env} 读取(已设置)',
  keyUseEnvUnset: '从环境变量 {env} 读取(当前 shell 中未设置)',
  keyOtherEnv: '从其他环境变量读取',
  keyPaste: '直接粘贴 key(输入不显示;保存在 llm-base.json 中,仅你可读)',
  keyNone: '不需要 key',
  askEnvName: '保存 key 的环境变量名',
  badEnvName: '只能包含字母、数字和 _,且不能以数字开头(例如 DEEPSEEK_API_KEY)',
  envUnsetWarn: '当前 shell 中未设置 ${env};在设置之前下面的检查会失败(export {env}=...)。',
  askKey: 'API key(输入不显示)',
  keyEmpty: 'key 为空',
  fetchingModels: '正在向 {url} 查询模型列表…',
  modelsNone: '服务没有列出模型({detail});请输入模型名。',
  chooseLow: '日常对话使用的模型(low)',
  chooseHigh: '困难任务使用的模型(high)',
  askLow: '日常对话使用的模型(low)',
  askHigh: '困难任务使用的模型(high)',
  modelEmpty: '请输入模型名',
  checking: '正在用 slothtool llm-base doctor 检查新配置档 "{name}"…',
  checkOk: '  ✓ {id}: {message}',
  checkFail: '  ✗ {id}: {message}',
  checkSkip: '  - {id}: {message}',
  checkFix: '      → {fix}',
  verdictOk: '配置档可用。',
  verdictFail: '配置档暂时不可用。',
  noDoctor: '此版本的 llm-base 没有 doctor;改为发起一次模型调用来检查。',
  pingOk: '模型已响应。',
  transportProbing: '正在测试 "{name}" 最适合的方式(原生工具调用、JSON schema):slothtool llm-base probe…',
  transportProbed: '已记录: 对话将使用 {transport}。',
  transportProbeFailed: '探测未完成({message});对话使用 JSON 协议。稍后可运行 slothtool llm-base probe。',
  pingFail: '模型调用失败({code}): {message}',
  pingNotJson: '模型没有以 JSON 对象作答',
  afterFail: '接下来怎么做?',
  afterRetry: '修改设置后重试',
  afterSaveAnyway: '仍然保存(之后可用 slothtool llm-base doctor {name} 检查)',
  afterCancel: '取消(不保存)',
  saved: '已将配置档 "{name}" 保存为默认,位于 {file}。',
  savedUnverified: '已将未通过检查的配置档 "{name}" 保存为默认,位于 {file}。之后可检查: slothtool llm-base doctor {name}',
  saveFailed: 'llm-base 无法保存配置档: {message}',
  cancelled: '已取消设置,未保存任何内容。再次运行 slothtool ai -i 可重新开始,或运行: slothtool llm-base config create --preset <名称>',
  configBroken: '无法读取 llm-base 配置: {message}',
  nonTtyNoLlmBase: `ai 需要 llm-base 插件,但它尚未安装{detail},且当前没有终端可以进行设置。
请运行:
  slothtool install @holic512/plugin-llm-base
  slothtool ai -i            (引导式设置:查找本机模型服务,或填写云端 API key)`,
  nonTtyNoProfile: `尚未配置 llm-base 配置档,且当前没有终端可以进行设置。
任选其一:
  slothtool ai -i                                        (引导式设置)
  slothtool llm-base config create --preset ollama       (本机模型服务;也可用 lmstudio、vllm、llamacpp)
  export DEEPSEEK_API_KEY=sk-...
  slothtool llm-base config create --preset deepseek     (云端 key;也可用 qwen、glm、kimi、openai)
  slothtool llm-base doctor                              (检查配置)`,
  // issue #36: a newcomer's first errors
  serverUnreachable: '{url} 没有应答({detail}):服务没有运行，或地址不对。请启动服务，或重新输入地址。',
  unreachableRetype: '重新输入地址',
  unreachableGoOn: '仍然继续(输入模型名)',
};

const catalogue = defineMessages({ en, zh });

/** Look up a setup message and fill `{name}` placeholders. */
export const st: (lang: Lang, key: SetupKey, vars?: Record<string, string | number>) => string = catalogue.t;

/** Both tables, for the completeness test. */
export const SETUP_TABLES: Record<Lang, Record<SetupKey, string>> = catalogue.tables;
