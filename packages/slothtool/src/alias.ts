/**
 * The alias rule of the original host: strip the npm scope, then a leading `plugin-`.
 * `@holic512/plugin-ai` -> `ai`, `plugin-loc` -> `loc`, `cowsay` -> `cowsay`.
 */
export function aliasFromName(packageName: string): string {
  return packageName.replace(/^@[^/]+\//, '').replace(/^plugin-/, '');
}

/**
 * An alias becomes a folder name under `plugins/` and a command word, so it must be a plain
 * npm-style name segment: no path separators, not `.`/`..`, no leading dot or dash.
 */
export function isValidAlias(alias: string): boolean {
  return /^[a-z0-9~][a-z0-9._~-]*$/i.test(alias) && alias !== '.' && alias !== '..';
}
