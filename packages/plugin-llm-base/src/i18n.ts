import * as fs from 'fs';
import { settingsPath } from './paths';

export type Lang = 'zh' | 'en';

const zh = {
  // errors (module API messages)
  noProfile: '找不到 profile "{name}"。先创建一个：llm-base config create --preset <openai|deepseek|qwen|glm|kimi|ollama|lmstudio|vllm|llamacpp>',
  noDefaultProfile: '没有默认 profile。创建一个：llm-base config create --preset ollama，或用 llm-base config set-default <name> 指定',
  configInvalid: '配置文件 {file} 无效：{issues}。请修正该文件（或删除后重新运行 llm-base config create）',
  configUnreadable: '无法读取配置文件 {file}：{detail}',
  configLocked: '配置文件 {file} 正被另一个进程写入，请稍后重试',
  logInvalid: '调用日志 {file} 无效：{issues}',
  invalidMode: '无效的 mode "{mode}"，只允许 low 或 high',
  invalidProfileName: 'profile 名称必须是非空字符串',
  invalidProfile: 'profile "{name}" 的字段无效：{issues}',
  invalidPayload: 'raw 请求体必须是 JSON 对象',
  invalidMessages: 'messages 必须是 {role, content} 对象数组',
  envKeyMissing: 'profile "{name}" 的 api_key 指向环境变量 {env}，但它未设置。请 export {env}=<你的 key>',
  authError: 'API key 被拒绝（HTTP {status}）：{detail}。检查 profile "{name}" 的 api_key，或运行 llm-base doctor {name}',
  rateLimit: '请求被限流（HTTP 429），已按 Retry-After 重试仍失败：{detail}',
  timeout: '请求超时（{ms} ms）：{url}',
  connection: '无法连接 {url}：{detail}。服务是否在运行？运行 llm-base doctor 检查',
  streamCut: '连接在回复途中被关闭：{detail}',
  aborted: '请求已取消',
  providerStatus: '服务返回 HTTP {status}：{detail}',
  providerError: '服务错误：{detail}',
  // CLI
  title: 'llm-base — OpenAI 兼容的 LLM 基础插件',
  usage: '用法：',
  commands: '命令：',
  options: '选项：',
  examples: '示例：',
  helpText: '显示帮助',
  interactiveText: '交互式菜单',
  configCreated: '已创建 profile "{name}"',
  configUpdated: '已更新 profile "{name}"',
  configDeleted: '已删除 profile "{name}"',
  defaultSet: '默认 profile 已设为 "{name}"',
  unknownCommand: '未知命令 "{cmd}"。运行 llm-base --help 查看用法',
  unknownPreset: '未知预设 "{name}"。可用：{names}',
  missingArg: '缺少参数：{arg}',
  badArgs: '参数无效：{issues}',
  badJson: '无法解析 JSON 参数：{detail}',
  notInteractive: '需要交互式终端；请用参数给出字段（--base-url、--low-model …）或 --preset',
  presetsHeader: '可用预设：',
  needsKey: '需要 key',
  noKey: '无需 key',
  // prompts
  menuTitle: '选择操作',
  menuCreate: '创建 profile',
  menuUpdate: '更新 profile',
  menuDelete: '删除 profile',
  menuList: '列出 profile',
  menuSetDefault: '设置默认 profile',
  menuShow: '查看 profile',
  menuExport: '导出配置',
  menuDoctor: '诊断 profile',
  menuExit: '退出',
  choosePreset: '选择预设',
  customPreset: '自定义',
  enterProfileName: '输入 profile 名称',
  chooseProfile: '选择 profile',
  enterBaseUrl: '输入 base_url',
  enterApiKey: '输入 api_key（可写 env:变量名）',
  enterApiKeyKeep: '输入新的 api_key（回车保留当前的）',
  enterLowModel: '输入 low 模型',
  enterHighModel: '输入 high 模型',
  enterTimeout: '输入超时（毫秒）',
  confirmDelete: '确定删除 profile "{name}"？',
  // doctor
  doctorHeader: '诊断 profile "{name}"（{url}）',
  doctorOk: '全部通过，可以使用',
  doctorFailed: '有检查未通过',
  doctorSkipped: '跳过（前一项失败）',
  chkProfileOk: 'profile 存在且配置有效',
  chkKeyOk: 'api_key 已配置',
  chkKeyNone: '未设置 api_key（本地服务通常不需要）',
  fixKeyEnv: 'export {env}=<你的 key>',
  fixCreate: 'llm-base config create --preset ollama（或其他预设）',
  fixConfigFile: '修正 {file} 中的字段，或删除后重新创建',
  chkReachableOk: '服务可访问',
  chkReachableFail: '无法连接 {url}（{detail}）',
  fixStartLocal: '启动本地服务：{hint}',
  fixCheckUrl: '检查 base_url 和网络：llm-base config update {name} --base-url <url>',
  chkAuthOk: 'key 被接受',
  chkAuthFail: 'key 被拒绝（HTTP {status}）',
  fixAuth: '更新 key：llm-base config update {name} --api-key env:<变量名>',
  chkModelsOk: '模型存在：{models}',
  chkModelsMissing: '服务上没有模型：{missing}（可用：{available}）',
  chkModelsNoEndpoint: '服务不提供 /models，跳过模型检查',
  chkModelsAccepted: '模型未在 /models 中列出，但服务接受：{models}',
  fixPullModel: '下载模型：{hint}',
  fixChooseModel: '改用可用模型：llm-base config update {name} --low-model <id> --high-model <id>',
  chkJsonOk: '严格 JSON 往返成功（{model}）',
  chkJsonFallback: '模型没有返回 JSON 对象',
  chkJsonFail: '调用失败：{code} {detail}',
  fixJson: '换一个更强的 low 模型，或设置 --json-mode response_format',
};

const en: typeof zh = {
  noProfile: 'Profile "{name}" not found. Create one: llm-base config create --preset <openai|deepseek|qwen|glm|kimi|ollama|lmstudio|vllm|llamacpp>',
  noDefaultProfile: 'No default profile. Create one: llm-base config create --preset ollama, or choose one: llm-base config set-default <name>',
  configInvalid: 'Config file {file} is invalid: {issues}. Fix the file (or delete it and run llm-base config create again)',
  configUnreadable: 'Cannot read config file {file}: {detail}',
  configLocked: 'Config file {file} is being written by another process; try again',
  logInvalid: 'Call log {file} is invalid: {issues}',
  invalidMode: 'Invalid mode "{mode}", only low or high are allowed',
  invalidProfileName: 'A profile name must be a non-empty string',
  invalidProfile: 'Profile "{name}" has invalid fields: {issues}',
  invalidPayload: 'The raw payload must be a JSON object',
  invalidMessages: 'messages must be an array of {role, content} objects',
  envKeyMissing: 'Profile "{name}" takes its api_key from the environment variable {env}, which is not set. Run: export {env}=<your key>',
  authError: 'API key rejected (HTTP {status}): {detail}. Check the api_key of profile "{name}", or run llm-base doctor {name}',
  rateLimit: 'Rate limited (HTTP 429), still failing after retrying per Retry-After: {detail}',
  timeout: 'Request timed out after {ms} ms: {url}',
  connection: 'Cannot connect to {url}: {detail}. Is the server running? Run llm-base doctor to check',
  streamCut: 'The connection closed in the middle of the reply: {detail}',
  aborted: 'Request aborted',
  providerStatus: 'The server returned HTTP {status}: {detail}',
  providerError: 'Provider error: {detail}',
  title: 'llm-base — OpenAI-compatible LLM base plugin',
  usage: 'Usage:',
  commands: 'Commands:',
  options: 'Options:',
  examples: 'Examples:',
  helpText: 'show help',
  interactiveText: 'interactive menu',
  configCreated: 'Profile "{name}" created',
  configUpdated: 'Profile "{name}" updated',
  configDeleted: 'Profile "{name}" deleted',
  defaultSet: 'Default profile set to "{name}"',
  unknownCommand: 'Unknown command "{cmd}". Run llm-base --help for usage',
  unknownPreset: 'Unknown preset "{name}". Available: {names}',
  missingArg: 'Missing argument: {arg}',
  badArgs: 'Invalid arguments: {issues}',
  badJson: 'Cannot parse the JSON argument: {detail}',
  notInteractive: 'This needs an interactive terminal; give the fields as options (--base-url, --low-model …) or use --preset',
  presetsHeader: 'Presets:',
  needsKey: 'needs a key',
  noKey: 'no key needed',
  menuTitle: 'Choose an action',
  menuCreate: 'Create a profile',
  menuUpdate: 'Update a profile',
  menuDelete: 'Delete a profile',
  menuList: 'List profiles',
  menuSetDefault: 'Set the default profile',
  menuShow: 'Show a profile',
  menuExport: 'Export the config',
  menuDoctor: 'Diagnose a profile',
  menuExit: 'Exit',
  choosePreset: 'Choose a preset',
  customPreset: 'Custom',
  enterProfileName: 'Profile name',
  chooseProfile: 'Choose a profile',
  enterBaseUrl: 'base_url',
  enterApiKey: 'api_key (or env:VARIABLE)',
  enterApiKeyKeep: 'new api_key (Enter keeps the current one)',
  enterLowModel: 'low model',
  enterHighModel: 'high model',
  enterTimeout: 'timeout (ms)',
  confirmDelete: 'Delete profile "{name}"?',
  doctorHeader: 'Diagnosing profile "{name}" ({url})',
  doctorOk: 'All checks passed; ready to use',
  doctorFailed: 'Some checks failed',
  doctorSkipped: 'skipped (an earlier check failed)',
  chkProfileOk: 'profile exists and is valid',
  chkKeyOk: 'api_key is set',
  chkKeyNone: 'no api_key set (local servers usually need none)',
  fixKeyEnv: 'export {env}=<your key>',
  fixCreate: 'llm-base config create --preset ollama (or another preset)',
  fixConfigFile: 'fix the field in {file}, or delete the file and create the profile again',
  chkReachableOk: 'server is reachable',
  chkReachableFail: 'cannot reach {url} ({detail})',
  fixStartLocal: 'start the local server: {hint}',
  fixCheckUrl: 'check base_url and the network: llm-base config update {name} --base-url <url>',
  chkAuthOk: 'key accepted',
  chkAuthFail: 'key rejected (HTTP {status})',
  fixAuth: 'set a valid key: llm-base config update {name} --api-key env:<VARIABLE>',
  chkModelsOk: 'models present: {models}',
  chkModelsMissing: 'models missing on the server: {missing} (available: {available})',
  chkModelsNoEndpoint: 'the server has no /models; model check skipped',
  chkModelsAccepted: 'not listed by /models, but the server accepts them: {models}',
  fixPullModel: 'get the model: {hint}',
  fixChooseModel: 'use an available model: llm-base config update {name} --low-model <id> --high-model <id>',
  chkJsonOk: 'strict-JSON round trip works ({model})',
  chkJsonFallback: 'the model did not answer with a JSON object',
  chkJsonFail: 'the call failed: {code} {detail}',
  fixJson: 'use a stronger low model, or set --json-mode response_format',
};

export type MessageKey = keyof typeof zh;
const TABLE: Record<Lang, typeof zh> = { zh, en };

/** The user's language from `<home>/settings.json` (`language`), default zh. */
export function readLanguage(env: NodeJS.ProcessEnv = process.env): Lang {
  let text: string;
  try {
    text = fs.readFileSync(settingsPath(env), 'utf8');
  } catch {
    return 'zh';
  }
  // settings.json belongs to slothtool: when it is broken we fall back to the default
  // language rather than fail a call over a display preference.
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return 'zh';
  }
  const { z } = require('zod') as typeof import('zod');
  const parsed = z.looseObject({ language: z.enum(['zh', 'en']) }).safeParse(json);
  return parsed.success ? parsed.data.language : 'zh';
}

/** Translate `key`, filling `{name}` placeholders. */
export function t(lang: Lang, key: MessageKey, vars: Record<string, string | number> = {}): string {
  return TABLE[lang][key].replace(/\{(\w+)\}/g, (all, name: string) => (name in vars ? String(vars[name]) : all));
}
