import { defineMessages } from '@holic512/shared/lib/messages';
import { commandFor } from '@holic512/shared/lib/usage';
import { SANDBOX_EN, SANDBOX_ZH } from './i18n-sandbox';
/** Every user-facing string of plugin-ai, in zh and en. Kept free of imports so the CLI
 * entry can load it on the fast `--help` path. */
export type Lang = 'zh' | 'en';

const en = {
  help: `ai — a terminal AI assistant for SlothTool

Usage:
  {ai} -p "<prompt>"          run one turn and exit (also: {ai} "<prompt>")
  {ai} -i                     interactive session (also plain "{ai}" in a terminal)
  {ai} -c -p                  go on with the last turn of this folder's session (after a step limit)
  {ai} risk [--json] -- <program> [args...]   show the risk level and rules of a command
  {ai} mcp list | add | remove | test         manage MCP servers (see: {ai} mcp)
  {ai} sandbox                                check the OS sandbox for real (bubblewrap / Seatbelt)

Options:
  -p, --prompt <text>       the prompt for one turn (piped stdin is added as context)
  -i, --interactive         the interactive session
  --json                    print one JSON object per line for every event
  --permission-mode plan|default|auto-edit|yolo
                            how much runs without a question: plan only reads, auto-edit
                            also edits workspace files, yolo every L1 step (sandbox only)
  --mode low|high           model tier of llm-base (default from config); --mode plan
                            and the other permission modes still work as --permission-mode
  --profile <name>          llm-base profile to use
  --continue, -c            resume the last session started in this directory
  --approve-l1              approve L1 (confirm) steps without asking; L2 is never approved
  --max-steps <n>           automatic steps per turn (default from config, 3)
  --image <file>            send an image (png, jpeg, gif, webp) with the prompt; repeatable
  -v, --version             print the version
  -h, --help                this help

Exit codes: 0 answered, 1 error, 2 bad usage or config, 3 stopped at the step limit,
4 llm-base not available, 5 the model reported an error, 130 aborted.
Config: <SlothTool home>/plugin-configs/ai.json   Sessions: <SlothTool home>/ai/sessions/
Language: slothtool config language zh|en (else the locale)

Examples:
  slothtool ai -i
  slothtool ai -p "why does npm test fail?"
  git diff | slothtool ai -p "review this change" --json
  slothtool ai -c -p "go on" --max-steps 5
  slothtool ai --profile work --mode high "explain src/index.ts"
  slothtool ai --approve-l1 -p "run the tests and fix what fails"
  slothtool ai risk -- rm -rf build
`,
  missingPrompt: 'no prompt given',
  unknownOption: 'unknown option {option}',
  missingValue: 'option {option} needs a value',
  badMode: '--mode must be the model tier low or high (or a permission mode: plan, default, auto-edit, yolo), got "{value}"',
  badMaxSteps: '--max-steps must be a positive integer, got "{value}"',
  riskUsage: 'usage: {ai} risk [--json] -- <program> [args...]',
  sandboxCheckNone: 'Sandbox: not available, running without sandbox because {reason}. Commands still go through the risk rules. Install bubblewrap (Debian/Ubuntu: apt-get install bubblewrap) to turn it on.',
  sandboxCheckHeader: 'Sandbox: {kind}. Checking it for real in a scratch folder:',
  sandboxCheckWrite: 'a write outside the workspace is refused',
  sandboxCheckNetwork: 'no network at L0',
  sandboxCheckSecret: 'a planted secret (~/.ssh) is hidden',
  sandboxCheckWorkspace: 'the workspace is readable',
  sandboxCheckHooks: '.git/hooks is read-only at L1',
  sandboxCheckAllOk: 'All checks passed.',
  sandboxCheckFailed: 'Some checks failed: commands are not contained as they should be. See docs/security.md (Sandbox).',
  ...SANDBOX_EN,
  sandboxUnavailable: 'No OS sandbox: {reason}. Commands run without it; the risk rules still apply. (Install bubblewrap, or set sandbox in ai.json; check with: slothtool ai sandbox)',
  permissionRuleIgnored: 'Ignoring the permission rule "{rule}" ({file}): {error}',
  sandboxStoppedWrite: 'stopped by the sandbox: it tried to write outside what this step may change ({line})',
  sandboxStoppedNetwork: 'stopped by the sandbox: it tried to reach the network ({line})',
  mcpUsage: 'usage: {ai} mcp list | add <name> -- <command> [args...] | add <name> --url <url> [--header "K: V"] | remove <name> | test <name>',
  mcpAddUsage: 'usage: {ai} mcp add <name> [--env K=V]... -- <command> [args...]   or   {ai} mcp add <name> --url <url> [--header "K: V"]...',
  mcpConfigBroken: 'cannot read {file}: {detail}. Fix the file (it must hold a JSON object), then run the command again.',
  mcpNone: 'No MCP servers are configured in {file}. Add one: {ai} mcp add <name> -- <command> [args...]',
  mcpDisabled: 'disabled',
  mcpTrusted: 'trusted',
  mcpAdded: 'Added MCP server "{name}" to {file}. Check it: slothtool ai mcp test {name}',
  mcpReplaced: 'Replaced MCP server "{name}" in {file}. Check it: slothtool ai mcp test {name}',
  mcpRemoved: 'Removed MCP server "{name}" from {file}.',
  mcpUnknown: 'No MCP server named "{name}" in {file}. See them: slothtool ai mcp list',
  mcpTestOk: 'MCP server "{name}" works: {n, plural, one {# tool} other {# tools}}.',
  mcpTestFailed: 'MCP server "{name}" did not start: {detail}',
  configInvalid: 'Config file {file} is invalid: {detail}. Fix or delete that field.',
  configUnreadable: 'Config file {file} is not valid JSON: {detail}.',
  registryCorrupt: 'The SlothTool registry {file} is corrupt: {detail}. Repair or delete it, then reinstall plugins.',
  llmBaseMissing: 'llm-base is not installed. Run: slothtool install @holic512/plugin-llm-base',
  llmBaseStale: 'llm-base is registered at {path}, but that file no longer exists. Run: slothtool install @holic512/plugin-llm-base',
  llmBaseBroken: 'llm-base at {path} could not be loaded ({detail}). Run: slothtool install @holic512/plugin-llm-base',
  bundleUnusable: 'ai could not load {file} ({detail}); it runs without it, only slower to start. Reinstall to repair: slothtool update ai',
  llmError: 'The model call failed ({code}): {message}',
  llmErrorNoProfile: 'llm-base has no usable profile: {message}',
  fallback404: 'The endpoint answered 404 for the full context; retried once with a minimal context.',
  rawReply: '[unvalidated model output]',
  repairing: 'The model reply did not follow the protocol ({error}); asking it once to repair.',
  stepLimit: 'Stopped after {n, plural, one {# automatic step} other {# automatic steps}}. Say "continue" to let the assistant go on.',
  modelError: 'The model reported an error: {message}',
  promptBlockedByHook: 'A UserPromptSubmit hook kept this message from the model: {reason}',
  turnStoppedByHook: 'A hook ended this turn (continue: false): {reason}',
  commandModelUnmapped: '/{name}: model "{model}" is neither haiku / sonnet / opus nor a profile here; this turn uses the session\'s model.',
  commandAllowUntrusted: '/{name}: its allowed-tools are not used until you trust this folder (a project\'s command may not answer questions for itself); each step is asked as usual.',
  modelFallback: 'The high model {from} could not be loaded here ({reason}); the answer comes from the low model {to} instead.',
  projectExtrasOff: 'This folder ({folder}) brings {what}, which stays off until you trust it: run `{ai} -i` here and answer the question, or /trust yes.',
  projectExtrasChanged: 'This folder ({folder}) changed {what} since you trusted it; it stays off until you trust it again: run `{ai} -i` here, or /trust yes.',
  mcpStartProblem: 'MCP server "{name}" ({source}) is not used: {error}',
  aborted: 'Aborted.',
  stepBlocked: 'blocked',
  stepDeclined: 'declined',
  notRunSteering: 'you sent a steering message; the model replans with it',
  notRunAfterStop: 'an earlier step of this plan was refused or declined',
  notRunAborted: 'stopped by you',
  notRunStepLimit: 'the step limit of this turn was reached',
  stepExit: 'exit {code}',
  stepApplied: 'applied',
  stepUnchanged: 'unchanged',
  stepError: 'error',
  declinedNoPerson: 'no person to ask in non-interactive mode (pass --approve-l1 to approve L1 steps)',
  stdinSilent: 'stdin is not a terminal but sent nothing for {seconds} s; going on without it (redirect it from /dev/null to skip the wait).',
  riskLevel: 'Level: {level}',
  riskRule: '  {id} [{level}] {reason}',
  riskHint: '    how to allow: {hint}',
  compacted: 'Context compacted ({method}): {before} → {after, plural, one {# token} other {# tokens}}.',
  interactiveWelcome: 'ai interactive — type a message, /help for commands, /exit to quit.',
  interactiveHelp:
    '/exit quit · /clear new conversation · /compact fold history · /context sizes · /cost usage · /mode low|high · /profile <name> · /sessions · /resume <id>',
  confirmPrompt: '{level} step {summary} — run? [y]es once / [a]lways this session / [N]o: ',
  sessionsNone: 'No sessions yet.',
  resumed: 'Resumed session {id}.',
  noSessionHere: 'No earlier session in this directory; starting a new one.',
  projectRulesBroken: 'The project permission rules are not applied: {problem}',
  hookIgnored: 'A hook in {file} is not used: {error}',
  claudeSettingIgnored: 'Claude Code settings {file}: {error}',
  modesUnsupported: 'the installed tool-runner has no modes; update it: slothtool update ai',
  modeSwitched: 'Mode: {mode}',
  badRunMode: 'mode {mode} cannot be used: {reason}',
  confirmTimedOut: 'nobody answered the question within {s} s (confirmTimeoutSec in ai.json), so the step was declined',
  noSessionToContinue: 'No earlier session in this directory to continue. Give a prompt: slothtool ai -p "<prompt>"',
  sessionNotSaved: 'The session can no longer be saved ({reason}): {file}. The conversation goes on in memory; free some space (or fix that folder), and /resume later picks up what was saved.',
  auditNotSaved: 'The audit log cannot be written ({reason}): {file}. Steps are judged and asked about as before; free some space (or fix that file).',
  contextSizes: 'context: system {system}, summary {summary}, tool digest {digest}, window {window} ({messages, plural, one {# message} other {# messages}}) — {total}/{budget} tokens',
  costLine: 'usage: {input} input + {output, plural, one {# output token} other {# output tokens}} over {calls, plural, one {# call} other {# calls}}',
  modeSet: 'mode: {mode}',
  profileSet: 'profile: {profile}',
  cleared: 'Conversation cleared.',
  toolRunnerMissing: 'The tool runner (@holic512/tool-runner) could not be loaded: {detail}. Reinstall: slothtool install @holic512/plugin-ai',
  unexpected: 'Unexpected error: {detail}',
  stepBlockedByHook: 'blocked by a PreToolUse hook (not run)',
  imagesNeedLlmBase: 'This llm-base cannot send images (it is older than the image support). Update it: slothtool update llm-base',
  imageMissing: 'Image {file}: no such file. Check the path (relative to {cwd}).',
  imageUnreadable: 'Image {file} could not be read ({detail}). Check that it is a file you can read.',
  imageNotImage: '{file} is not a PNG, JPEG, GIF or WebP image (judged by its content, not its name).',
  imageTooLarge: 'Image {file} is {size} MB, more than the {max} MB limit. Make it smaller (or raise images.maxBytes in ai.json if your model accepts it).',
  imageEmpty: 'Image {file} is empty.',
  imageAttached: 'Attached {file} ({size} KB, {w}×{h}, about {tokens, plural, one {# token} other {# tokens}}) to the next message.',
  // issue #36: a newcomer's first errors
  badPermissionMode: '--permission-mode must be plan, default, auto-edit or yolo, got "{value}"',
} as const;

export type MessageKey = keyof typeof en;

const zh: Record<MessageKey, string> = {
  help: `ai —— SlothTool 的终端 AI 助手

用法:
  {ai} -p "<提示>"            执行一轮后退出(也可: {ai} "<提示>")
  {ai} -i                     交互模式(在终端中直接运行 "{ai}" 也可)
  {ai} -c -p                  继续本目录会话的上一轮(例如在达到步数上限之后)
  {ai} risk [--json] -- <程序> [参数...]   显示命令的风险等级和规则
  {ai} mcp list | add | remove | test        管理 MCP 服务器（详见：{ai} mcp）
  {ai} sandbox                               实际检查操作系统沙箱（bubblewrap / Seatbelt）

选项:
  -p, --prompt <文本>       本轮的提示(管道输入的 stdin 会作为上下文附加)
  -i, --interactive         交互模式
  --json                    每个事件输出一行 JSON
  --permission-mode plan|default|auto-edit|yolo
                            哪些步骤无需询问:plan 只读,auto-edit 还可修改工作区文件,
                            yolo 所有 L1 步骤(仅在沙箱中)
  --mode low|high           llm-base 的模型档位(默认取配置);--mode plan 等权限模式
                            仍可使用,等同 --permission-mode
  --profile <名称>          使用的 llm-base 配置档
  --continue, -c            恢复在当前目录中的上一次会话
  --approve-l1              不询问直接批准 L1(需确认)步骤;L2 永远不会被批准
  --max-steps <n>           每轮自动执行的步数(默认取配置,3)
  --image <file>            随提示发送一张图片(PNG、JPEG、GIF、WEBP);可重复
  -v, --version             显示版本
  -h, --help                显示本帮助

退出码: 0 已回答, 1 错误, 2 用法或配置错误, 3 达到步数上限而停止,
4 llm-base 不可用, 5 模型报告了错误, 130 已中止。
配置: <SlothTool 主目录>/plugin-configs/ai.json   会话: <SlothTool 主目录>/ai/sessions/
语言: slothtool config language zh|en(未设置时跟随系统区域设置)

示例:
  slothtool ai -i
  slothtool ai -p "为什么 npm test 失败?"
  git diff | slothtool ai -p "审查这次改动" --json
  slothtool ai -c -p "继续" --max-steps 5
  slothtool ai --profile work --mode high "解释 src/index.ts"
  slothtool ai --approve-l1 -p "运行测试并修复失败的部分"
  slothtool ai risk -- rm -rf build
`,
  missingPrompt: '没有提供提示',
  unknownOption: '未知选项 {option}',
  missingValue: '选项 {option} 需要一个值',
  badMode: '--mode 只能是模型档位 low 或 high(或权限模式 plan、default、auto-edit、yolo),收到 "{value}"',
  badMaxSteps: '--max-steps 必须是正整数,收到 "{value}"',
  riskUsage: '用法: {ai} risk [--json] -- <程序> [参数...]',
  sandboxCheckNone: '沙箱：不可用，因为{reason}，命令将在沙箱之外运行（风险规则仍然生效）。安装 bubblewrap（Debian/Ubuntu：apt-get install bubblewrap）即可启用。',
  sandboxCheckHeader: '沙箱：{kind}。正在临时目录中实际检查：',
  sandboxCheckWrite: '拒绝在工作区之外写入',
  sandboxCheckNetwork: 'L0 没有网络',
  sandboxCheckSecret: '放置的密钥（~/.ssh）被隐藏',
  sandboxCheckWorkspace: '工作区可读',
  sandboxCheckHooks: 'L1 时 .git/hooks 只读',
  sandboxCheckAllOk: '全部检查通过。',
  sandboxCheckFailed: '有检查未通过：命令没有被按预期隔离。参见 docs/security.md（沙箱）。',
  ...SANDBOX_ZH,
  sandboxUnavailable: '没有操作系统沙箱：{reason}。命令将在沙箱之外运行，风险规则仍然生效。（安装 bubblewrap，或在 ai.json 中设置 sandbox；检查：slothtool ai sandbox）',
  permissionRuleIgnored: '忽略权限规则 "{rule}"（{file}）：{error}',
  sandboxStoppedWrite: '被沙箱阻止：它试图写入此步骤不允许修改的位置（{line}）',
  sandboxStoppedNetwork: '被沙箱阻止：它试图连接网络（{line}）',
  mcpUsage: '用法: {ai} mcp list | add <名称> -- <命令> [参数...] | add <名称> --url <地址> [--header "K: V"] | remove <名称> | test <名称>',
  mcpAddUsage: '用法: {ai} mcp add <名称> [--env K=V]... -- <命令> [参数...]   或   {ai} mcp add <名称> --url <地址> [--header "K: V"]...',
  mcpConfigBroken: '无法读取 {file}：{detail}。请修正该文件（内容必须是一个 JSON 对象）后再运行此命令。',
  mcpNone: '{file} 中没有配置 MCP 服务器。添加一个：{ai} mcp add <名称> -- <命令> [参数...]',
  mcpDisabled: '已停用',
  mcpTrusted: '已信任',
  mcpAdded: '已把 MCP 服务器 "{name}" 加入 {file}。检查它：slothtool ai mcp test {name}',
  mcpReplaced: '已替换 {file} 中的 MCP 服务器 "{name}"。检查它：slothtool ai mcp test {name}',
  mcpRemoved: '已从 {file} 中删除 MCP 服务器 "{name}"。',
  mcpUnknown: '{file} 中没有名为 "{name}" 的 MCP 服务器。查看全部：slothtool ai mcp list',
  mcpTestOk: 'MCP 服务器 "{name}" 正常：{n} 个工具。',
  mcpTestFailed: 'MCP 服务器 "{name}" 未能启动：{detail}',
  configInvalid: '配置文件 {file} 无效: {detail}。请修正或删除该字段。',
  configUnreadable: '配置文件 {file} 不是有效的 JSON: {detail}。',
  registryCorrupt: 'SlothTool 注册表 {file} 已损坏: {detail}。请修复或删除它,然后重新安装插件。',
  llmBaseMissing: '未安装 llm-base。请运行: slothtool install @holic512/plugin-llm-base',
  llmBaseStale: 'llm-base 登记在 {path},但该文件已不存在。请运行: slothtool install @holic512/plugin-llm-base',
  llmBaseBroken: '无法加载 {path} 处的 llm-base({detail})。请运行: slothtool install @holic512/plugin-llm-base',
  bundleUnusable: 'ai 无法加载 {file}（{detail}）；不用它照常运行，只是启动较慢。重新安装可修复：slothtool update ai',
  llmError: '模型调用失败({code}): {message}',
  llmErrorNoProfile: 'llm-base 没有可用的配置档: {message}',
  fallback404: '接口对完整上下文返回 404;已用最小上下文重试一次。',
  rawReply: '[未经校验的模型输出]',
  repairing: '模型回复不符合协议({error});已请求其修正一次。',
  stepLimit: '已自动执行 {n} 步后停止。输入 "continue" 让助手继续。',
  modelError: '模型报告了错误: {message}',
  promptBlockedByHook: 'UserPromptSubmit 钩子阻止了这条消息发送给模型: {reason}',
  turnStoppedByHook: '钩子结束了这一轮(continue: false): {reason}',
  commandModelUnmapped: '/{name}: 模型 "{model}" 既不是 haiku / sonnet / opus,也不是这里的配置(profile);这一轮使用会话的模型。',
  commandAllowUntrusted: '/{name}: 在你信任此目录之前不使用它的 allowed-tools(项目的命令不能替自己回答询问);每一步照常询问。',
  modelFallback: '高档模型 {from} 在此无法加载({reason});改由低档模型 {to} 回答。',
  projectExtrasOff: '此目录({folder})带有 {what},在你信任它之前不会启用: 在此运行 `{ai} -i` 并回答询问,或使用 /trust yes。',
  projectExtrasChanged: '自你信任以来，此目录({folder})的 {what} 已更改；在你再次信任之前不会启用: 在此运行 `{ai} -i`,或使用 /trust yes。',
  mcpStartProblem: 'MCP 服务器 "{name}"({source})未被使用: {error}',
  aborted: '已中止。',
  stepBlocked: '已拦截',
  stepDeclined: '已拒绝',
  notRunSteering: '你发送了调整消息，模型将据此重新规划',
  notRunAfterStop: '本计划中前面的步骤被拒绝或未获同意',
  notRunAborted: '已被你中止',
  notRunStepLimit: '已达到本轮的步数上限',
  stepExit: '退出码 {code}',
  stepApplied: '已应用',
  stepUnchanged: '无变化',
  stepError: '出错',
  declinedNoPerson: '非交互模式下无人可询问(传入 --approve-l1 可批准 L1 步骤)',
  stdinSilent: '标准输入不是终端，但 {seconds} 秒内没有任何数据；不再等待，继续执行(可用 < /dev/null 跳过等待)。',
  riskLevel: '等级: {level}',
  riskRule: '  {id} [{level}] {reason}',
  riskHint: '    如何允许: {hint}',
  compacted: '上下文已压缩({method}): {before} → {after} tokens。',
  interactiveWelcome: 'ai 交互模式 —— 输入消息,/help 查看命令,/exit 退出。',
  interactiveHelp:
    '/exit 退出 · /clear 新对话 · /compact 压缩历史 · /context 上下文大小 · /cost 用量 · /mode low|high · /profile <名称> · /sessions · /resume <id>',
  confirmPrompt: '{level} 步骤 {summary} —— 执行吗? [y] 仅此一次 / [a] 本会话总是允许 / [N] 否: ',
  sessionsNone: '还没有会话。',
  resumed: '已恢复会话 {id}。',
  noSessionHere: '此目录中没有之前的会话;将开始新会话。',
  projectRulesBroken: '项目权限规则未启用:{problem}',
  hookIgnored: '{file} 中的一个钩子未被使用:{error}',
  claudeSettingIgnored: 'Claude Code 设置 {file}:{error}',
  modesUnsupported: '已安装的 tool-runner 不支持模式;请更新:slothtool update ai',
  modeSwitched: '模式:{mode}',
  badRunMode: '无法使用 {mode} 模式:{reason}',
  confirmTimedOut: '{s} 秒内无人回答(ai.json 中的 confirmTimeoutSec),此步骤已拒绝',
  noSessionToContinue: '此目录中没有可以继续的会话。请给出提示:slothtool ai -p "<提示>"',
  sessionNotSaved: '会话无法再保存（{reason}）：{file}。对话在内存中继续；请释放磁盘空间（或修复该目录），之后 /resume 可从已保存的部分继续。',
  auditNotSaved: '审计日志无法写入（{reason}）：{file}。步骤照常判定和询问；请释放磁盘空间（或修复该文件）。',
  contextSizes: '上下文: 系统 {system}, 摘要 {summary}, 工具摘要 {digest}, 窗口 {window}({messages} 条消息)—— {total}/{budget} tokens',
  costLine: '用量: 输入 {input} + 输出 {output} tokens,共 {calls} 次调用',
  modeSet: '模式: {mode}',
  profileSet: '配置档: {profile}',
  cleared: '对话已清空。',
  toolRunnerMissing: '无法加载工具执行器 (@holic512/tool-runner): {detail}。请重新安装: slothtool install @holic512/plugin-ai',
  unexpected: '意外错误: {detail}',
  stepBlockedByHook: '被 PreToolUse 钩子拦截(未执行)',
  imagesNeedLlmBase: '当前的 llm-base 不能发送图片（它早于图片支持）。请更新：slothtool update llm-base',
  imageMissing: '图片 {file}：文件不存在。请检查路径（相对于 {cwd}）。',
  imageUnreadable: '无法读取图片 {file}（{detail}）。请确认它是一个你可以读取的文件。',
  imageNotImage: '{file} 不是 PNG、JPEG、GIF 或 WebP 图片（按内容判断，而不是文件名）。',
  imageTooLarge: '图片 {file} 有 {size} MB，超过 {max} MB 的上限。请缩小图片（如果模型支持，也可以在 ai.json 中调大 images.maxBytes）。',
  imageEmpty: '图片 {file} 是空文件。',
  imageAttached: '已将 {file}（{size} KB，{w}×{h}，约 {tokens} 个 token）附加到下一条消息。',
  // issue #36: a newcomer's first errors
  badPermissionMode: '--permission-mode 只能是 plan、default、auto-edit 或 yolo,收到 "{value}"',
};

const catalogue = defineMessages({ en, zh });

/** Look up a message and fill `{name}` placeholders; `{ai}` is how the user runs ai here
 * (`slothtool ai`, or `ai` when started on its own: shared/usage commandFor). */
export function t(lang: Lang, key: MessageKey, vars: Record<string, string | number> = {}): string {
  return catalogue.t(lang, key, { ai: aiCommand(), ...vars });
}

/** How the user runs ai (shared/usage commandFor), for usage lines and hints. */
export function aiCommand(): string {
  return commandFor('ai');
}

/** All keys, for the test that checks both tables are complete. */
export function messageKeys(): MessageKey[] {
  return catalogue.keys();
}

/** The raw tables, for completeness tests. */
export function messageTables(): Record<Lang, Record<MessageKey, string>> {
  return catalogue.tables;
}
