/** User-facing strings of the link, workspace-program, self-configuration, container and discard rules, merged into MESSAGES (src/i18n.ts). */
export const RULE_MESSAGES: Record<string, { zh: string; en: string; hintZh?: string; hintEn?: string }> = {
  'path.link_escape': {
    zh: '`{f}` 经过符号链接指向工作区之外的 `{r}`',
    en: '`{f}` leads through a link to `{r}`, outside the workspace',
  },
  'path.link_in_tree': {
    zh: '这个搜索会跟随符号链接：它要搜索的目录里的 `{f}` 指向工作区之外的 `{r}`',
    en: 'this search follows links: `{f}` below where it searches leads to `{r}`, outside the workspace',
  },
  'path.link_tree_unknown': {
    zh: '这个搜索会跟随符号链接，而要搜索的目录太大，无法逐一检查其中的链接',
    en: 'this search follows links, and where it searches is too large to check every link in it',
  },
  'path.links_unchecked': {
    zh: '这一步的路径参数太多：只检查了前 {n} 个经过的链接',
    en: 'this step names too many paths: only the first {n} were checked for links',
  },
  'workspace.python_path': {
    zh: '`{p}` 会把工作目录放在 sys.path 最前面：工作区里的 `{m}` 模块或包会代替真正的那个运行',
    en: '`{p}` puts the working folder first on sys.path: a `{m}` module or package in the workspace would run instead of the real one',
    hintZh: '改用 `python -P -m …`（Python 3.11+）或 `python -I -m …`，它们不会从工作目录导入',
    hintEn: 'Use `python -P -m …` (Python 3.11+) or `python -I -m …`, which do not import from the working folder',
  },
  'workspace.rust_toolchain': {
    zh: '`{p}` 会运行工作区的 `{f}` 按路径指定的工具链（仓库里的程序）',
    en: '`{p}` runs the toolchain that `{f}` in the workspace names by a path (a program from the repository)',
  },
  'workspace.kubeconfig': {
    zh: '`{p} {a}`：kubeconfig 的 users[].user.exec 会运行它指定的凭据程序',
    en: '`{p} {a}`: a kubeconfig runs the credential program its users[].user.exec names',
  },
  'self.config': {
    zh: '`{a}` 会修改 SlothTool 自己的配置（插件、设置或模型配置及其 API 密钥）',
    en: "`{a}` changes SlothTool's own configuration (plugins, settings, or profiles with their API keys)",
    hintZh: '这只能由你自己在终端里运行，例如 `slothtool llm-base config update …`',
    hintEn: 'Only you can do this, in a terminal (for example `slothtool llm-base config update …`)',
  },
  'container.privileged': {
    zh: '`{p}` 以特权模式运行容器：它可以控制宿主机',
    en: '`{p}` runs a privileged container: it controls the host',
  },
  'container.namespace': {
    zh: '`{p}` 让容器共用宿主机的命名空间（进程、网络或用户）',
    en: "`{p}` shares the host's namespace (processes, network or users) with the container",
  },
  'container.device': {
    zh: '`{p}` 让容器访问宿主机的设备或内核能力',
    en: "`{p}` gives the container the host's devices or kernel capabilities",
  },
  'container.unconfined': {
    zh: '`{p}` 关闭了容器的安全限制',
    en: "`{p}` turns off the container's confinement",
  },
  'container.mount_root': {
    zh: '`{p}` 把宿主机的根目录挂载进容器：容器可以读写整个系统',
    en: "`{p}` mounts the host's root into the container: it can read and change the whole system",
  },
  'container.mount_home': {
    zh: '`{p}` 把你的主目录（或其上层目录）挂载进容器：其中的密钥和配置都会暴露',
    en: '`{p}` mounts your home folder (or a folder above it) into the container: every key and configuration in it is exposed',
  },
  'container.mount_socket': {
    zh: '`{p}` 把容器引擎的套接字交给容器：它可以以 root 身份启动新的容器控制宿主机',
    en: "`{p}` hands the container engine's socket to the container: it can start containers that control the host as root",
  },
  'container.engine_api': {
    zh: '`{p}` 会连接容器引擎的 API：它可以以 root 身份启动挂载宿主机根目录的容器，等同于控制宿主机',
    en: "`{p}` talks to the container engine's API: it can start a container that mounts the host's root, which is control of the host as root",
  },
  'socket.local': {
    zh: '`{p}` 会连接本机套接字 `{s}`，与在那里监听的本地服务通信（这不是网络访问，沙箱关闭网络也挡不住它）',
    en: '`{p}` connects to the local socket `{s}` and talks to the service listening there (not the network: turning the network off in the sandbox does not stop it)',
  },
  'container.mount_system': {
    zh: '`{p}` 把宿主机的系统目录挂载进容器',
    en: '`{p}` mounts a system folder of the host into the container',
  },
  'container.mount_secret': {
    zh: '`{p}` 把密钥存储挂载进容器',
    en: '`{p}` mounts a secret store into the container',
  },
  'git.discard': {
    zh: '`git {s} {a}` 会丢弃未提交（或暂存区中）的工作，无法恢复',
    en: '`git {s} {a}` throws away uncommitted (or stashed) work, for good',
    hintZh: '先提交或 `git stash push` 保存它；确实要丢弃时请自己在终端运行',
    hintEn: 'Commit it or keep it with `git stash push` first; if it really should go, run it yourself in a terminal',
  },
  'git.help_viewer': {
    zh: '`{a}` 会用仓库配置可指定的查看器（man.viewer、man.<tool>.cmd、web.browser）打开手册',
    en: '`{a}` opens the manual with the viewer the repository config may name (man.viewer, man.<tool>.cmd, web.browser)',
  },
  'git.textconv': {
    zh: '`{a}` 会运行仓库配置指定的 textconv 或过滤程序',
    en: "`{a}` runs the textconv or filter programs the repository's configuration names",
  },
  'git.archive_command': {
    zh: '`{a}` 会运行仓库配置中 `tar.{f}.command` 指定的程序',
    en: "`{a}` runs the program `tar.{f}.command` names in the repository's configuration",
  },
};
