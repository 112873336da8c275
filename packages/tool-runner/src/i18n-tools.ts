/**
 * User-facing strings of the fs.*, http.get and proc.* tools (issue #10): rule reasons and
 * hints, and the notes and errors their results carry. Merged into MESSAGES (src/i18n.ts).
 */
import type { RuleMessages } from '@holic512/shared/lib/messages';

const CONFIG = '~/.slothtool/plugin-configs/ai.json';

export const TOOL_MESSAGES: RuleMessages = {
  // ── rules ──
  'fs.read': { zh: '读取工作区内的文件 `{f}`', en: 'reads `{f}` inside the workspace' },
  'fs.outside': {
    zh: '`{f}` 在工作区（{w}）之外',
    en: '`{f}` is outside the workspace ({w})',
  },
  'fs.outside_write': {
    zh: '`{f}` 在工作区（{w}）之外：每次都会询问，且 /undo 不能恢复',
    en: '`{f}` is outside the workspace ({w}): asked every time, and /undo cannot restore it',
  },
  'fs.broad_workspace': {
    zh: '工作区是 {w}（根目录或主目录本身），其中的文件都按工作区之外对待',
    en: 'the workspace is {w} (the root or the home folder itself), so every file counts as outside it',
    hintZh: '在项目目录（git 仓库）中启动 ai，读取其中的文件就无需询问',
    hintEn: 'Start ai in a project folder (a git repository) to read its files without being asked',
  },
  'fs.symlink_escape': {
    zh: '`{f}` 是指向工作区之外 `{r}` 的符号链接',
    en: '`{f}` is a symbolic link to `{r}`, outside the workspace',
  },
  'fs.secret_outside': {
    zh: '`{f}` 在工作区之外，通常保存着密钥、令牌或密码',
    en: '`{f}` is outside the workspace and usually holds keys, tokens or passwords',
    hintZh: '如确有需要，请自己查看这个文件，只把需要的部分告诉助手',
    hintEn: 'If needed, look at the file yourself and tell the assistant only what it needs',
  },
  'fs.slothtool_home': {
    zh: '`{f}` 属于 SlothTool 自身的配置或插件',
    en: '`{f}` belongs to SlothTool’s own configuration or plugins',
    hintZh: '修改配置请用 config.json_patch 步骤（会显示打码后的差异并询问）',
    hintEn: 'Change configuration with a config.json_patch step (it shows a masked diff and asks)',
  },
  'fs.edit': { zh: '修改文件 `{f}`（先显示差异）', en: 'edits `{f}` (the diff is shown first)' },
  'fs.overwrite': { zh: '覆盖文件 `{f}`（先显示差异）', en: 'overwrites `{f}` (the diff is shown first)' },
  'fs.create': { zh: '创建文件 `{f}`（先显示开头）', en: 'creates `{f}` (its head is shown first)' },
  'fs.unread_overwrite': {
    zh: '`{f}` 已存在，但本会话没有读过它，覆盖可能丢失内容',
    en: '`{f}` exists but was not read in this session; overwriting it may lose content',
    hintZh: '先用 fs.read 读取，或用 fs.edit 只改需要的部分',
    hintEn: 'Read it with fs.read first, or change only what is needed with fs.edit',
  },
  'fs.stale_overwrite': {
    zh: '`{f}` 在本会话读取之后又被改动过，覆盖可能丢失这些改动',
    en: '`{f}` changed after it was read in this session; overwriting it may lose those changes',
    hintZh: '先用 fs.read 重新读取',
    hintEn: 'Read it again with fs.read first',
  },
  'http.get': { zh: '通过网络获取 {u}', en: 'fetches {u} over the network' },
  'http.invalid': { zh: '`{u}` 不是有效的网址', en: '`{u}` is not a valid URL' },
  'http.scheme': {
    zh: '只支持 http 和 https，`{u}` 使用的是 {s}',
    en: 'only http and https are supported; `{u}` uses {s}',
  },
  'http.private': {
    zh: '`{h}` 是本机、内网或链路本地地址（{r}）',
    en: '`{h}` is a loopback, private or link-local address ({r})',
    hintZh: `如需访问本机或内网服务，请在 ${CONFIG} 设置 allowPrivateNetwork: true`,
    hintEn: `To reach local or private services, set allowPrivateNetwork: true in ${CONFIG}`,
  },
  'proc.status': { zh: '查看后台进程的状态和新输出', en: 'reads the status and new output of a background process' },
  'proc.kill': { zh: '结束本会话启动的后台进程', en: 'ends a background process this session started' },
  'proc.background': { zh: '在后台运行，之后用 proc.status 查看', en: 'runs in the background; watch it with proc.status' },
  'proc.detach': {
    zh: '会话结束后仍继续运行（输出写入 SlothTool 主目录下的 ai/detached/ 日志文件，/ps 可列出）',
    en: 'keeps running after the session ends (output goes to a log file in ai/detached/ of the SlothTool home; /ps lists it)',
  },

  // ── notes and errors in results ──
  'fs.err.not_found': { zh: '文件 `{f}` 不存在', en: 'the file `{f}` does not exist' },
  'fs.err.is_dir': { zh: '`{f}` 是目录，不是文件', en: '`{f}` is a folder, not a file' },
  'fs.err.not_file': { zh: '`{f}` 不是普通文件', en: '`{f}` is not a regular file' },
  'fs.err.binary': {
    zh: '`{f}` 是二进制文件（{n} 字节），没有读取内容',
    en: '`{f}` is a binary file ({n, plural, one {# byte} other {# bytes}}); its content was not read',
  },
  'fs.err.too_large': {
    zh: '`{f}` 有 {n} 字节，超过 {max} 字节的上限；请用 exec 的 head/tail/rg 读取其中一部分',
    en: '`{f}` has {n, plural, one {# byte} other {# bytes}}, more than the {max}-byte limit; read parts of it with exec head/tail/rg',
  },
  'fs.err.old_not_found': {
    zh: '在 `{f}` 中找不到 old_string；请先用 fs.read 查看当前内容，并逐字复制要替换的文本（包括空白和缩进）',
    en: 'old_string was not found in `{f}`; read the current content with fs.read and copy the text to replace exactly (whitespace and indentation included)',
  },
  'fs.err.redacted_old': {
    zh: 'old_string 含有 [redacted]：读取时被遮盖的密钥不在文件里，无法这样匹配；请只替换它前后的文本，或请用户自己修改这一行',
    en: 'old_string contains [redacted]: secrets masked when the file was read are not in the file that way; replace only the text around them, or ask the user to change that line',
  },
  'fs.err.ambiguous': {
    zh: 'old_string 在 `{f}` 中出现了 {n} 次；请加入前后几行让它唯一，或设置 "replace_all": true 替换全部',
    en: 'old_string occurs {n, plural, one {once} other {# times}} in `{f}`; add surrounding lines to make it unique, or set "replace_all": true to replace every one',
  },
  'fs.err.same': { zh: 'old_string 与 new_string 相同，没有要改的', en: 'old_string and new_string are the same; nothing to change' },
  'fs.err.empty_old': {
    zh: 'old_string 为空；要创建或整体替换文件请用 fs.write',
    en: 'old_string is empty; use fs.write to create or replace a whole file',
  },
  'fs.err.changed': {
    zh: '`{f}` 在确认期间被改动过，没有写入；请重新读取后再试',
    en: '`{f}` changed while waiting for confirmation and was not written; read it again and retry',
  },
  'fs.err.moved': {
    zh: '`{f}` 在判断之后指向了别处（{r}），没有写入',
    en: '`{f}` points somewhere else ({r}) than when it was judged; nothing was written',
  },
  'fs.err.moved_read': {
    zh: '`{f}` 在判断之后被移动或替换了（例如途中的目录换成了链接），没有读取',
    en: '`{f}` was moved or replaced after it was judged (a folder on the way became a link, say); nothing was read',
  },
  'fs.err.no_parent': { zh: '目录 `{d}` 不存在', en: 'the folder `{d}` does not exist' },
  'fs.note.truncated': {
    zh: '只显示了第 {from}–{to} 行（共 {total} 行）；用 "offset": {next} 继续读取',
    en: 'showing lines {from}–{to} of {total}; read on with "offset": {next}',
  },
  'fs.note.cut_lines': { zh: '有 {n} 行超过 {max} 个字符，已截断', en: '{n, plural, one {# line longer than {max} characters was cut} other {# lines longer than {max} characters were cut}}' },
  'fs.note.past_end': { zh: '文件只有 {total} 行', en: 'the file has only {total, plural, one {# line} other {# lines}}' },
  'http.err.private': {
    zh: '`{h}` 解析到 {a}（{r}），这是本机、内网或链路本地地址',
    en: '`{h}` resolves to {a} ({r}), a loopback, private or link-local address',
    hintZh: `如需访问，请在 ${CONFIG} 设置 allowPrivateNetwork: true`,
    hintEn: `To allow it, set allowPrivateNetwork: true in ${CONFIG}`,
  },
  'http.err.redirects': { zh: '重定向超过 {n} 次', en: 'more than {n, plural, one {# redirect} other {# redirects}}' },
  'http.err.loop': { zh: '重定向形成循环（{u}）', en: 'redirect loop ({u})' },
  'http.err.scheme': { zh: '重定向到了不支持的地址 `{u}`', en: 'redirected to an unsupported URL `{u}`' },
  'http.err.timeout': { zh: '{ms} 毫秒内没有完成', en: 'did not finish within {ms} ms' },
  'http.err.binary': {
    zh: '内容类型 {t} 不是文本，没有读取',
    en: 'the content type {t} is not text; the body was not read',
  },
  'http.note.truncated': { zh: '正文超过 {max} 字节，只读取了前 {max} 字节', en: 'the body is larger than {max} bytes; only the first {max} bytes were read' },
  'proc.err.unknown': {
    zh: '没有 id 为 `{p}` 的后台进程（本会话的进程：{list}）',
    en: 'no background process `{p}` (processes of this session: {list})',
  },
  'agent.delegate': {
    zh: '启动一个助手代理（模式 {m}）：它的每个步骤都会像这里的步骤一样被判断、询问并放入沙箱',
    en: 'starts a helper agent (mode {m}): each of its steps is judged, asked about and sandboxed like the steps here',
  },
  'proc.err.too_many': {
    zh: '已有 {n} 个后台进程在运行；请先用 proc.kill 结束一些',
    en: '{n, plural, one {# background process is} other {# background processes are}} already running; end some with proc.kill first',
  },
};
