import type { RuleMessages } from '@holic512/shared/lib/messages';

/** User-facing strings of the option rules (policy/options), merged into MESSAGES (src/i18n.ts). */
export const OPTION_MESSAGES: RuleMessages = {
  'opt.write': {
    zh: '`{a}`（{o}）会让 `{p}` 写文件',
    en: '`{a}` ({o}) makes `{p}` write files',
  },
  'opt.exec': {
    zh: '`{a}`（{o}）会让 `{p}` 运行另一个程序',
    en: '`{a}` ({o}) makes `{p}` run another program',
    hintZh: '不带这个选项运行；需要它时请自己在终端里运行',
    hintEn: 'Run it without this option; if you need it, run it yourself in a terminal',
  },
  'opt.system': {
    zh: '`{a}`（{o}）会让 `{p}` 修改系统状态',
    en: '`{a}` ({o}) makes `{p}` change the system',
  },
  'opt.network': {
    zh: '`{a}`（{o}）会让 `{p}` 访问网络',
    en: '`{a}` ({o}) makes `{p}` reach the network',
  },
  'opt.unknown': {
    zh: '`{p}` 的选项 `{a}` 不在已知选项表中，无法确认它只读取',
    en: '`{p}` was given `{a}`, an option its table does not know, so it cannot be shown to only read',
    hintZh: '请使用该选项在文档中的完整写法；确认无害时可以批准',
    hintEn: "Use the option's full documented spelling; approve it if you know it is harmless",
  },
  'opt.ambiguous': {
    zh: '`{a}` 是 `{p}` 多个选项的缩写（{c}）',
    en: '`{a}` abbreviates several options of `{p}` ({c})',
    hintZh: '请写出选项的完整名称',
    hintEn: 'Write the option out in full',
  },
  'wrapper.env_unknown': {
    zh: '设置环境变量 {v}：无法确认程序会如何使用它',
    en: 'setting {v}: how the program uses it cannot be judged',
    hintZh: '不设置它再运行；确认无害时可以批准',
    hintEn: 'Run the command without it, or approve it if you know it is harmless',
  },
  'program.runs': {
    zh: '`{p}` 会运行它检查的程序',
    en: '`{p}` runs the program it inspects',
  },
  'mode.plan': {
    zh: '计划模式：只运行只读步骤；这一步会写入、执行程序或访问网络',
    en: 'plan mode: only read-only steps run; this one would write, run a program or reach the network',
    hintZh: '请用只读步骤收集信息，最后给出计划；用户切换到 default 模式后才会执行',
    hintEn: 'Gather what you need with read-only steps and end with a plan; it runs once the user switches to default mode',
  },
  'mode.auto_edit': {
    zh: 'auto-edit 模式：工作区内的文件修改无需询问',
    en: 'auto-edit mode: file edits inside the workspace run without a question',
  },
  'mode.yolo': {
    zh: 'yolo 模式：L1 步骤无需询问（在操作系统沙箱中运行）',
    en: 'yolo mode: L1 steps run without a question (inside the OS sandbox)',
  },
  'mode.yolo_no_sandbox': {
    zh: 'yolo 模式只在操作系统沙箱可用时开启（现在没有沙箱：{why}）',
    en: 'yolo mode needs the OS sandbox, which is not active ({why})',
  },
};
