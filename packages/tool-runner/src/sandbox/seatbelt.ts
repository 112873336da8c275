import path = require('path');
import { under } from './home-view';
import type { SandboxSpec } from './spec';

/** A path as a Seatbelt string literal. */
function lit(p: string): string {
  return JSON.stringify(p);
}

/**
 * A Seatbelt profile for macOS `sandbox-exec -p <profile>` with the same rules as the bubblewrap
 * sandbox: reads allowed except the hidden secret stores and, at L0, the home folder outside the
 * allow-list and the workspace (Seatbelt's later rules win over earlier ones); writes only where
 * the level allows; network only when the spec allows it. No resource limits (no prlimit on macOS).
 */
export function seatbeltProfile(spec: SandboxSpec): string {
  const lines = [
    '(version 1)',
    '(deny default)',
    '(allow process-exec)',
    '(allow process-fork)',
    '(allow signal (target same-sandbox))',
    '(allow sysctl-read)',
    '(allow mach-lookup)',
    '(allow ipc-posix-shm)',
    '(allow file-read*)',
  ];
  const home = spec.privateHome;
  if (home) {
    // Listing and stat of the home itself stay possible (path lookups need them); contents do not.
    // Seatbelt matches real paths: a bound link is allowed at its target.
    const shown = [
      ...new Set([...home.binds.flatMap((b) => [b.to, b.from]), ...(under(home.path, spec.workspace) ? [] : [spec.workspace])]),
    ];
    // The folders on the way to what is shown may be looked up (stat, realpath), not read.
    const ancestors = new Set([home.path]);
    for (const p of shown) for (let d = path.dirname(p); under(d, home.path) && d !== home.path; d = path.dirname(d)) ancestors.add(d);
    lines.push(
      `(deny file-read* (subpath ${lit(home.path)}))`,
      `(allow file-read-metadata ${[...ancestors].map((p) => `(literal ${lit(p)})`).join(' ')})`,
    );
    if (shown.length) lines.push(`(allow file-read* ${shown.map((p) => `(subpath ${lit(p)})`).join(' ')})`);
  }
  for (const h of spec.hide)
    lines.push(h.kind === 'dir' ? `(deny file-read* (subpath ${lit(h.path)}))` : `(deny file-read* (literal ${lit(h.path)}))`);
  const writable = ['/dev/null', '/dev/tty', '/dev/dtracehelper'];
  lines.push(`(allow file-write* ${writable.map((p) => `(literal ${lit(p)})`).join(' ')})`);
  if (spec.level === 'L1') {
    lines.push(`(allow file-write* (subpath ${lit(spec.workspace)}) (subpath ${lit(spec.tmpDir)}))`);
    for (const p of spec.readOnly) lines.push(`(deny file-write* (subpath ${lit(p)}))`);
  } else {
    lines.push(`(allow file-write* (subpath ${lit(spec.tmpDir)}))`);
  }
  for (const h of spec.hide)
    lines.push(h.kind === 'dir' ? `(deny file-write* (subpath ${lit(h.path)}))` : `(deny file-write* (literal ${lit(h.path)}))`);
  if (spec.network) lines.push('(allow network*)');
  else lines.push('(allow network* (remote unix-socket))', '(deny network-outbound (remote ip))');
  return lines.join('\n') + '\n';
}
