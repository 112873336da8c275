import type { Language } from './settings';
import { fill } from '@holic512/shared/lib/messages';

/** The help's examples: commands, the same in every language. */
const EXAMPLES = [
  '  slothtool install @holic512/plugin-llm-base',
  '  slothtool install @holic512/plugin-ai',
  '  slothtool ai -i',
  '  slothtool update ai --verbose',
  '  slothtool uninstall llm-base --purge --yes',
  '  slothtool list --json',
  '  slothtool config language en',
];

const zh = {
  title: 'SlothTool 插件管理器',
  usage: [
    '用法：',
    '  slothtool install <包名|目录|.tgz>   安装插件（别名取自真实包名：@scope/plugin-ai → ai）',
    '  slothtool uninstall <别名> [--purge [--yes]]  卸载插件（先列出要删除的内容；配置默认保留，--purge 连同配置一起删除）',
    '  slothtool update <别名>             更新插件',
    '  slothtool list [--json]             列出已安装的插件',
    '  slothtool run <别名> [参数…]        运行插件',
    '  slothtool <别名> [参数…]            运行插件（简写）',
    '  slothtool config language <zh|en>   设置界面语言',
    '  slothtool --help | --version',
    '',
    '选项：',
    '  install/update --verbose            显示 npm 的输出',
    '  uninstall --purge                   连同插件的配置(plugin-configs)一起删除;终端中会先询问',
    '  uninstall --yes, -y                 与 --purge 一起:不询问(无终端时必须给出)',
    '  uninstall --keep-config             保留配置(默认行为,仍然接受)',
    '  list --json                         以 JSON 输出',
    '  -h, --help / -v, --version          帮助 / 版本',
    '',
    '语言:slothtool config language zh|en(未设置时跟随系统区域设置)',
    '',
    '目录：{home}（可用环境变量 SLOTHTOOL_HOME 覆盖）',
    '',
    '示例：',
    ...EXAMPLES,
  ].join('\n'),
  unknownOption: '未知选项 "{arg}"',
  noInteractiveMenu:
    '这个版本的 slothtool 没有交互式菜单。\n查看插件：slothtool list\n运行插件的交互模式：slothtool <别名> -i（例如 slothtool ai -i）',
  missingArgument: '缺少{what}。用法：{usage}',
  extraArguments: '多余的参数："{args}"。用法：{usage}',
  argAlias: '插件别名',
  argSpec: '要安装的包（npm 包名、目录或 .tgz）',
  argLanguage: '语言（zh 或 en）',
  installing: '正在安装 {spec} …',
  npmRunning: 'npm 运行中',
  installed: '✓ 已安装 {name} {version}，别名 "{alias}"。\n  运行：slothtool {alias} --help',
  installedInteractive: '  交互模式：slothtool {alias} {flag}',
  updating: '正在更新 "{alias}"（{name} {version}）…',
  updated: '✓ "{alias}" 已更新：{from} → {to}',
  updatedSame: '✓ "{alias}" 已重新安装，版本仍为 {version}（已是最新）。',
  uninstallWillRemove: '将删除：',
  uninstallEntry: '  • 注册表条目 "{alias}"（{name} {version}）',
  uninstallDir: '  • 插件目录：{dir}',
  uninstallConfig: '  • 配置文件：{file}',
  uninstallKeepConfig: '保留配置文件：{file}（连同它一起删除：slothtool uninstall {alias} --purge）',
  purgeConfirm: '要删除这些配置文件吗（其中可能有配置档和 API key）？',
  purgeNeedsYes:
    '--purge 会删除 "{alias}" 的配置文件（配置档、API key），没有终端可以确认。确定要删除时请加上 --yes：slothtool uninstall {alias} --purge --yes',
  uninstallCancelled: '已取消，什么都没有删除。',
  uninstallNoDir: '不会删除插件所在的目录：{binPath}（它不在 SlothTool 目录内）',
  uninstalled: '✓ 已卸载 "{alias}"。',
  listEmpty: '还没有安装插件。\n安装：slothtool install <包名|目录|.tgz>',
  colAlias: '别名',
  colName: '包名',
  colVersion: '版本',
  colInstalled: '安装时间',
  colStatus: '状态',
  statusInstalled: '已安装',
  statusLinked: '源码链接',
  statusBinMissing: '入口文件缺失',
  currentLanguage: '当前语言：{language}\n修改：slothtool config language <zh|en>',
  languageSet: '语言已设置为：{language}',
  invalidLanguage: '不支持的语言 "{language}"，请使用 zh 或 en。',
  unexpected: '意外错误：{message}',
  settingsWarning: '警告：无法读取设置文件 {file}（{detail}），使用中文。修复或删除该文件即可。',
  REGISTRY_CORRUPT:
    '注册表文件已损坏：{file}\n  {detail}\nSlothTool 不会覆盖它（否则会丢失所有插件记录）。请手动修复该文件，或先备份再移走它，然后重新安装插件。',
  SETTINGS_CORRUPT: '设置文件已损坏：{file}\n  {detail}\n请手动修复或删除该文件，然后重试。',
  NOT_INSTALLED: '插件 "{alias}" 未安装。\n查看已安装的插件：slothtool list\n安装：slothtool install {package}',
  ALREADY_INSTALLED:
    '插件 "{alias}" 已经安装（{name} {version}）。\n升级：slothtool update {alias}\n重新安装：先 slothtool uninstall {alias}，再 slothtool install …',
  SPEC_NOT_FOUND: '找不到要安装的{kindText}：{path}',
  specFolder: '目录（需包含 package.json）',
  specTarball: '压缩包文件',
  NPM_FAILED: '安装失败：npm 以状态 {status} 退出。\n  命令：{command}\nnpm 输出（末尾）：\n{output}\n没有留下任何安装文件，注册表未改动。',
  NPM_NOT_FOUND: '找不到 npm 命令。SlothTool 用 npm 安装插件：请安装 Node.js（自带 npm）并确认 npm 在 PATH 中。',
  PACKAGE_UNREADABLE: '无法读取 {file}：{detail}',
  NO_BIN: '包 {name} 的 package.json 没有 "bin" 字段，它不是 SlothTool 插件。已清理安装文件。',
  bundleUnusable: 'slothtool 无法加载 {file}（{detail}）；不用它照常运行，只是启动较慢。重新安装可修复：npm install -g @holic512/slothtool',
  PACKAGE_BIN_MISSING: '包 {name} 声明的入口文件 {bin} 不存在（是否打包前没有构建？）。已清理安装文件。',
  BIN_MISSING: '插件 "{alias}" 已注册，但入口文件不存在：{binPath}\n重新安装：slothtool uninstall {alias} && slothtool install {name}',
  BIN_MISSING_LINKED:
    '插件 "{alias}" 指向的入口文件不存在：{binPath}\n如果它来自源码目录，请在该目录运行 npm run setup；或者安装发布版：slothtool uninstall {alias} && slothtool install {name}',
  INVALID_ALIAS: '包名 {name} 得到的别名 "{alias}" 不能用作插件名。',
  NOT_MANAGED:
    '插件 "{alias}" 指向 SlothTool 目录之外的 {binPath}（例如由 npm run setup 从源码注册），update 不会改动它。\n请在源码目录里更新，或 slothtool uninstall {alias} 后再安装发布版。',
  NAME_MISMATCH: '更新得到的包是 {found}，不是 {expected}，未做任何更改。',
  SPAWN_FAILED: '无法启动插件 "{alias}"（{binPath}）：{detail}',
  INTERRUPTED: '已中断。没有留下任何安装文件，注册表未改动。',
};

export type MessageId = keyof typeof zh;

const en: Record<MessageId, string> = {
  title: 'SlothTool plugin manager',
  usage: [
    'Usage:',
    '  slothtool install <name|folder|.tgz>   install a plugin (alias from the real name: @scope/plugin-ai -> ai)',
    '  slothtool uninstall <alias> [--purge [--yes]]  uninstall a plugin (lists what goes first; its config is kept unless --purge)',
    '  slothtool update <alias>               update a plugin',
    '  slothtool list [--json]                list installed plugins',
    '  slothtool run <alias> [args...]        run a plugin',
    '  slothtool <alias> [args...]            run a plugin (shorthand)',
    '  slothtool config language <zh|en>      set the language',
    '  slothtool --help | --version',
    '',
    'Options:',
    "  install/update --verbose               show npm's output",
    "  uninstall --purge                      also delete the plugin's config (plugin-configs); asks first on a terminal",
    '  uninstall --yes, -y                    with --purge: do not ask (needed without a terminal)',
    '  uninstall --keep-config                keep the config (the default; still accepted)',
    '  list --json                            print JSON',
    '  -h, --help / -v, --version             help / version',
    '',
    'Language: slothtool config language zh|en (else the locale)',
    '',
    'Home: {home} (override with SLOTHTOOL_HOME)',
    '',
    'Examples:',
    ...EXAMPLES,
  ].join('\n'),
  unknownOption: 'unknown option "{arg}"',
  noInteractiveMenu:
    "This slothtool has no interactive menu.\nSee your plugins: slothtool list\nStart a plugin's interactive mode: slothtool <alias> -i (e.g. slothtool ai -i)",
  missingArgument: 'Missing {what}. Usage: {usage}',
  extraArguments: 'Unexpected arguments: "{args}". Usage: {usage}',
  argAlias: 'the plugin alias',
  argSpec: 'what to install (npm name, folder or .tgz)',
  argLanguage: 'the language (zh or en)',
  installing: 'Installing {spec} ...',
  npmRunning: 'npm is running',
  installed: '✓ Installed {name} {version} as "{alias}".\n  Run: slothtool {alias} --help',
  installedInteractive: '  Interactive mode: slothtool {alias} {flag}',
  updating: 'Updating "{alias}" ({name} {version}) ...',
  updated: '✓ Updated "{alias}": {from} -> {to}',
  updatedSame: '✓ Reinstalled "{alias}"; the version is still {version} (already the latest).',
  uninstallWillRemove: 'Removing:',
  uninstallEntry: '  • registry entry "{alias}" ({name} {version})',
  uninstallDir: '  • plugin folder: {dir}',
  uninstallConfig: '  • config file: {file}',
  uninstallKeepConfig: 'Keeping the config file: {file} (remove it too: slothtool uninstall {alias} --purge)',
  purgeConfirm: 'Delete these config files (they may hold profiles and API keys)?',
  purgeNeedsYes:
    '--purge deletes the config files of "{alias}" (profiles, API keys) and there is no terminal to confirm it. If you are sure, add --yes: slothtool uninstall {alias} --purge --yes',
  uninstallCancelled: 'Cancelled; nothing was removed.',
  uninstallNoDir: 'Not removing the folder the plugin lives in: {binPath} (it is outside the SlothTool home)',
  uninstalled: '✓ Uninstalled "{alias}".',
  listEmpty: 'No plugins installed.\nInstall one: slothtool install <name|folder|.tgz>',
  colAlias: 'alias',
  colName: 'package',
  colVersion: 'version',
  colInstalled: 'installed',
  colStatus: 'status',
  statusInstalled: 'installed',
  statusLinked: 'linked',
  statusBinMissing: 'bin missing',
  currentLanguage: 'Current language: {language}\nChange it: slothtool config language <zh|en>',
  languageSet: 'Language set to: {language}',
  invalidLanguage: 'Unsupported language "{language}": use zh or en.',
  unexpected: 'Unexpected error: {message}',
  settingsWarning: 'Warning: cannot read the settings file {file} ({detail}); using Chinese. Fix or delete the file.',
  REGISTRY_CORRUPT:
    'The registry file is corrupt: {file}\n  {detail}\nSlothTool will not overwrite it (that would lose every plugin entry). Fix the file by hand, or back it up, move it away and reinstall your plugins.',
  SETTINGS_CORRUPT: 'The settings file is corrupt: {file}\n  {detail}\nFix or delete the file, then try again.',
  NOT_INSTALLED: 'Plugin "{alias}" is not installed.\nSee installed plugins: slothtool list\nInstall: slothtool install {package}',
  ALREADY_INSTALLED:
    'Plugin "{alias}" is already installed ({name} {version}).\nUpgrade: slothtool update {alias}\nReinstall: slothtool uninstall {alias}, then slothtool install ...',
  SPEC_NOT_FOUND: 'Cannot find the {kindText} to install: {path}',
  specFolder: 'folder (with a package.json)',
  specTarball: 'tarball',
  NPM_FAILED:
    'Install failed: npm exited with {status}.\n  command: {command}\nnpm output (tail):\n{output}\nNothing was left behind and the registry is unchanged.',
  NPM_NOT_FOUND: 'Cannot find npm. SlothTool installs plugins with npm: install Node.js (it ships npm) and make sure npm is on PATH.',
  PACKAGE_UNREADABLE: 'Cannot read {file}: {detail}',
  NO_BIN: 'The package.json of {name} has no "bin": it is not a SlothTool plugin. The install was cleaned up.',
  bundleUnusable:
    'slothtool could not load {file} ({detail}); it runs without it, only slower to start. Reinstall to repair: npm install -g @holic512/slothtool',
  PACKAGE_BIN_MISSING:
    '{name} declares the bin {bin}, but that file is not in the package (built before packing?). The install was cleaned up.',
  BIN_MISSING:
    'Plugin "{alias}" is registered but its bin file is missing: {binPath}\nReinstall: slothtool uninstall {alias} && slothtool install {name}',
  BIN_MISSING_LINKED:
    'Plugin "{alias}" points at a bin file that is missing: {binPath}\nIf it comes from a checkout, run npm run setup there; or install the published one: slothtool uninstall {alias} && slothtool install {name}',
  INVALID_ALIAS: 'The package name {name} gives the alias "{alias}", which cannot be used as a plugin name.',
  NOT_MANAGED:
    'Plugin "{alias}" points outside the SlothTool home, at {binPath} (e.g. registered from a checkout by npm run setup); update leaves it alone.\nUpdate it in that checkout, or slothtool uninstall {alias} and install the published one.',
  NAME_MISMATCH: 'The update installed {found}, not {expected}; nothing was changed.',
  SPAWN_FAILED: 'Cannot start plugin "{alias}" ({binPath}): {detail}',
  INTERRUPTED: 'Interrupted. Nothing was left behind and the registry is unchanged.',
};

const tables: Record<Language, Record<MessageId, string>> = { zh, en };

/** The message tables, for the completeness test over every catalogue. */
export const MESSAGE_TABLES = tables;

/** The message `id` in `language`, with `{name}` placeholders filled from `params`. */
export function t(language: Language, id: MessageId, params: Record<string, string> = {}): string {
  return fill(tables[language][id], params, language);
}

/** Whether `id` names a message (error codes double as message ids). */
export function hasMessage(id: string): id is MessageId {
  return Object.prototype.hasOwnProperty.call(zh, id);
}
