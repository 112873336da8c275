/** User-facing strings of `ai -i` for extensions: `/mcp` and the trust question at start (zh and en). */
import type { Lang } from '../i18n';
import { defineMessages } from '@holic512/shared/lib/messages';

const en = {
  mcpNone: 'No MCP servers. Add one: slothtool ai mcp add <name> -- <command> [args...] (or a project .mcp.json in a trusted folder).',
  mcpHead: 'MCP servers (the model sees their tool names; it reads a tool\'s schema with mcp.describe):',
  mcp_connected: 'connected · {n, plural, one {# tool} other {# tools}}',
  mcp_starting: 'starting…',
  mcp_failed: 'failed: {error}',
  mcp_closed: 'stopped',
  mcp_disabled: 'disabled',
  mcpTrusted: 'trusted: its read-only tools run without a question',
  mcpLastError: 'last error: {error}',
  mcpUsage: '/mcp <server> lists its tools · /mcp restart <server> starts it again · /mcp disable|enable <server> for this session',
  mcpEnabled: 'The tools of "{name}" are offered again.',
  mcpDisabledNow: 'The tools of "{name}" are off for this session: out of the prompt, calls refused.',
  mcpOffTag: 'off for this session',
  mcpUnknownServer: 'No MCP server "{name}". /mcp lists them.',
  mcpRestarting: 'Restarting MCP server "{name}"…',
  mcpToolsHead: 'Tools of {name} (call as mcp.{name}.<tool>):',
  mcpNoTools: '{name} has no tools ({status}).',
  mcpReadOnly: 'read-only',
  mcpDestructive: 'destructive',
  trustAsk: 'This folder ({folder}) brings things that run code or change the assistant\'s rules:',
  trustAskChanged: 'Since you trusted {folder}, these files changed:',
  trustServers: '  MCP servers (.mcp.json):',
  trustHooks: '  hooks (.slothtool/settings.json), run by your shell:',
  trustRules: '  permission rules (.slothtool/settings.json): {allow} allow, {ask} ask, {deny} deny (deny rules apply anyway)',
  trustSkills: '  skills and their scripts:',
  trustCode: '  project files those hooks and servers run (a change asks again):',
  trustCommands: '  commands whose allowed-tools answer questions for their turn:',
  trustUnreadable: '  unreadable: {what}',
  trustQuestion: 'Trust this folder and turn them on? (asked again when these files change)',
  trustOn: 'Trusted: they are on for this session.',
  modelNotPulled: 'The model {model} is not on your Ollama server yet: /pull downloads it (with progress).',
  modelServerDown: 'Ollama: {message}. Start it with: ollama serve',
  modelState_loading: 'loading model…',
  modelState_not_pulled: 'model not pulled: /pull',
  modelState_not_running: 'Ollama not running',
  pullNoService: '/pull downloads models onto an Ollama server; this profile is not one.',
  pullUsage: 'usage: /pull <model>',
  pullFailed: 'Downloading {model} failed: {message}',
  pullDone: 'Downloaded {model}.',
};

type Key = keyof typeof en;

const zh: Record<Key, string> = {
  mcpNone: '没有 MCP 服务器。添加一个: slothtool ai mcp add <名称> -- <命令> [参数...](或在受信任目录中放置项目的 .mcp.json)。',
  mcpHead: 'MCP 服务器(模型能看到其工具名;用 mcp.describe 读取某个工具的参数结构):',
  mcp_connected: '已连接 · {n} 个工具',
  mcp_starting: '启动中…',
  mcp_failed: '失败: {error}',
  mcp_closed: '已停止',
  mcp_disabled: '已停用',
  mcpTrusted: '已信任: 其只读工具无需询问即可运行',
  mcpLastError: '最近的错误: {error}',
  mcpUsage: '/mcp <服务器> 列出其工具 · /mcp restart <服务器> 重新启动它 · /mcp disable|enable <服务器> 仅对本会话',
  mcpEnabled: '"{name}" 的工具已重新提供。',
  mcpDisabledNow: '"{name}" 的工具在本会话中已关闭: 不再出现在提示中，调用会被拒绝。',
  mcpOffTag: '本会话已关闭',
  mcpUnknownServer: '没有名为 "{name}" 的 MCP 服务器。/mcp 可查看全部。',
  mcpRestarting: '正在重启 MCP 服务器 "{name}"…',
  mcpToolsHead: '{name} 的工具(调用方式 mcp.{name}.<工具>):',
  mcpNoTools: '{name} 没有工具({status})。',
  mcpReadOnly: '只读',
  mcpDestructive: '破坏性',
  trustAsk: '此目录({folder})带有会运行代码或改变助手规则的内容:',
  trustAskChanged: '自你信任 {folder} 以来，这些文件有了改动:',
  trustServers: '  MCP 服务器(.mcp.json):',
  trustHooks: '  钩子(.slothtool/settings.json),由你的 shell 运行:',
  trustRules: '  权限规则(.slothtool/settings.json): allow {allow} 条,ask {ask} 条,deny {deny} 条(deny 规则始终生效)',
  trustSkills: '  技能及其脚本:',
  trustCode: '  这些钩子和服务器运行的项目文件(改动后会再次询问):',
  trustCommands: '  其 allowed-tools 会在该轮替你回答询问的命令:',
  trustUnreadable: '  无法读取: {what}',
  trustQuestion: '信任此目录并启用它们吗?(这些文件改动后会再次询问)',
  trustOn: '已信任: 本次会话中它们已启用。',
  modelNotPulled: '你的 Ollama 服务上还没有模型 {model}:/pull 可下载它(显示进度)。',
  modelServerDown: 'Ollama: {message}。请启动它: ollama serve',
  modelState_loading: '正在加载模型…',
  modelState_not_pulled: '模型未下载: /pull',
  modelState_not_running: 'Ollama 未运行',
  pullNoService: '/pull 用于把模型下载到 Ollama 服务;当前配置档不是 Ollama。',
  pullUsage: '用法: /pull <模型>',
  pullFailed: '下载 {model} 失败: {message}',
  pullDone: '已下载 {model}。',
};

const catalogue = defineMessages({ en, zh });

/** Look up an extension string and fill its placeholders. */
export const xs: (lang: Lang, key: Key, vars?: Record<string, string | number>) => string = catalogue.t;

/** Both tables, for the completeness test. */
export function extensionTables(): Record<Lang, Record<Key, string>> {
  return catalogue.tables;
}
