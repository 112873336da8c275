/**
 * User-facing strings of the OS sandbox (issue #32): a limit a step hit, the retry offer after a
 * denial and why it was not made. Merged into MESSAGES (src/i18n.ts).
 */
const CONFIG = '~/.slothtool/plugin-configs/ai.json';

export const SANDBOX_MESSAGES: Record<string, { zh: string; en: string; hintZh?: string; hintEn?: string }> = {
  'sandbox.denied': {
    zh: '沙箱阻止了这个只读步骤写入工作区内的 `{path}`（{line}）。要以可写工作区重新运行它吗？（其余仍在沙箱中：密钥仓库隐藏，工作区之外只读）',
    en: 'the sandbox stopped this read-only step writing `{path}`, inside the workspace ({line}). Run it again with the workspace writable? (The rest stays sandboxed: secret stores hidden, outside the workspace read-only)',
  },
  'sandbox.no_retry.no_path': {
    zh: '沙箱阻止了它（{line}），但说不出是哪个路径，所以不提供在沙箱外重试',
    en: 'the sandbox stopped it ({line}) but no path can be named, so running it again with more rights is not offered',
  },
  'sandbox.no_retry.outside': {
    zh: '它试图写入工作区之外的 `{path}`：不提供在沙箱外重试',
    en: 'it tried to write `{path}`, outside the workspace: running it again with more rights is not offered',
  },
  'sandbox.no_retry.protected': {
    zh: '它试图写入受保护的 `{path}`（git 钩子或配置、.env、密钥仓库或 SlothTool 主目录）：不提供重试',
    en: 'it tried to write `{path}`, which stays protected (git hooks or config, .env, a secret store or the SlothTool home): running it again is not offered',
  },
  'sandbox.no_retry.no_person': {
    zh: '沙箱阻止了它（{line}）；无人可询问（--approve-l1、yolo 或非交互模式），不提供重试',
    en: 'the sandbox stopped it ({line}); no person can be asked (--approve-l1, yolo or non-interactive), so running it again is not offered',
  },
  'sandbox.no_retry.network': {
    zh: '沙箱阻止了它连接网络（{line}）：只读步骤没有网络，不提供重试；需要网络的步骤会先询问',
    en: 'the sandbox stopped it reaching the network ({line}): read-only steps have none and this is not offered again; a step that needs the network is asked about first',
  },
  'sandbox.no_retry.loopback': {
    zh: '它没能连接（{line}）：获准联网的步骤可以访问互联网，但访问不到本机自己的服务（127.0.0.1），除非命令里写明它们（如 `http://localhost:端口`、`--registry http://127.0.0.1:4873`）',
    en: 'it could not connect ({line}): a step granted the network reaches the internet but not this machine’s own services (127.0.0.1) unless the command names them (`http://localhost:PORT`, `--registry http://127.0.0.1:4873`)',
  },
  'sandbox.limit.setting': {
    zh: `可在 ${CONFIG} 的 sandbox.limits.{setting} 中调整`,
    en: `Change it with sandbox.limits.{setting} in ${CONFIG}`,
  },
  'sandbox.limit.memory': {
    zh: '它超出了只读步骤的内存上限（每个进程 {n} MB）而被停止',
    en: 'it was stopped by the memory limit of read-only steps ({n} MB a process)',
  },
  'sandbox.limit.memory?': {
    zh: '它像内存耗尽的进程那样异常结束（abort 或段错误），很可能是触到了只读步骤的内存上限（每个进程 {n} MB）',
    en: 'it ended the way a process out of memory does (abort or crash): probably the memory limit of read-only steps ({n} MB a process)',
  },
  'sandbox.limit.processes': {
    zh: '它无法再启动进程：只读步骤最多 {n} 个进程',
    en: 'it could not start more processes: read-only steps may have {n}',
  },
  'sandbox.degraded.capabilities': {
    zh: '它将在一个被削弱的沙箱中运行：步骤仍保有能力（capabilities）（{why}）；以 root 身份运行时，它可以撤销沙箱的挂载',
    en: 'it runs in a weakened sandbox: the step keeps capabilities ({why}); run as root it could undo the sandbox’s mounts',
    hintZh: '检查：slothtool ai sandbox（需要 bubblewrap 0.3 或更新版本）',
    hintEn: 'Check with: slothtool ai sandbox (bubblewrap 0.3 or later is needed)',
  },
  'sandbox.degraded.no_new_privs': {
    zh: '它将在一个被削弱的沙箱中运行：没有设置 no_new_privs（{why}），setuid 程序仍可提升权限',
    en: 'it runs in a weakened sandbox: no_new_privs is not set ({why}); setuid programs can still raise privileges',
    hintZh: '检查：slothtool ai sandbox',
    hintEn: 'Check with: slothtool ai sandbox',
  },
  'sandbox.degraded.seccomp': {
    zh: '它将在一个被削弱的沙箱中运行：没有 seccomp 过滤器（{why}），内核允许时它可以挂载、创建命名空间或附加到其他进程',
    en: 'it runs in a weakened sandbox: no seccomp filter ({why}); it may mount, make namespaces or attach to processes where the kernel lets it',
    hintZh: '检查：slothtool ai sandbox',
    hintEn: 'Check with: slothtool ai sandbox',
  },
  'sandbox.unsandboxed': {
    zh: '它将在操作系统沙箱之外运行（{why}）：它能做什么，只取决于你的回答',
    en: 'it runs without the OS sandbox ({why}): what it can do is bounded only by your answer',
    hintZh: '安装 bubblewrap（Debian/Ubuntu：apt-get install bubblewrap）；检查：slothtool ai sandbox',
    hintEn: 'Install bubblewrap (Debian/Ubuntu: apt-get install bubblewrap); check with: slothtool ai sandbox',
  },
  'sandbox.limit.cpu': {
    zh: '它超出了只读步骤的 CPU 时间上限（每个进程 {n} 秒）而被停止',
    en: 'it was stopped by the CPU-time limit of read-only steps ({n} s a process)',
  },
};
