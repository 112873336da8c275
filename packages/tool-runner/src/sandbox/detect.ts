import type { BwrapHardening } from './bwrap';

/**
 * Finding how strong a bubblewrap sandbox can be made here, once per runner: the strongest set
 * of hardening options bubblewrap accepts, and what a step then really holds, read from
 * `/proc/self/status` inside it (capabilities, no_new_privs, the seccomp filter). What cannot be
 * had is said (`degraded`), never left out silently.
 */

/** How a trial run is made (a test seam): `fds` are given to the command as fds 3, 4, … */
export type Trial = (
  program: string,
  args: string[],
  fds?: readonly Buffer[],
) => { status: number | null; stdout?: string; stderr: string; error?: string };

/** What a step holds inside the sandbox (hex masks as /proc shows them). */
export interface InsideStatus {
  capabilities: { effective: string; permitted: string; bounding: string; ambient: string };
  noNewPrivs: boolean;
  /** A seccomp filter is in force (`Seccomp: 2`). */
  seccomp: boolean;
}

/** What the sandbox could not take away from a step, and the line that says why. */
export interface Degradation {
  what: 'capabilities' | 'no_new_privs' | 'seccomp';
  why: string;
}

/** The strongest first; each later one drops what an older bubblewrap or a host may refuse. */
const LADDER: readonly BwrapHardening[] = [
  { userns: true, disableUserns: true, capDrop: true, seccomp: true },
  // bubblewrap before 0.8 has no --disable-userns (the filter refuses new user namespaces anyway)
  { userns: true, disableUserns: false, capDrop: true, seccomp: true },
  // no user namespaces here (a container as root): capabilities are dropped all the same
  { userns: false, disableUserns: false, capDrop: true, seccomp: true },
  // a setuid bubblewrap takes no --cap-drop from a user (it drops theirs itself: read back inside)
  { userns: true, disableUserns: false, capDrop: false, seccomp: true },
  { userns: false, disableUserns: false, capDrop: false, seccomp: true },
  // no filter (a kernel without seccomp filters, or no filter for this host)
  { userns: true, disableUserns: true, capDrop: true, seccomp: false },
  { userns: true, disableUserns: false, capDrop: true, seccomp: false },
  { userns: false, disableUserns: false, capDrop: true, seccomp: false },
];

export const NO_HARDENING: BwrapHardening = { userns: false, disableUserns: false, capDrop: false, seccomp: false };

/** The hardening options as bubblewrap arguments (the filter read from fd 3). */
export function hardeningArgs(h: BwrapHardening): string[] {
  const args: string[] = [];
  if (h.userns) args.push('--unshare-user');
  if (h.disableUserns) args.push('--disable-userns');
  if (h.capDrop) args.push('--cap-drop', 'ALL');
  if (h.seccomp) args.push('--seccomp', '3');
  return args;
}

const MASK = /^[0-9a-f]+$/i;

/** The capability, no_new_privs and seccomp lines of /proc/self/status; undefined when they are not all there. */
export function parseInside(status: string): InsideStatus | undefined {
  const field = (name: string) => new RegExp(`^${name}:\\s*(\\S+)`, 'm').exec(status)?.[1];
  const [eff, prm, bnd, amb, nnp, sec] = ['CapEff', 'CapPrm', 'CapBnd', 'CapAmb', 'NoNewPrivs', 'Seccomp'].map(field);
  if (![eff, prm, bnd, amb].every((m) => m !== undefined && MASK.test(m)) || nnp === undefined) return undefined;
  return {
    capabilities: { effective: eff!, permitted: prm!, bounding: bnd!, ambient: amb! },
    noNewPrivs: nnp === '1',
    seccomp: sec === '2',
  };
}

/** Whether no capability is left in any of the four sets. */
export function noCapabilities(inside: InsideStatus): boolean {
  return Object.values(inside.capabilities).every((m) => /^0+$/.test(m));
}

/** What `inside` shows was not taken away; `why` says what was tried. Pure. */
export function degradations(inside: InsideStatus | undefined, why: { capabilities: string; seccomp: string }): Degradation[] {
  if (!inside) return [{ what: 'capabilities', why: 'could not read /proc/self/status inside the sandbox' }];
  const out: Degradation[] = [];
  if (!noCapabilities(inside)) out.push({ what: 'capabilities', why: why.capabilities });
  if (!inside.noNewPrivs) out.push({ what: 'no_new_privs', why: why.capabilities });
  if (!inside.seccomp) out.push({ what: 'seccomp', why: why.seccomp });
  return out;
}

function firstLine(r: ReturnType<Trial>): string {
  return (r.error ?? r.stderr.trim().split('\n')[0]) || `exit ${String(r.status)}`;
}

export type Detected =
  { ok: false; reason: string } | { ok: true; hardening: BwrapHardening; inside?: InsideStatus; degraded: Degradation[] };

/**
 * Try bubblewrap: the strongest hardening first; when that fails, the plain sandbox (if that
 * fails too there is none: `reason`), then the ladder down to what works. `base` is a trivial
 * sandbox command line before `--`; `reader` prints /proc/self/status (`cat /proc/self/status`), run inside.
 */
export function detectBwrap(
  bwrap: string,
  base: readonly string[],
  reader: readonly string[],
  trial: Trial,
  filter: Buffer | undefined,
): Detected {
  const attempt = (h: BwrapHardening) => trial(bwrap, [...base, ...hardeningArgs(h), '--', ...reader], h.seccomp && filter ? [filter] : []);
  const usable = LADDER.filter((h) => !h.seccomp || filter);
  let failure: string | undefined;
  let seccompFailure: string | undefined;
  for (const [i, h] of usable.entries()) {
    const r = attempt(h);
    if (r.status === 0) {
      const inside = parseInside(r.stdout ?? '');
      const noFilter = filter
        ? `bubblewrap could not install it (${seccompFailure ?? failure ?? 'refused'})`
        : `no filter is built for ${process.arch} (only x86-64 and aarch64)`;
      return {
        ok: true,
        hardening: h,
        ...(inside ? { inside } : {}),
        degraded: degradations(inside, { capabilities: `bubblewrap did not drop them (${failure ?? 'refused'})`, seccomp: noFilter }),
      };
    }
    failure ??= firstLine(r);
    if (h.seccomp) seccompFailure = firstLine(r);
    if (i === 0) {
      // Is there a sandbox at all? One plain trial decides, before the ladder is climbed down.
      const plain = attempt(NO_HARDENING);
      if (plain.status !== 0) return { ok: false, reason: firstLine(plain) };
    }
  }
  const r = attempt(NO_HARDENING);
  if (r.status !== 0) return { ok: false, reason: firstLine(r) };
  const inside = parseInside(r.stdout ?? '');
  return {
    ok: true,
    hardening: NO_HARDENING,
    ...(inside ? { inside } : {}),
    degraded: degradations(inside, {
      capabilities: `bubblewrap refused --cap-drop (${failure ?? 'refused'})`,
      seccomp: `bubblewrap refused --seccomp (${seccompFailure ?? failure ?? 'refused'})`,
    }),
  };
}
