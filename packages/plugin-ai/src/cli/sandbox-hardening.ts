import fs = require('fs');
import path = require('path');
import { t, type Lang, type MessageKey } from '../i18n';
import type { Check } from './sandbox-command';

/**
 * The rows of `slothtool ai sandbox` that read what a step can do to the sandbox itself (issue
 * #43): its capabilities at each level and no_new_privs (from /proc/self/status inside), the
 * seccomp filter (`Seccomp: 2`, and `unshare -U` refused), a remount of `/` that must fail and
 * write nothing outside, an unmount of a hidden folder that must fail and leave it hidden. Each
 * probe runs in the real sandbox of its level, in the check's scratch folder.
 */

/** What these checks need of tool-runner's answers. */
export interface InsideStatus {
  capabilities: { effective: string; permitted: string; bounding: string; ambient: string };
  noNewPrivs: boolean;
  seccomp: boolean;
}

export interface HardeningContext {
  lang: Lang;
  /** The scratch folder (writable from outside, read-only to the step) and the home planted with `.ssh/id_check`. */
  root: string;
  home: string;
  secret: string;
  /** What the sandbox says it could not take away. */
  degraded: ReadonlyArray<{ what: 'capabilities' | 'no_new_privs' | 'seccomp'; why: string }>;
  run(level: 'L0' | 'L1', program: string, args: string[]): Promise<{ exitCode: number | null; stdoutTail: string; stderrTail: string }>;
  parseInside(status: string): InsideStatus | undefined;
  findProgram(name: string): string | undefined;
}

function firstLine(text: string): string {
  return text.trim().split('\n')[0]?.slice(0, 300) ?? '';
}

const zero = (mask: string) => /^0+$/.test(mask);

const DEGRADED: Record<HardeningContext['degraded'][number]['what'], MessageKey> = {
  capabilities: 'sandboxDegradedCapabilities',
  no_new_privs: 'sandboxDegradedNoNewPrivs',
  seccomp: 'sandboxDegradedSeccomp',
};

/** What the sandbox could not take away, in words: `steps keep capabilities (…); no seccomp filter (…)`. */
export function degradedText(lang: Lang, degraded: HardeningContext['degraded']): string {
  return degraded.map((d) => t(lang, DEGRADED[d.what], { why: d.why })).join(lang === 'zh' ? '；' : '; ');
}

/** `weakened: steps keep capabilities (…)`, for the row of what the sandbox could not take away. */
function weakened(lang: Lang, ctx: HardeningContext, what: ReadonlyArray<'capabilities' | 'no_new_privs' | 'seccomp'>): string {
  const those = ctx.degraded.filter((d) => what.includes(d.what));
  return those.length ? t(lang, 'sandboxWeakened', { what: degradedText(lang, those) }) : '';
}

const join = (lang: Lang, parts: string[]) => parts.filter(Boolean).join(lang === 'zh' ? '；' : '; ');

/** The capability row: every set empty and no_new_privs at both levels. Returns the L1 status too (the filter row reads it). */
async function capabilities(ctx: HardeningContext): Promise<{ check: Check; l1?: InsideStatus }> {
  const { lang } = ctx;
  const seen: Partial<Record<'L0' | 'L1', InsideStatus>> = {};
  const details: string[] = [];
  for (const level of ['L0', 'L1'] as const) {
    const r = await ctx.run(level, 'cat', ['/proc/self/status']);
    const inside = r.exitCode === 0 ? ctx.parseInside(r.stdoutTail) : undefined;
    if (!inside) {
      details.push(t(lang, 'sandboxCapsUnread', { level }));
      continue;
    }
    seen[level] = inside;
    const c = inside.capabilities;
    if (!(zero(c.effective) && zero(c.permitted) && zero(c.bounding) && zero(c.ambient) && inside.noNewPrivs)) {
      details.push(t(lang, 'sandboxCapsHeld', { level, ...c, nnp: inside.noNewPrivs ? 1 : 0 }));
    }
  }
  const ok = details.length === 0;
  const detail = ok ? t(lang, 'sandboxCapsNone') : join(lang, [...details, weakened(lang, ctx, ['capabilities', 'no_new_privs'])]);
  return { check: { key: 'sandboxCheckCapabilities', ok, detail }, ...(seen.L1 ? { l1: seen.L1 } : {}) };
}

/** The filter row: `Seccomp: 2` at L1, and `unshare -U true` refused there. */
async function seccomp(ctx: HardeningContext, l1: InsideStatus | undefined): Promise<Check> {
  const { lang } = ctx;
  const unshare = ctx.findProgram('unshare');
  let probe = t(lang, 'sandboxNotTried', { program: 'unshare' });
  let refused = true;
  if (unshare) {
    const r = await ctx.run('L1', unshare, ['-U', 'true']);
    refused = r.exitCode !== 0;
    probe = firstLine(r.stderrTail) || `exit ${String(r.exitCode)}`;
  }
  const ok = l1?.seccomp === true && refused;
  const shown = t(lang, 'sandboxSeccompShown', { mode: l1 ? (l1.seccomp ? 2 : 0) : '?', probe });
  return { key: 'sandboxCheckSeccomp', ok, detail: ok ? shown : join(lang, [shown, weakened(lang, ctx, ['seccomp'])]) };
}

/** `mount -o remount,rw /` at L1, then a write to the scratch folder: the write must not land. */
async function remount(ctx: HardeningContext): Promise<Check> {
  const marker = path.join(ctx.root, 'written-after-remount');
  const mount = ctx.findProgram('mount');
  const script = `${mount ? `"${mount}" -o remount,rw / || ` : ''}true; echo escaped > "$1"`;
  const r = await ctx.run('L1', '/bin/sh', ['-c', script, 'sh', marker]);
  const escaped = fs.existsSync(marker);
  const detail = mount
    ? firstLine(r.stderrTail)
    : join(ctx.lang, [t(ctx.lang, 'sandboxNotTried', { program: 'mount' }), firstLine(r.stderrTail)]);
  return { key: 'sandboxCheckRemount', ok: !escaped, detail };
}

/** `umount ~/.ssh` at L1, then a read of the secret planted there: it must stay hidden. */
async function unmount(ctx: HardeningContext): Promise<Check> {
  const dir = path.join(ctx.home, '.ssh');
  const umount = ctx.findProgram('umount');
  const script = `${umount ? `"${umount}" "$1"; ` : ''}cat "$1/id_check"`;
  const r = await ctx.run('L1', '/bin/sh', ['-c', script, 'sh', dir]);
  const detail = umount ? firstLine(r.stderrTail) : t(ctx.lang, 'sandboxNotTried', { program: 'umount' });
  return { key: 'sandboxCheckUnmount', ok: !r.stdoutTail.includes(ctx.secret), detail };
}

/** The four rows, in order. */
export async function hardeningChecks(ctx: HardeningContext): Promise<Check[]> {
  const caps = await capabilities(ctx);
  return [caps.check, await seccomp(ctx, caps.l1), await remount(ctx), await unmount(ctx)];
}
