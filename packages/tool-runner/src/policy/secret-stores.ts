/**
 * The one table of secret stores. The sandbox hides every home-relative store of
 * {@link SECRET_CLASSES} from an approved (L1) step and never binds one into the private home of
 * an L0 step (sandbox/secrets.ts, spec.ts, home-view.ts); the policy judges a path that is, or lies
 * below, one of them by its class's level, for every tool (fs.read, exec arguments, uploads,
 * option values), whatever the spelling (`~/`, `$HOME/`, the home spelled out, `..`). Stores that
 * may lie anywhere (another user's home, a copied browser profile, a key file) are matched by
 * name: {@link SECRET_NAMES}. docs/security.md §3 and §4a list the same table.
 */
import type { Level } from '../types';

/** One class of secret stores below the home folder. */
export interface SecretClass {
  class: string;
  /** Home-relative folders or files. */
  paths: readonly string[];
  /** How reading one is judged: L2 refused, L1 asked (stores a project ships its own of, histories). */
  read: Exclude<Level, 'L0'>;
  /** Paths of this class that are only asked about (L1) when the class is refused. */
  asked?: readonly string[];
  /** Home-relative paths inside its stores that hold nothing secret (ssh's public keys, known hosts, config): judged as any other file. */
  notSecret?: RegExp;
}

const MAC = 'Library/Application Support';

export const SECRET_CLASSES: ReadonlyArray<SecretClass> = [
  {
    class: 'keys',
    read: 'L2',
    paths: ['.ssh', '.gnupg', '.pki'],
    notSecret: /^\.ssh\/(known_hosts2?|config|authorized_keys2?|[^/]*\.pub)$/i,
  },
  {
    class: 'keyrings',
    read: 'L2',
    // GNOME Keyring, KWallet (KDE 4 and 5/6), macOS Keychains.
    paths: ['.local/share/keyrings', '.local/share/kwalletd', '.kde/share/apps/kwallet', '.kde4/share/apps/kwallet', 'Library/Keychains'],
  },
  {
    class: 'password-managers',
    read: 'L2',
    // pass, gopass, 1Password (CLI and app), Bitwarden (app and CLI), LastPass CLI, Enpass.
    paths: [
      '.password-store',
      '.local/share/gopass',
      '.config/op',
      '.op',
      '.config/1Password',
      `${MAC}/1Password`,
      'Library/Group Containers/2BUA8C4S2C.com.1password',
      '.config/Bitwarden',
      '.config/Bitwarden CLI',
      `${MAC}/Bitwarden`,
      `${MAC}/Bitwarden CLI`,
      '.lpass',
      '.config/lpass',
      '.local/share/lpass',
      '.local/share/Enpass',
    ],
  },
  {
    class: 'cloud',
    read: 'L2',
    paths: [
      '.aws',
      '.config/gcloud',
      '.azure',
      '.kube',
      '.oci',
      '.config/doctl',
      '.config/hcloud',
      '.s3cfg',
      '.boto',
      '.vault-token',
      '.terraform.d/credentials.tfrc.json',
      '.config/rclone',
    ],
  },
  {
    class: 'registries',
    read: 'L2',
    paths: [
      '.npmrc',
      '.yarnrc',
      '.yarnrc.yml',
      '.config/pnpm/rc',
      '.bunfig.toml',
      '.pypirc',
      '.config/pip',
      '.cargo/credentials',
      '.cargo/credentials.toml',
      '.gem/credentials',
      '.m2/settings.xml',
      '.m2/settings-security.xml',
      '.gradle/gradle.properties',
      '.docker/config.json',
      '.composer/auth.json',
      '.config/composer/auth.json',
      '.nuget/NuGet/NuGet.Config',
    ],
    // Projects ship their own .npmrc / .yarnrc (often only a registry address): asked, as before.
    asked: ['.npmrc', '.yarnrc', '.yarnrc.yml', '.config/pnpm/rc', '.bunfig.toml', '.config/pip'],
  },
  { class: 'forges', read: 'L2', paths: ['.git-credentials', '.netrc', '.config/gh', '.config/hub', '.config/glab-cli'] },
  {
    class: 'histories',
    read: 'L1',
    paths: [
      '.bash_history',
      '.zsh_history',
      '.zhistory',
      '.histfile',
      '.local/share/fish/fish_history',
      '.python_history',
      '.node_repl_history',
      '.psql_history',
      '.mysql_history',
      '.sqlite_history',
      '.rediscli_history',
      '.irb_history',
      '.lesshst',
    ],
  },
  {
    class: 'assistants',
    read: 'L2',
    paths: [
      '.codex',
      '.claude/.credentials.json',
      '.claude.json',
      '.config/github-copilot',
      '.gemini',
      '.qwen',
      '.aider',
      '.continue',
      '.cursor',
      '.config/openai',
    ],
  },
  {
    class: 'browsers',
    read: 'L2',
    paths: [
      '.mozilla',
      '.thunderbird',
      '.librewolf',
      '.waterfox',
      '.config/google-chrome',
      '.config/google-chrome-beta',
      '.config/chromium',
      '.config/BraveSoftware',
      '.config/microsoft-edge',
      '.config/vivaldi',
      '.config/opera',
      '.var/app',
      'snap/firefox',
      'snap/chromium',
      `${MAC}/Google/Chrome`,
      `${MAC}/Chromium`,
      `${MAC}/Firefox`,
      `${MAC}/BraveSoftware`,
      `${MAC}/Microsoft Edge`,
      `${MAC}/Vivaldi`,
      `${MAC}/Arc`,
      'Library/Safari',
      'Library/Cookies',
      'Library/Containers/com.apple.Safari',
      'AppData/Local/Google/Chrome/User Data',
      'AppData/Local/Microsoft/Edge/User Data',
      'AppData/Local/BraveSoftware',
      'AppData/Roaming/Mozilla/Firefox',
    ],
  },
];

/** Every home-relative store of the table. */
export const HOME_SECRET_STORES: readonly string[] = SECRET_CLASSES.flatMap((c) => c.paths);

/** A store matched by name wherever it lies. */
export interface SecretName {
  re: RegExp;
  level: Exclude<Level, 'L0'>;
  /** Finding id; default secret.private_key (L2) or secret.read (L1); `secret.store` names its class. */
  id?: string;
  /** The class of a `secret.store` finding. */
  class?: string;
}

const BROWSER_FILES = '(Login Data|Login Data For Account|Cookies|Web Data|History|Extension Cookies|Network/Cookies|Local State)';
const FIREFOX_FILES =
  '(logins\\.json|logins-backup\\.json|key[34]\\.db|cert9\\.db|cookies\\.sqlite|signons\\.sqlite|formhistory\\.sqlite|places\\.sqlite|sessionstore[^/]*)';

export const SECRET_NAMES: readonly SecretName[] = [
  { re: /(^|\/)\.ssh(\/?$|\/(?!known_hosts$|config$|authorized_keys$|[^/]*\.pub$)[^/]+$)/, level: 'L2' },
  { re: /(^|\/)(id_rsa|id_dsa|id_ecdsa|id_ed25519|id_ecdsa_sk|id_ed25519_sk|identity)$/, level: 'L2' },
  { re: /\.(pem|key|p12|pfx|ppk|jks|keystore|kdbx)$/i, level: 'L2' },
  { re: /\.(keyring|kwl|keychain|keychain-db)$/i, level: 'L2', id: 'secret.store', class: 'keyrings' },
  { re: /\.(kdb|opvault|agilekeychain|psafe3)$/i, level: 'L2', id: 'secret.store', class: 'password-managers' },
  { re: /(^|\/)etc\/(shadow|gshadow|sudoers|master\.passwd)(-|$|\/)/, level: 'L2' },
  { re: /(^|\/)etc\/ssh\/ssh_host_[^/]*_key$/, level: 'L2' },
  { re: /(^|\/)\.gnupg(\/|$)/, level: 'L2' },
  { re: /(^|\/)\.aws(\/credentials)?\/?$/, level: 'L2' },
  { re: /(^|\/)(\.netrc|_netrc|\.git-credentials|\.vault-token|\.pgpass|\.my\.cnf)$/, level: 'L2' },
  // Keyrings, password stores and browser profiles in any home (another user's, a copy).
  {
    re: /(^|\/)(\.local\/share\/(keyrings|kwalletd)|\.kde4?\/share\/apps\/kwallet|Library\/Keychains)(\/|$)/i,
    level: 'L2',
    id: 'secret.store',
    class: 'keyrings',
  },
  {
    re: /(^|\/)(\.password-store|\.local\/share\/(gopass|lpass)|\.config\/(Bitwarden( CLI)?|1Password|op)|Group Containers\/[^/]*\.com\.1password)(\/|$)/i,
    level: 'L2',
    id: 'secret.store',
    class: 'password-managers',
  },
  {
    re: new RegExp(`(^|/)(Default|Profile [0-9]+|Guest Profile|System Profile)/${BROWSER_FILES}$`),
    level: 'L2',
    id: 'secret.store',
    class: 'browsers',
  },
  {
    re: new RegExp(`(^|/)[^/]+\\.(default|default-[a-z0-9-]+|dev-edition-default)/${FIREFOX_FILES}$`, 'i'),
    level: 'L2',
    id: 'secret.store',
    class: 'browsers',
  },
  { re: /(^|\/)(Login Data|Login Data For Account|key[34]\.db)$/, level: 'L2', id: 'secret.store', class: 'browsers' },
  { re: /(^|\/)\.env(\.(?!example$|sample$|template$|dist$|defaults$)[^/]+)?$/, level: 'L1' },
  // Per-user credential files: refused like keys. A project's own .npmrc / .yarnrc.yml (often only
  // a registry address) asks; the sandbox hides the home one at L0 either way.
  { re: /(^|\/)(\.pypirc|\.gem\/credentials|\.docker\/config\.json|\.kube\/config)$/, level: 'L2', id: 'secret.read' },
  { re: /(^|\/)\.config\/(gh\/hosts\.yml|gcloud(\/|$)|hub$)/, level: 'L2', id: 'secret.read' },
  { re: /(^|\/)(\.npmrc|\.yarnrc\.yml|\.aws\/config)$/, level: 'L1' },
  { re: /(^|\/)\.slothtool\/plugin-configs(\/|$)/, level: 'L2', id: 'secret.slothtool' },
  { re: /(^|\/)\.[a-z]*_history$/, level: 'L1' },
  { re: /(^|\/)proc\/[^/]+\/environ$/, level: 'L1' },
  { re: /(^|\/)(credentials|secrets?)\.(json|ya?ml|toml)$/i, level: 'L1' },
];

/** Every name pattern needs one of these substrings: a cheap filter before the table. */
export const SECRET_HINT =
  /ssh|id_|identity|\.(pem|key|p12|pfx|ppk|jks|keystore|kdb|keyring|kwl|keychain|opvault|agilekeychain|psafe3)|shadow|sudoers|passwd|gnupg|aws|netrc|credential|vault|pgpass|my\.cnf|env|npmrc|pypirc|yarnrc|docker|kube|config|slothtool|history|secret|keyrings|kwallet|gopass|lpass|password-store|Keychains|1password|Bitwarden|Login Data|Cookies|Web Data|History|Local State|key[34]\.db|logins|cert9|sqlite|sessionstore/i;

/** The table's entries by their first path segment, lower-cased: a path is compared with the few that can hold it. */
const BY_FIRST = new Map<string, Array<{ store: string; lower: string; class: string; level: Exclude<Level, 'L0'>; notSecret?: RegExp }>>();
for (const c of SECRET_CLASSES) {
  for (const store of c.paths) {
    const lower = store.toLowerCase();
    const first = lower.split('/')[0];
    const list = BY_FIRST.get(first) ?? [];
    list.push({ store, lower, class: c.class, level: c.asked?.includes(store) ? 'L1' : c.read, notSecret: c.notSecret });
    BY_FIRST.set(first, list);
  }
}

/** A path that names a segment some store of the table starts with: only such a path (or one read from such a folder) can lie in one. */
export const STORE_SEGMENT_RE = new RegExp(
  `(^|/)(${[...BY_FIRST.keys()].map((k) => k.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})(/|$)`,
  'i',
);

/** The class entry a home-relative path is, or lies below (compared without case: macOS and Windows homes ignore it). */
export function homeSecretStore(rel: string): { store: string; class: string; level: Exclude<Level, 'L0'> } | undefined {
  const r = rel.toLowerCase();
  const slash = r.indexOf('/');
  const entries = BY_FIRST.get(slash < 0 ? r : r.slice(0, slash));
  if (!entries) return undefined;
  for (const e of entries)
    if ((r === e.lower || r.startsWith(e.lower + '/')) && !e.notSecret?.test(rel))
      return { store: e.store, class: e.class, level: e.level };
  return undefined;
}
