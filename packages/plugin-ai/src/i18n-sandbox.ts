/** `slothtool ai sandbox`'s strings for the private home and the limits (issue #32), merged into the tables of i18n.ts. */
export const SANDBOX_EN = {
  sandboxCheckPrivateHome: 'the home is private at L0: a planted history and an unknown dotfile are not readable',
  sandboxCheckAllowed: 'allow-listed files (~/.gitconfig) are readable at L0',
  sandboxCheckLimits: 'resource limits are in force at L0',
  sandboxLimitsShown: 'memory {memory} MB, CPU {cpu} s, processes {processes}',
  sandboxLimitsRoot: 'the process limit is not in force: running as root, which the kernel exempts from it',
  sandboxLimitsNoPrlimit: 'no limits: prlimit (util-linux) is not installed',
  sandboxLimitsSeatbelt: 'no limits: macOS has no prlimit',
  sandboxLimitsOff: 'no limits: turned off in ai.json (sandbox.limits: false)',
};

export const SANDBOX_ZH: Record<keyof typeof SANDBOX_EN, string> = {
  sandboxCheckPrivateHome: 'L0 时主目录是私有的：放置的历史记录和陌生的点文件都不可读',
  sandboxCheckAllowed: 'L0 时允许列表中的文件（~/.gitconfig）可读',
  sandboxCheckLimits: 'L0 时资源上限生效',
  sandboxLimitsShown: '内存 {memory} MB，CPU {cpu} 秒，进程 {processes} 个',
  sandboxLimitsRoot: '进程数上限不生效：以 root 运行，内核对 root 不施加此上限',
  sandboxLimitsNoPrlimit: '没有上限：未安装 prlimit（util-linux）',
  sandboxLimitsSeatbelt: '没有上限：macOS 没有 prlimit',
  sandboxLimitsOff: '没有上限：已在 ai.json 中关闭（sandbox.limits: false）',
};
