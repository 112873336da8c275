/**
 * The secret stores under the home folder, by class: what the approved-step (L1) sandbox hides
 * (folders behind an empty tmpfs, files behind /dev/null), and what the read-only (L0) sandbox
 * never binds back into its private home. docs/security.md §4a lists the same table.
 *
 * At L0 this table is a second line only: the L0 home is empty except an allow-list
 * (home-view.ts), so a store missing here is still not visible to an auto-run step.
 */
export const SECRET_CLASSES: ReadonlyArray<{ class: string; paths: readonly string[] }> = [
  { class: 'keys', paths: ['.ssh', '.gnupg', '.local/share/keyrings', '.password-store', '.pki'] },
  { class: 'cloud', paths: ['.aws', '.config/gcloud', '.azure', '.kube', '.oci', '.config/doctl', '.config/hcloud', '.s3cfg', '.boto', '.vault-token', '.terraform.d/credentials.tfrc.json', '.config/rclone', '.config/op'] },
  {
    class: 'registries',
    paths: ['.npmrc', '.yarnrc.yml', '.pypirc', '.config/pip', '.cargo/credentials', '.cargo/credentials.toml', '.gem/credentials', '.m2/settings.xml', '.m2/settings-security.xml', '.gradle/gradle.properties', '.docker/config.json', '.composer/auth.json', '.config/composer/auth.json', '.nuget/NuGet/NuGet.Config'],
  },
  { class: 'forges', paths: ['.git-credentials', '.netrc', '.config/gh', '.config/hub', '.config/glab-cli'] },
  {
    class: 'histories',
    paths: ['.bash_history', '.zsh_history', '.zhistory', '.histfile', '.local/share/fish/fish_history', '.python_history', '.node_repl_history', '.psql_history', '.mysql_history', '.sqlite_history', '.rediscli_history', '.irb_history', '.lesshst'],
  },
  { class: 'assistants', paths: ['.codex', '.claude/.credentials.json', '.claude.json', '.config/github-copilot', '.gemini', '.qwen', '.aider', '.continue', '.cursor', '.config/openai'] },
  { class: 'browsers', paths: ['.mozilla', '.thunderbird', '.config/google-chrome', '.config/chromium', '.config/BraveSoftware', '.config/microsoft-edge', '.config/vivaldi', '.var/app'] },
];

/** Every secret store of the table, home-relative. */
export const HOME_SECRET_STORES: readonly string[] = SECRET_CLASSES.flatMap((c) => c.paths);
