/**
 * User-facing strings of fs.glob, fs.grep and web.search (issue #35): rule reasons, and the
 * notes and errors their results carry. Merged into MESSAGES (src/i18n.ts).
 */
const CONFIG = '~/.slothtool/plugin-configs/ai.json';

export const SEARCH_MESSAGES: Record<string, { zh: string; en: string; hintZh?: string; hintEn?: string }> = {
  // ── rules ──
  'fs.search': { zh: '在工作区内的 `{f}` 中查找（只读）', en: 'searches `{f}` inside the workspace (read-only)' },
  'web.search': {
    zh: '把查询发送给网页搜索服务（网络）',
    en: 'sends the query to the web search provider (network)',
    hintZh: `不再询问：在 ${CONFIG} 的 permissions.allow 中加入 "web.search"`,
    hintEn: `To stop being asked, add "web.search" to permissions.allow in ${CONFIG}`,
  },

  'web.search.unconfigured': {
    zh: '没有设置网页搜索服务：不会发出任何请求，结果会说明要设置什么',
    en: 'no web search provider is set: nothing is sent, and the result says what to set',
  },

  // ── notes and errors in results ──
  'search.err.not_found': { zh: '`{f}` 不存在', en: '`{f}` does not exist' },
  'search.err.not_dir': { zh: '`{f}` 不是目录；fs.glob 在目录中查找', en: '`{f}` is not a folder; fs.glob searches a folder' },
  'search.note.time': { zh: '查找超过 {s} 秒，已停止；结果不完整，请缩小 path 或 pattern', en: 'the search took more than {s} s and stopped; results are incomplete: narrow path or pattern' },
  'search.note.entries': { zh: '目录项太多，查找已停止；结果不完整，请缩小 path', en: 'too many entries: the walk stopped and results are incomplete; narrow path' },
  'glob.err.pattern': {
    zh: '`{p}` 不能用作相对于 path 的 glob（不能以 / 开头，也不能含 ..）；要查别处请设置 path',
    en: '`{p}` is not a glob relative to path (no leading / and no ..); set path to search elsewhere',
  },
  'glob.note.more': { zh: '共 {n} 个文件匹配，只列出最新的 {shown} 个；请把 pattern 写得更具体', en: '{n, plural, one {# file matches} other {# files match}}; only the newest {shown} are listed: make the pattern more specific' },
  'glob.summary': { zh: '{p}：{n} 个文件', en: '{p}: {n, plural, one {# file} other {# files}}' },
  'grep.err.pattern': {
    zh: '`{p}` 不是有效的正则表达式：{e}',
    en: '`{p}` is not a valid regular expression: {e}',
  },
  'grep.err.glob': { zh: '`{g}` 不是有效的 glob：{e}', en: '`{g}` is not a valid glob: {e}' },
  'grep.note.js_fallback': {
    zh: 'ripgrep 不支持这个表达式（如环视、反向引用），改用 JavaScript 正则在 Node 中查找',
    en: 'ripgrep does not support this expression (look-around, back-references): searched with a JavaScript regular expression in Node instead',
  },
  'grep.note.count': { zh: '匹配超过 {n} 行，已停止计数；请把 pattern 写得更具体', en: 'more than {n, plural, one {# matching line} other {# matching lines}}: counting stopped; make the pattern more specific' },
  'grep.note.time': {
    zh: '查找超过 {s} 秒，已停止；结果不完整，请缩小 path、加上 glob 或简化 pattern',
    en: 'the search took more than {s} s and stopped; results are incomplete: narrow path, add a glob or simplify the pattern',
  },
  'grep.note.more': { zh: '共 {n} 行匹配，只显示前 {shown} 行；可用 maxResults、path 或 glob 缩小范围', en: '{n, plural, one {# line matches} other {# lines match}}; the first {shown} are shown: narrow with maxResults, path or glob' },
  'grep.note.skipped': {
    zh: '{n} 个可能含密钥的文件（.env、私钥、凭据）没有搜索，见 skipped',
    en: '{n, plural, one {# file that may hold secrets was} other {# files that may hold secrets were}} not searched (.env, keys, credentials): see skipped',
  },
  'grep.summary': { zh: '{n} 行匹配，{files} 个文件（{e}）', en: '{n, plural, one {# matching line} other {# matching lines}} in {files, plural, one {# file} other {# files}} ({e})' },
  'search.err.no_provider': {
    zh: `没有设置网页搜索服务：在 ${CONFIG} 中设置 "webSearch"`,
    en: `no web search provider is set: set "webSearch" in ${CONFIG}`,
    hintZh: '例如 "webSearch": {"provider": "searxng", "url": "http://127.0.0.1:8888"}，或 {"provider": "brave", "apiKey": "env:BRAVE_API_KEY"}、{"provider": "tavily", "apiKey": "env:TAVILY_API_KEY"}',
    hintEn: 'For example "webSearch": {"provider": "searxng", "url": "http://127.0.0.1:8888"}, or {"provider": "brave", "apiKey": "env:BRAVE_API_KEY"}, {"provider": "tavily", "apiKey": "env:TAVILY_API_KEY"}',
  },
  'search.err.no_key': {
    zh: '{p} 需要 API 密钥：环境变量 {v} 没有设置（ai.json 的 webSearch.apiKey 写作 "env:{v}"）',
    en: '{p} needs an API key: the environment variable {v} is not set (webSearch.apiKey in ai.json reads "env:{v}")',
  },
  'search.err.status': { zh: '{p} 返回 HTTP {n}：{b}', en: '{p} answered HTTP {n}: {b}' },
  'search.err.answer': { zh: '{p} 的回答不是预期的 JSON 搜索结果', en: 'the answer of {p} is not the JSON search result expected' },
  'search.err.aborted': { zh: '搜索已中止', en: 'the search was stopped' },
  'search.summary': { zh: '{p}：{n} 条结果', en: '{p}: {n, plural, one {# result} other {# results}}' },
};
