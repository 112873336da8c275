import * as path from 'path';
import { message } from '../i18n';
import type { ClassifyContext, Decision, Level, Policy, Requires, Rule, Step } from '../types';
import { finding, type Finding } from './finding';
import type { ToolRegistry } from '../registry';
import type { Touches } from '../registry/types';
import { lazy } from '../lazy';

const modRegistry = lazy(() => require('../registry') as typeof import('../registry'));

function registryOf(registry?: ToolRegistry): ToolRegistry {
  return registry ?? modRegistry().builtinRegistry();
}

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

/**
 * Keep only well-formed policy settings (they come from a config file): booleans stay booleans
 * only when they are `true`, lists keep their string entries. Anything else is dropped.
 */
export function normalizePolicy(raw: unknown): Policy {
  if (!raw || typeof raw !== 'object') return {};
  const r = raw as Record<string, unknown>;
  const list = (v: unknown): string[] | undefined => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string' && x.trim() !== '') : undefined);
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

function requiresFindings(req: Requires | undefined, policy: Policy): Finding[] {
  if (!req || typeof req !== 'object') return [];
  const out: Finding[] = [];
  if (req.elevated === true) out.push(finding('requires.elevated', policy.allowSudo ? 'L1' : 'L2'));
  if (req.confirm === true) out.push(finding('requires.confirm', 'L1'));
  if (req.write === true && !policy.allowWrite) out.push(finding('requires.write', 'L1'));
  if (req.network === true && !policy.allowNetwork) out.push(finding('requires.network', 'L1'));
  return out;
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
}

/** Lower L1 findings whose every category the policy allows; add a rule saying so. */
function applyPolicy(found: Finding[], policy: Policy): Finding[] {
  const out: Finding[] = [];
  for (const f of found) {
    const cats = f.cat ?? [];
    const allowed = f.level === 'L1' && cats.length > 0 && cats.every((c) => (c === 'network' ? policy.allowNetwork : policy.allowWrite));
    if (!allowed) {
      out.push(f);
      continue;
    }
    out.push({ ...f, level: 'L0' });
    const setting = cats.map((c) => (c === 'network' ? 'allowNetwork' : 'allowWrite')).join(' + ');
    out.push(finding('policy.lowered', 'L0', { setting }));
  }
  return out;
}

/** Turn findings into the user-facing decision: strictest first, duplicates dropped. */
export function render(found: Finding[], lang: ClassifyContext['lang'] = 'zh'): Decision {
  const language = lang ?? 'zh';
  let level: Level = 'L0';
  for (const f of found) if (f.level === 'L2' || (f.level === 'L1' && level === 'L0')) level = f.level;
  // Strictest first (stable within a level), duplicates dropped. Above L0, "only reads" would
  // only confuse: those rules are not even rendered, except the ones that say why something
  // was let through.
  const buckets: Record<Level, Rule[]> = { L2: [], L1: [], L0: [] };
  const seen = new Set<string>();
  for (const f of found) {
    if (level !== 'L0' && f.level === 'L0' && f.id !== 'policy.lowered' && f.id !== 'session.allowed' && f.id !== 'permission.allow') continue;
    const { reason, hint } = message(f.msg ?? f.id, language, f.params, f.level !== 'L0');
    const key = `${f.id}|${f.level}|${reason}`;
    if (seen.has(key)) continue;
    seen.add(key);
    buckets[f.level].push(hint ? { id: f.id, level: f.level, reason, hint } : { id: f.id, level: f.level, reason });
  }
  const rules = buckets.L1.length || buckets.L0.length ? [...buckets.L2, ...buckets.L1, ...buckets.L0] : buckets.L2;
  return { level, rules };
}

/** A judged step before rendering: the fired rules (tool's assess, `requires`, the policy) and what it touches. */
export function assessStep(step: Step, rawPolicy: Policy = {}, ctx: ClassifyOptions = {}, registry?: ToolRegistry): { findings: Finding[]; touches?: Touches } {
  const policy = normalizePolicy(rawPolicy);
  const reg = registryOf(registry);
  const checked = reg.validate(step);
  if (!checked.ok) return { findings: [finding('step.invalid', 'L2', { e: checked.error })] };
  const valid = checked.step;
  const assessed = reg.get(valid.tool ?? 'exec')!.assess(valid, { ...ctx, policy });
  const found = [...assessed.findings, ...requiresFindings(valid.requires, policy)];
  return { findings: applyPolicy(found, policy), touches: assessed.touches };
}

/** The findings behind {@link classify}, before rendering. */
export function classifyFindings(step: Step, rawPolicy: Policy = {}, ctx: ClassifyOptions = {}, registry?: ToolRegistry): Finding[] {
  return assessStep(step, rawPolicy, ctx, registry).findings;
}

/**
 * Judge a step: pure, fast, explainable. The strictest fired rule decides the level.
 * `requires` from the model can raise the level, never lower it.
 */
export function classify(step: Step, policy: Policy = {}, ctx: ClassifyOptions = {}): Decision {
  return render(classifyFindings(step, policy, ctx), ctx.lang);
}
