import { SEARCH_MESSAGES } from './i18n-search';
import { TOOL_MESSAGES } from './i18n-tools';
import { SANDBOX_MESSAGES } from './sandbox/i18n-sandbox';
import { OPTION_MESSAGES } from './policy/options/i18n-options';
import { RULE_MESSAGES } from './policy/i18n-rules';
import type { Lang } from './types';
import { fill, type RuleMessages } from '@holic512/shared/lib/messages';

const CONFIG = '~/.slothtool/plugin-configs/ai.json';

/**
 * Every user-facing string of the package, keyed by message id. `{name}` placeholders are
 * filled from the rule's parameters.
 */
export const MESSAGES: RuleMessages = {
  'step.invalid': { zh: '步骤格式不正确：{e}', en: 'the step is malformed: {e}' },
  'program.empty': { zh: '没有给出要运行的程序', en: 'no program was given' },
  'program.unknown': {
    zh: '`{p}` 不在已知程序的允许列表中',
    en: '`{p}` is not on the allowlist of known programs',
    hintZh: `如需允许，请把 "{p}" 加入 ${CONFIG} 的 allowedPrograms（之后每次运行前会先询问）`,
    hintEn: `To allow it, add "{p}" to allowedPrograms in ${CONFIG} (it will then ask before each run)`,
  },
  'program.allowed_by_policy': {
    zh: '`{p}` 由你的 allowedPrograms 设置允许，运行前先询问',
    en: '`{p}` is allowed by your allowedPrograms setting; asking before it runs',
  },
  'program.trusted_code': {
    zh: '`{a}` 是受信任技能 `{r}` 中的脚本，作为项目代码运行前先询问',
    en: '`{a}` is a script of the trusted skill folder `{r}`; it runs as project code, asked first',
  },
  'program.lookalike': {
    zh: '程序名 `{p}` 含有不可见或形似字符（看起来像 `{like}`），不是它所模仿的程序',
    en: 'the program name `{p}` contains invisible or look-alike characters (it resembles `{like}`), so it is not that program',
    hintZh: '请用纯 ASCII 字符写程序名',
    hintEn: 'Write the program name in plain ASCII',
  },
  'program.path': {
    zh: '`{p}` 是系统程序目录之外的路径，不能当作同名程序',
    en: '`{p}` is a path outside the system program folders, so it is not the program it is named after',
    hintZh: `请使用程序名本身或 /usr/bin 等系统目录下的路径；如需运行它，请把 "{p}" 加入 ${CONFIG} 的 allowedPrograms`,
    hintEn: `Use the plain program name or a path under /usr/bin; to run it anyway, add "{p}" to allowedPrograms in ${CONFIG}`,
  },
  'args.invisible': {
    zh: '第 {n} 个参数含有不可见或改变文字方向的字符，会掩盖真正要运行的内容',
    en: 'argument {n} contains invisible or direction-changing characters that hide what will run',
  },
  'read.only': { zh: '`{p}` 只读取，不修改任何东西', en: '`{p}` only reads; it changes nothing' },
  'arg.exec': {
    zh: '`{a}` 会让 `{p}` 运行其他程序或代码',
    en: '`{a}` makes `{p}` run other programs or code',
    hintZh: '如确有需要，请把要运行的命令作为单独的步骤',
    hintEn: 'If needed, run that command as a step of its own',
  },
  'arg.write_block': {
    zh: '`{a}` 会让只读的 `{p}` 改写文件',
    en: '`{a}` turns the reader `{p}` into a writer of files',
    hintZh: '请改用明确的写文件步骤，以便确认',
    hintEn: 'Use an explicit write step instead so it can be confirmed',
  },
  'arg.write': { zh: '`{a}` 会让 `{p}` 写文件', en: '`{a}` makes `{p}` write files' },
  'arg.unparsed': {
    zh: '无法确定 `{p}` 的参数 `{a}` 会做什么',
    en: 'cannot tell what `{a}` does for `{p}`',
  },
  'arg.script_file': {
    zh: '`{p}` 从文件 `{a}` 读取程序，内容无法判断',
    en: '`{p}` reads its program from the file `{a}`, whose content cannot be judged',
  },
  'sed.write': { zh: 'sed 脚本中的 `{a}` 会写文件', en: 'the sed command `{a}` writes a file' },
  'sed.exec': { zh: 'sed 脚本中的 `{a}` 会执行命令', en: 'the sed command `{a}` runs a shell command' },
  'sed.inplace': { zh: '`{a}` 让 sed 直接改写文件', en: '`{a}` makes sed rewrite files in place' },
  'sed.unparsed': { zh: '无法解析 sed 脚本 `{a}`', en: 'cannot parse the sed script `{a}`' },
  'awk.exec': { zh: 'awk 程序中的 `{a}` 会运行命令', en: 'the awk program runs commands (`{a}`)' },
  'awk.write': { zh: 'awk 程序中的 `{a}` 会写文件', en: 'the awk program writes files (`{a}`)' },
  'wrapper.xargs': {
    zh: 'xargs 会对每个输入运行命令，无法在这里判断',
    en: 'xargs runs a command for input it reads, which cannot be judged here',
    hintZh: '请直接运行命令本身',
    hintEn: 'Run the command itself instead',
  },
  'wrapper.env_var': {
    zh: '设置环境变量 {v} 可以让程序运行其他代码或读取其他配置',
    en: 'setting {v} can make the program run other code or read another configuration',
  },
  'wrapper.env_print': {
    zh: '打印环境变量可能泄露密钥',
    en: 'printing the environment may reveal secrets',
  },
  'wrapper.unparsed': {
    zh: '找不到 `{p}` 包装的命令',
    en: 'cannot find the command wrapped by `{p}`',
  },
  'wrapper.depth': { zh: '命令包装层数过多', en: 'too many nested command wrappers' },
  escalation: {
    zh: '`{p}` 以提升的权限运行命令',
    en: '`{p}` runs a command with elevated privileges',
    hintZh: `需要时请自己在终端运行，或在 ${CONFIG} 设置 allowSudo: true（仍会询问）`,
    hintEn: `Run it yourself in a terminal, or set allowSudo: true in ${CONFIG} (it will still ask)`,
  },
  'escalation.allowed': {
    zh: 'allowSudo 已开启：`{p}` 按被包装的命令判断，并且总会询问',
    en: 'allowSudo is on: `{p}` is judged by the wrapped command and always asks',
  },
  'interp.inline': {
    zh: '`{p} {a}` 运行内联代码',
    en: '`{p} {a}` runs inline code',
    hintZh: '请用专门的只读命令完成，或让用户自己运行',
    hintEn: 'Use a dedicated read-only command, or let the user run it',
  },
  'interp.script': {
    zh: '`{p}` 运行脚本 `{a}`，其内容无法判断',
    en: '`{p}` runs the script `{a}`, whose content cannot be judged',
    hintZh: `如需允许，请把 "{p} {a}" 加入 ${CONFIG} 的 allowedPrograms`,
    hintEn: `To allow it, add "{p} {a}" to allowedPrograms in ${CONFIG}`,
  },
  'interp.info': { zh: '`{p}` 只显示版本或帮助', en: '`{p}` only prints its version or help' },
  'system.change': {
    zh: '`{p}` 会改动磁盘、文件系统或正在运行的系统',
    en: '`{p}` changes disks, file systems or the running system',
  },
  'system.kill_all': {
    zh: '`kill {a}` 会向所有进程或整个进程组发信号',
    en: '`kill {a}` signals every process or a whole process group',
  },
  'kill.pid': { zh: '`{p}` 会停止其他进程', en: '`{p}` stops other processes' },
  'perm.recursive_outside': {
    zh: '在工作区之外递归执行 `{p}`（`{a}`）',
    en: 'recursive `{p}` on `{a}`, outside the workspace',
  },
  'perm.setuid': { zh: '`{a}` 设置 setuid/setgid 位', en: '`{a}` sets the setuid/setgid bit' },
  'delete.recursive': {
    zh: '`{p} {a}` 递归删除文件',
    en: '`{p} {a}` deletes recursively',
    hintZh: '请让用户自己删除，或逐个删除文件',
    hintEn: 'Let the user delete it, or remove files one by one',
  },
  'write.system_path': {
    zh: '`{a}` 是系统位置，不应由助手改写',
    en: '`{a}` is a system location the assistant must not change',
  },
  'write.persistence': {
    zh: '`{a}` 会被 shell 启动、git 钩子/配置或 ssh 执行或读取，改动它可能在以后运行代码',
    en: '`{a}` is run or loaded by shell start-up, git hooks/config or ssh; changing it can run code later',
    hintZh: '请让用户自己修改这个文件',
    hintEn: 'Let the user change this file',
  },
  'write.file': { zh: '`{p}` 会创建、修改或删除文件', en: '`{p}` creates, changes or removes files' },
  network: { zh: '`{p}` 会访问网络', en: '`{p}` uses the network' },
  install: { zh: '`{p} {s}` 会安装或修改依赖包', en: '`{p} {s}` installs or changes packages' },
  'publish': {
    zh: '`{p} {s}` 会发布或修改注册表/账户上的内容',
    en: '`{p} {s}` publishes or changes registry or account state',
  },
  'project.script': {
    zh: '`{p} {s}` 会运行项目代码（脚本、测试、构建）',
    en: '`{p} {s}` runs project code (scripts, tests, builds)',
  },
  'npx.run': {
    zh: '`{p}` 会运行（必要时下载）一个包的程序',
    en: '`{p}` runs a package binary, downloading it when missing',
  },
  pager: {
    zh: '`{p}` 是交互式分页器，能运行 shell 命令（!cmd、+cmd、LESSOPEN）',
    en: '`{p}` is an interactive pager that can run shell commands (!cmd, +cmd, LESSOPEN)',
    hintZh: '请用 cat、head 或 tail 查看文件',
    hintEn: 'Use cat, head or tail to look at files',
  },
  interactive: {
    zh: '`{p}` 是交互式程序，可以运行 shell 命令，这里没有终端',
    en: '`{p}` is interactive, can run shell commands, and there is no terminal here',
  },
  'git.read': { zh: '`git {s}` 只读取仓库', en: '`git {s}` only reads the repository' },
  'git.write': { zh: '`git {s}` 会修改仓库或工作区', en: '`git {s}` changes the repository or working tree' },
  'git.network': { zh: '`git {s}` 会访问远程仓库', en: '`git {s}` talks to a remote repository' },
  'git.rewrite': {
    zh: '`git {s} {a}` 会改写历史或丢弃未提交的工作',
    en: '`git {s} {a}` rewrites history or discards uncommitted work',
    hintZh: '请让用户自己在终端运行',
    hintEn: 'Let the user run it in a terminal',
  },
  'git.config': {
    zh: '`{a}` 设置的 git 配置可以让 git 运行其他程序',
    en: '`{a}` sets git configuration that can make git run other programs',
  },
  'git.exec_option': {
    zh: '`{a}` 会让 git 运行其他程序或写文件',
    en: '`{a}` makes git run another program or write a file',
  },
  'git.unknown': {
    zh: '未知的 git 子命令 `{s}`（可能是别名）',
    en: 'unknown git subcommand `{s}` (it may be an alias)',
    hintZh: `如需允许，请把 "git {s}" 加入 ${CONFIG} 的 allowedPrograms`,
    hintEn: `To allow it, add "git {s}" to allowedPrograms in ${CONFIG}`,
  },
  'git.other_repo': {
    zh: '`{a}` 让 git 使用另一个仓库，其配置可能运行程序',
    en: '`{a}` points git at another repository whose configuration may run programs',
  },
  'git.credentials': { zh: '`git {s}` 会输出凭据', en: '`git {s}` prints credentials' },
  'secret.read': {
    zh: '`{a}` 通常保存着密钥、令牌或密码',
    en: '`{a}` usually holds keys, tokens or passwords',
  },
  'secret.private_key': {
    zh: '`{a}` 是私钥或系统密码库，不能交给模型',
    en: '`{a}` is a private key or a system password store and must not reach the model',
  },
  'requires.elevated': { zh: '模型声明此步骤需要提升的权限', en: 'the model says this step needs elevated privileges' },
  'requires.confirm': { zh: '模型要求先确认', en: 'the model asked for confirmation' },
  'requires.write': { zh: '模型声明此步骤会写入', en: 'the model says this step writes' },
  'requires.network': { zh: '模型声明此步骤会访问网络', en: 'the model says this step uses the network' },
  'policy.lowered': {
    zh: '你的 {setting} 设置允许这一类操作直接运行',
    en: 'your {setting} setting lets this kind of step run without asking',
  },
  'permission.deny': { zh: '权限规则 `{r}`（{f}）拒绝了它', en: 'the permission rule `{r}` ({f}) denies it' },
  'permission.ask': { zh: '权限规则 `{r}`（{f}）要求每次都询问', en: 'the permission rule `{r}` ({f}) says to ask every time' },
  'permission.allow': { zh: '权限规则 `{r}`（{f}）允许它', en: 'the permission rule `{r}` ({f}) allows it' },
  'repo.config_programs': {
    zh: '`{p}` 会运行这个仓库的配置所指定的程序（如 .cargo/config.toml、.pnpmfile.cjs、.mvn/jvm.config）',
    en: "`{p}` runs programs this repository's configuration names (.cargo/config.toml, .pnpmfile.cjs, .mvn/jvm.config, …)",
  },
  'cwd.outside': {
    zh: '`{p}` 会在工作区之外的 `{d}` 中运行',
    en: '`{p}` would run in `{d}`, outside the workspace',
  },
  'read.outside': {
    zh: '`{p}` 会读取工作区之外的 `{a}`',
    en: '`{p}` reads `{a}`, outside the workspace',
  },
  'secret.slothtool': {
    zh: '`{a}` 是（或包含）助手自己的配置和 API key（SlothTool 的 plugin-configs），不能交给模型',
    en: "`{a}` is (or holds) the assistant's own configuration and API keys (SlothTool's plugin-configs); it must not reach the model",
    hintZh: '用 slothtool llm-base config show 自己查看（key 会被遮盖）',
    hintEn: 'Look at it yourself with slothtool llm-base config show (keys are masked)',
  },
  'write.slothtool': {
    zh: '`{a}` 在 SlothTool 目录中：模型请求的步骤不能修改助手自己的配置、注册表或插件',
    en: "`{a}` is inside the SlothTool home: a step the model asks for never changes the assistant's own configuration, registry or plugins",
    hintZh: '自己修改：slothtool llm-base config …、slothtool config language …，或手动编辑',
    hintEn: 'Change it yourself: slothtool llm-base config …, slothtool config language …, or by hand',
  },
  'git.hardened': {
    zh: '仓库自身配置中指定的程序不会运行（外部 diff、textconv、clean/smudge 过滤器、钩子、fsmonitor、分页器、签名程序均已关闭）',
    en: "programs named by the repository's own configuration do not run (external diff, textconv, clean/smudge filters, hooks, fsmonitor, pager and signature program are switched off)",
  },
  'sandbox.required': {
    zh: 'ai.json 中 sandbox 设为 "required"，但沙箱不可用：{why}',
    en: 'sandbox is "required" in ai.json, but no sandbox is available: {why}',
    hintZh: '安装 bubblewrap（Debian/Ubuntu：apt-get install bubblewrap），或在 ~/.slothtool/plugin-configs/ai.json 中把 sandbox 改为 "auto"',
    hintEn: 'Install bubblewrap (Debian/Ubuntu: apt-get install bubblewrap), or set sandbox to "auto" in ~/.slothtool/plugin-configs/ai.json',
  },
  'session.allowed': {
    zh: '你已允许本会话中运行 `{k}`',
    en: 'you allowed `{k}` for this session',
  },
  'plugin.missing': {
    zh: '没有安装别名为 `{p}` 的插件',
    en: 'no plugin with the alias `{p}` is installed',
    hintZh: '用 slothtool list 查看已安装的插件',
    hintEn: 'Run slothtool list to see installed plugins',
  },
  'plugin.self': {
    zh: '不能在 ai 中再运行 ai（不允许递归）',
    en: 'running ai from inside ai is refused (no recursion)',
  },
  'plugin.info': { zh: '`{p} {a}` 只显示帮助或版本', en: '`{p} {a}` only prints help or version' },
  'plugin.run': { zh: '运行插件 `{p}`，它可能修改文件或访问网络', en: 'runs the plugin `{p}`, which may change files or use the network' },
  'plugin.trusted': { zh: '插件 `{p}` 在 trustedPlugins 中', en: 'the plugin `{p}` is in trustedPlugins' },
  'plugin.interactive': {
    zh: '插件 `{p}` 是交互式的，需要你确认后在终端中运行',
    en: 'the plugin `{p}` is interactive and runs in your terminal after you confirm',
  },
  'config.patch': { zh: '修改配置文件 `{f}`', en: 'changes the configuration file `{f}`' },
  'config.outside': {
    zh: '`{f}` 不在允许修改的配置目录中',
    en: '`{f}` is outside the folders where configuration may be changed',
  },
  'tool.unknown': { zh: '未知的工具 `{t}`', en: 'unknown tool `{t}`' },
  'mcp.call': {
    zh: '调用 MCP 服务器 `{s}` 的工具 `{t}`：它做什么由该服务器决定',
    en: 'calls the tool `{t}` of the MCP server `{s}`: what it does is up to that server',
    hintZh: '若信任该服务器，可在 ai.json 的 mcpServers.{s} 中设置 "trusted": true，其标为只读的工具将不再询问',
    hintEn: 'If you trust this server, set "trusted": true under mcpServers.{s} in ai.json: its tools marked read-only then run without a question',
  },
  'mcp.destructive': { zh: 'MCP 服务器 `{s}` 将 `{t}` 标为破坏性操作', en: 'the MCP server `{s}` marks `{t}` as destructive' },
  'mcp.read_only': {
    zh: '你信任的 MCP 服务器 `{s}` 将 `{t}` 标为只读',
    en: 'the MCP server `{s}`, which you trust, marks `{t}` as read-only',
  },
  'mcp.off': {
    zh: 'MCP 服务器 `{s}` 在本会话中已关闭',
    en: 'the MCP server `{s}` is turned off for this session',
    hintZh: '在 ai -i 中用 /mcp enable {s} 重新打开',
    hintEn: 'Turn it back on in ai -i with /mcp enable {s}',
  },
  'mcp.describe': { zh: '只读取 MCP 工具 `{t}` 的说明', en: 'only reads the description of the MCP tool `{t}`' },
  'declined.user': { zh: '用户拒绝了此步骤', en: 'the user declined this step' },
  ...TOOL_MESSAGES,
  ...SEARCH_MESSAGES,
  ...SANDBOX_MESSAGES,
  ...OPTION_MESSAGES,
  ...RULE_MESSAGES,
};

const NO_PARAMS: Record<string, string | number> = {};

/** Fill a message for `lang`; unknown ids come back as the id itself. */
export function message(id: string, lang: Lang, params: Record<string, string | number> = NO_PARAMS, withHint = true): { reason: string; hint?: string } {
  const m = MESSAGES[id];
  if (!m) return { reason: id };
  const reason = fill(lang === 'zh' ? m.zh : m.en, params, lang);
  const hint = withHint ? (lang === 'zh' ? m.hintZh : m.hintEn) : undefined;
  return hint ? { reason, hint: fill(hint, params, lang) } : { reason };
}

/** A tool's note or error text for `lang` (the fs/http/proc results); unknown ids come back as the id. */
export function toolMessage(id: string, lang: Lang, params: Record<string, string | number> = NO_PARAMS): string {
  return message(id, lang, params, false).reason;
}

/** The hint of a message, if it has one. */
export function toolHint(id: string, lang: Lang): string | undefined {
  return message(id, lang).hint;
}
