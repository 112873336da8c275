/**
 * The one table of files and folders whose contents decide what runs later: shell and session
 * start-up files, git's configuration and hooks, configurations that name programs, hooks or
 * package registries, editors' project files that run commands (a VS Code task that runs when the
 * folder opens, settings naming the executables extensions start, a dev container's
 * `initializeCommand`, which runs on the host), ssh's configuration and authorized keys, what a desktop, systemd, cron or
 * launchd starts, and the folders programs and modules are looked up in (PATH folders, the step's
 * own PATH among them). A write there is refused (L2 `write.persistence`) whichever tool does it:
 * exec and proc.start (a command's write targets, a download's destination), fs.write, fs.edit
 * and config.json_patch (paths.ts, fs-rules.ts, registry/config-json-patch.ts).
 */
import path = require('path');

/** Why a write there matters; each has its own reason (messages/effects.json `write.persistence.<class>`). */
export type RunsLaterClass = 'startup' | 'git' | 'tool-config' | 'ide' | 'ssh' | 'autostart' | 'lookup';

/** Names matched wherever they lie (a dotfiles repository, another user's home, a virtual environment). */
const NAMES: ReadonlyArray<{ re: RegExp; class: RunsLaterClass }> = [
  {
    class: 'startup',
    re: /(^|\/)(\.bashrc|\.bash_profile|\.bash_login|\.bash_logout|\.bash_aliases|\.bashrc\.d|\.profile|\.zshrc|\.zprofile|\.zshenv|\.zlogin|\.zlogout|\.cshrc|\.tcshrc|\.login|\.kshrc|\.mkshrc|\.inputrc|\.xprofile|\.xinitrc|\.xsession|\.xsessionrc|\.pam_environment|\.config\/(fish|zsh|environment\.d|powershell)|\.oh-my-zsh|Documents\/(Windows)?PowerShell)(\/|$)/,
  },
  // Python runs every .pth file of site-packages and sitecustomize/usercustomize at start-up.
  { class: 'startup', re: /(^|\/)(site-packages\/[^/]+\.pth|sitecustomize\.py|usercustomize\.py)$/ },
  // What interactive interpreters, REPLs and debuggers run when they start.
  {
    class: 'startup',
    re: /(^|\/)(\.ipython|\.config\/ipython|\.jupyter|\.irbrc|\.pryrc|\.psqlrc|\.sqliterc|\.myclirc|\.gdbinit|\.config\/gdb|\.lldbinit|\.Rprofile|\.julia\/config|\.ghci|\.erlang|\.sbtrc|\.pythonrc(\.py)?)(\/|$)/,
  },
  // Assistants' settings name the hooks, MCP servers and commands they run (Claude Code, Codex, Gemini CLI, Qwen Code, Cursor, opencode, Continue).
  {
    class: 'tool-config',
    re: /(^|\/)(\.claude\/settings(\.local)?\.json|\.claude\.json|\.claude\/hooks|\.codex\/config\.toml|\.gemini\/settings\.json|\.qwen\/settings\.json|\.cursor\/mcp\.json|\.config\/opencode|\.continue\/config\.(json|yaml|ts))(\/|$)/,
  },
  { class: 'git', re: /(^|\/)(\.git|\.gitconfig|\.config\/git|\.husky)(\/|$)/ },
  // Editors run what these name, outside any sandbox: VS Code's tasks (`runOn: folderOpen`), launch
  // configurations and settings (the executables extensions start), a dev container's commands
  // (`initializeCommand` runs on the host), JetBrains' run and start-up configurations, Zed's settings and tasks.
  {
    class: 'ide',
    re: /(^|\/)(\.vscode\/(tasks|launch|settings)\.json|[^/]*\.code-workspace|\.devcontainer(\.json)?|\.idea\/(workspace\.xml|runConfigurations)|\.zed\/(settings|tasks)\.json)(\/|$)/,
  },
  { class: 'ssh', re: /(^|\/)\.ssh\/(authorized_keys2?|config|config\.d|rc|environment)(\/|$)/ },
  {
    class: 'tool-config',
    re: /(^|\/)(\.npmrc|\.yarnrc|\.yarnrc\.yml|\.config\/pnpm|pip\.conf|pip\.ini|\.pip|\.config\/pip|\.pypirc|\.pydistutils\.cfg|\.cargo\/config|\.cargo\/config\.toml|\.config\/uv|\.config\/pypoetry|\.condarc|\.gemrc|\.bundle\/config|\.m2\/settings\.xml|\.gradle\/(init\.d|init\.gradle|init\.gradle\.kts|gradle\.properties)|\.docker\/config\.json|\.kube\/config|\.config\/gh|\.config\/containers|\.bunfig\.toml|\.rustup\/settings\.toml|\.curlrc|\.wgetrc|\.mailcap|\.vimrc|\.gvimrc|\.exrc|\.vim|\.config\/nvim|\.emacs|\.emacs\.d|\.config\/emacs|\.tmux\.conf|\.config\/tmux|\.screenrc|\.config\/direnv|\.config\/(i3|sway|hypr|openbox)|\.gnupg|\.slothtool)(\/|$)/,
  },
  {
    class: 'autostart',
    re: /(^|\/)(\.config\/(autostart|autostart-scripts|systemd|plasma-workspace\/(env|shutdown))|\.local\/share\/(applications|systemd)|\.kde4?\/Autostart|Library\/(LaunchAgents|LaunchDaemons|StartupItems)|var\/spool\/cron|var\/at\/tabs|usr\/lib\/cron\/tabs|etc\/cron[^/]*|Start Menu\/Programs\/Startup)(\/|$)/,
  },
];

/** Every name of {@link NAMES} has a segment starting with `.` or one of these words: a cheap test before the table. */
const NAMED =
  /(^|\/)\.|site-packages|customize\.py|code-workspace|Library\/|Documents\/|var\/spool|var\/at\/|usr\/lib\/cron|etc\/cron|Start Menu/;

/**
 * Folders below the home where programs (or modules) are looked up later: a file put there runs
 * in place of the real one. `*` is one path segment. The step's own PATH adds its folders
 * ({@link runsLaterClass}'s `pathDirs`).
 */
export const LOOKUP_DIRS_IN_HOME: readonly string[] = [
  '.local/bin',
  'bin',
  '.bin',
  '.cargo/bin',
  'go/bin',
  '.go/bin',
  '.npm-global',
  '.npm-packages',
  '.yarn/bin',
  '.config/yarn/global',
  '.bun/bin',
  '.deno/bin',
  '.volta/bin',
  '.nvm/versions/node/*/bin',
  '.nvm/versions/node/*/lib/node_modules',
  '.nodenv/shims',
  '.pyenv/shims',
  '.pyenv/bin',
  '.rbenv/shims',
  '.rbenv/bin',
  '.jenv/shims',
  '.goenv/shims',
  '.asdf/shims',
  '.asdf/bin',
  '.local/share/mise/shims',
  '.local/share/pnpm',
  'Library/pnpm',
  '.local/share/fnm',
  '.pixi/bin',
  '.dotnet/tools',
  '.composer/vendor/bin',
  '.config/composer/vendor/bin',
  '.krew/bin',
  '.foundry/bin',
  '.rd/bin',
  '.ghcup/bin',
  '.cabal/bin',
  '.nix-profile/bin',
  '.poetry/bin',
  '.pulumi/bin',
  '.fly/bin',
  '.elan/bin',
  '.juliaup/bin',
  '.sdkman/candidates',
  '.local/lib/python*/site-packages',
  'Library/Python/*/lib/python/site-packages',
];

/** The home's lookup folders as patterns of absolute paths (a string fact per home, kept for the last home asked). */
let lastHome: { home: string; res: RegExp[] } | undefined;
function homeLookupRes(home: string): RegExp[] {
  if (lastHome?.home === home) return lastHome.res;
  const esc = (s: string) => s.replace(/[.+^${}()|[\]\\?]/g, '\\$&');
  const res = LOOKUP_DIRS_IN_HOME.map((rel) => new RegExp('^' + esc(`${home}/${rel}`).split('*').join('[^/]+') + '(/|$)'));
  lastHome = { home, res };
  return res;
}

/** Where a write is judged: the home (for its lookup folders) and the step's PATH folders (absolute). */
export interface RunsLaterCtx {
  home?: string;
  pathDirs?: readonly string[];
}

/**
 * The class of a path (normalised, `/` separated) whose contents decide what runs later, or
 * undefined. A folder of the home that holds a lookup folder (`~/.local` holds `~/.local/bin`)
 * counts too: replacing it replaces the folder below; the home itself is judged elsewhere.
 */
export function runsLaterClass(p: string, ctx: RunsLaterCtx = {}): RunsLaterClass | undefined {
  if (NAMED.test(p)) for (const n of NAMES) if (n.re.test(p)) return n.class;
  const home = ctx.home ? cleanDir(ctx.home) : undefined;
  if (home && p.startsWith(home + '/')) {
    if (homeLookupRes(home).some((re) => re.test(p))) return 'lookup';
    const rel = p.slice(home.length + 1);
    if (LOOKUP_DIRS_IN_HOME.some((d) => d.startsWith(rel + '/'))) return 'lookup';
  }
  // PATH finds programs directly in its folders: the folder itself and what lies right in it (a workspace below one is not).
  if (ctx.pathDirs) for (const d of cleanDirs(ctx.pathDirs)) if (d !== home && (p === d || path.posix.dirname(p) === d)) return 'lookup';
  return undefined;
}

/** A folder with `/` separators, normalised, without a trailing slash (a string fact, kept for the last one asked). */
let lastDir: { raw: string; clean: string } | undefined;
function cleanDir(raw: string): string {
  if (lastDir?.raw !== raw) lastDir = { raw, clean: path.posix.normalize(raw.replace(/\\/g, '/')).replace(/(.)\/+$/, '$1') };
  return lastDir.clean;
}

/** A PATH's absolute folders, cleaned once per list (a runner passes the same list to every judgement). */
const CLEAN_DIRS = new WeakMap<readonly string[], string[]>();
function cleanDirs(dirs: readonly string[]): string[] {
  let clean = CLEAN_DIRS.get(dirs);
  if (!clean) {
    clean = dirs
      .map((d) => path.posix.normalize(d.replace(/\\/g, '/')).replace(/(.)\/+$/, '$1'))
      .filter((d) => d.startsWith('/') && d !== '/');
    CLEAN_DIRS.set(dirs, clean);
  }
  return clean;
}

/** The absolute folders of an environment's PATH (relative entries are dropped when steps run: exec-tool.ts). */
export function pathDirsOf(env: Readonly<Record<string, string | undefined>>): string[] {
  const key = Object.keys(env).find((k) => k.toUpperCase() === 'PATH');
  const value = key ? env[key] : undefined;
  if (!value) return [];
  return [...new Set(value.split(path.delimiter).filter((d) => path.isAbsolute(d)))];
}
