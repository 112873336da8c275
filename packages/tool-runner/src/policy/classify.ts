import path = require('path');
import type { ClassifyContext, Decision, Policy, Step } from '../types';
import type { ToolRegistry } from '../registry';
import { assess, registryOf, type AssessFacts } from './assess';
import { decide, type Verdict } from './decide';
import { render } from './render';

/**
 * What an 'allow-session' answer allows: the tool's approval key (`git commit`, `npm test`,
 * `fs.write src/a.ts`). Never wider than what was shown.
 */
export function sessionKey(step: Step, registry?: ToolRegistry): string {
  const reg = registryOf(registry);
  const checked = reg.validate(step);
  if (!checked.ok) return String((step as { tool?: unknown })?.tool ?? 'exec');
  return reg.get(checked.step.tool ?? 'exec')!.approvalKey(checked.step);
}

/** An object with no enumerable key (the usual policy: none set): nothing to keep. */
function isEmpty(o: object): boolean {
  for (const _k in o) return false;
  return true;
}

/**
 * Keep only well-formed policy settings (they come from a config file): booleans stay booleans
 * only when they are `true`, lists keep their string entries. Anything else is dropped.
 */
export function normalizePolicy(raw: unknown): Policy {
  if (!raw || typeof raw !== 'object' || isEmpty(raw)) return {};
  const r = raw as Record<string, unknown>;
  const list = (v: unknown): string[] | undefined =>
    Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string' && x.trim() !== '') : undefined;
  const out: Policy = {};
  const allowedPrograms = list(r.allowedPrograms);
  if (allowedPrograms) out.allowedPrograms = allowedPrograms;
  const trustedPlugins = list(r.trustedPlugins);
  if (trustedPlugins) out.trustedPlugins = trustedPlugins;
  const trustedCodeRoots = list(r.trustedCodeRoots)?.filter((d) => path.isAbsolute(d));
  if (trustedCodeRoots?.length) out.trustedCodeRoots = trustedCodeRoots;
  for (const k of ['allowNetwork', 'allowWrite', 'allowSudo'] as const) if (r[k] === true) out[k] = true;
  if (r.permissions && typeof r.permissions === 'object') {
    const p = r.permissions as Record<string, unknown>;
    const perms: NonNullable<Policy['permissions']> = {};
    for (const k of ['allow', 'ask', 'deny'] as const) {
      const l = list(p[k]);
      if (l?.length) perms[k] = l;
    }
    if (typeof p.source === 'string') perms.source = p.source;
    out.permissions = perms;
  }
  if (Array.isArray(r.extraPermissions)) {
    out.extraPermissions = [];
    for (const set of r.extraPermissions as unknown[]) {
      if (!set || typeof set !== 'object' || typeof (set as { source?: unknown }).source !== 'string') continue;
      const p = set as Record<string, unknown>;
      const one: NonNullable<Policy['extraPermissions']>[number] = { source: p.source as string };
      for (const k of ['allow', 'ask', 'deny'] as const) {
        const l = list(p[k]);
        if (l?.length) one[k] = l;
      }
      out.extraPermissions.push(one);
    }
  }
  if (r.allowPrivateNetwork === true) out.allowPrivateNetwork = true;
  else {
    const hosts = list(r.allowPrivateNetwork);
    if (hosts?.length) out.allowPrivateNetwork = hosts;
  }
  return out;
}

/** Structural check of an untrusted step against the tool's schema; an error text or undefined. */
export function validateStep(step: unknown, registry?: ToolRegistry): string | undefined {
  const checked = registryOf(registry).validate(step);
  return checked.ok ? undefined : checked.error;
}

/** Options of {@link classify} beyond the contract's ClassifyContext (what the tools' assess reads). */
export interface ClassifyOptions extends ClassifyContext {
  /** config.json_patch: folders, files or `*` patterns a patched file must match (the runner's: the workspace by default). */
  allowedRoots?: string[];
  /** Where `~/.slothtool` points (SLOTHTOOL_HOME). */
  slothtoolHome?: string;
  /** Real path of the workspace; default `cwd`. */
  workspace?: string;
  /** fs.*: the target resolved with symlinks followed (by the runner). Default: lexical. */
  fsTarget?: import('../workspace').ResolvedPath;
  /** fs.write: whether the session read the existing file in its current state. */
  readState?: 'read' | 'stale' | 'unread';
  /** The absolute folders of the PATH steps run with: a write there changes what runs later. */
  pathDirs?: readonly string[];
  /** web.search: whether a provider is configured (false: nothing would leave the machine). */
  webSearchConfigured?: boolean;
}

/**
 * Judge a step without language: pure and fast. {@link assess} (the tool's rules), then
 * {@link decide} (the policy's settings). The Verdict's findings keep their ids, levels and
 * params (the step's words, not redacted): word it with `renderVerdict(verdict, lang)`, which
 * redacts, at the edge that shows it. `ctx.lang` is not read.
 */
export function verdictOf(step: Step, rawPolicy: Policy = {}, ctx: ClassifyOptions = {}): Verdict {
  const policy = normalizePolicy(rawPolicy);
  // The facts without the language (assess has none), built by rest and assignment: a spread that adds a key is a slow copy.
  const { lang: _lang, ...facts } = ctx as ClassifyOptions & { policy?: Policy };
  facts.policy = policy;
  return decide(assess(step, facts as AssessFacts).findings, { policy });
}

/**
 * Judge a step: pure, fast, explainable. The strictest fired rule decides the level.
 * `requires` from the model can raise the level, never lower it. The three stages in order:
 * {@link assess} (the tool's rules), {@link decide} (the policy's settings), {@link render} in
 * `ctx.lang` (not redacted: a caller that shows it redacts, or uses verdictOf + renderVerdict).
 */
export function classify(step: Step, rawPolicy: Policy = {}, ctx: ClassifyOptions = {}): Decision {
  return render(verdictOf(step, rawPolicy, ctx), ctx.lang);
}
