import path = require('path');

/** What `slothtool install <spec>` was given. */
export type InstallSpec =
  /** A name on the npm registry, maybe with a version or tag: `@holic512/plugin-ai@1.2.0`. */
  | { kind: 'registry'; spec: string; name: string }
  /** A local package folder (absolute). Installed as a copy (`--install-links`), not a symlink. */
  | { kind: 'folder'; path: string }
  /** A local `.tgz` / `.tar.gz` / `.tar` made by `npm pack` (absolute). */
  | { kind: 'tarball'; path: string }
  /** Anything else npm understands (git URL, https tarball, `npm:` alias): passed through. */
  | { kind: 'other'; spec: string };

const TARBALL = /\.(tgz|tar\.gz|tar)$/i;

function looksLikePath(spec: string): boolean {
  return (
    spec.startsWith('.') ||
    spec.startsWith('/') ||
    spec.startsWith('~/') ||
    spec.startsWith('file:') ||
    /^[a-zA-Z]:[\\/]/.test(spec) ||
    spec.startsWith('\\\\')
  );
}

/**
 * Classify a spec the way npm would, without touching the disk. Relative paths are made
 * absolute against `cwd` (npm would resolve them against the install prefix instead).
 * Whether a path is a folder or a tarball is decided by its extension.
 */
export function classifySpec(spec: string, cwd: string, homeDir: string): InstallSpec {
  const isUrl = /^[a-z+]+:\/\//i.test(spec) || spec.startsWith('git@') || /^(github|gitlab|bitbucket|gist):/.test(spec);
  if (isUrl) return { kind: 'other', spec };
  if (looksLikePath(spec) || (TARBALL.test(spec) && !spec.startsWith('@'))) {
    let p = spec.startsWith('file:') ? spec.slice('file:'.length) : spec;
    if (p === '~' || p.startsWith('~/')) p = path.join(homeDir, p.slice(1));
    const abs = path.resolve(cwd, p);
    return TARBALL.test(abs) ? { kind: 'tarball', path: abs } : { kind: 'folder', path: abs };
  }
  if (/^(npm:|workspace:)/.test(spec) || spec.includes('@npm:')) return { kind: 'other', spec };
  if (spec.includes('/') && !spec.startsWith('@')) return { kind: 'other', spec }; // github shorthand user/repo
  const at = spec.indexOf('@', spec.startsWith('@') ? 1 : 0);
  return { kind: 'registry', spec, name: at === -1 ? spec : spec.slice(0, at) };
}

/** The argument given to `npm install` for a spec, and extra flags it needs. */
export function npmInstallArgs(spec: InstallSpec): { target: string; flags: string[] } {
  switch (spec.kind) {
    case 'folder':
      return { target: spec.path, flags: ['--install-links'] };
    case 'tarball':
      return { target: spec.path, flags: [] };
    default:
      return { target: spec.spec, flags: [] };
  }
}
