/** What the policy lets through that the rules alone would not: allowedPrograms entries and scripts in trusted code folders. */
import path = require('path');
import { finding, type Finding, type JudgeCtx } from './finding';

/**
 * An allowedPrograms entry (`"terraform"`, `"node scripts/build.js"`, `"git lg"`) matching this
 * command turns its allowable L2 findings (unknown program, script file, unknown subcommand)
 * into a confirmation. Other findings stay as they are.
 */
export function allowByPolicy(program: string, args: readonly string[], found: Finding[], ctx: JudgeCtx): Finding[] {
  const entries = ctx.policy.allowedPrograms ?? [];
  if (!found.some((f) => f.allowable && f.level === 'L2')) return found;
  const trusted = trustedScript(found, ctx);
  if (trusted) return trusted;
  const match = entries.find((entry) => {
    const [prog, ...prefix] = entry.trim().split(/\s+/);
    return prog === program && prefix.every((p, i) => args[i] === p);
  });
  if (!match) return found;
  return [
    ...found.map((f) => (f.allowable && f.level === 'L2' ? { ...f, level: 'L1' as const } : f)),
    finding('program.allowed_by_policy', 'L1', { p: match }),
  ];
}

/**
 * A script inside a trusted code folder (policy.trustedCodeRoots: the session's skill folders),
 * named as the program or as an interpreter's script: its allowable L2 findings become L1 (asked,
 * as project code). Resolved against the step's folder; `..` cannot leave the root.
 */
function trustedScript(found: Finding[], ctx: JudgeCtx): Finding[] | undefined {
  const roots = ctx.policy.trustedCodeRoots ?? [];
  if (!roots.length) return undefined;
  const f = found.find((x) => x.allowable && x.level === 'L2' && (x.id === 'program.path' || x.id === 'interp.script'));
  const named = f?.id === 'program.path' ? f.params?.p : f?.params?.a;
  const base = ctx.runCwd ?? ctx.cwd;
  if (!named || !base) return undefined;
  const abs = path.resolve(base, named);
  const root = roots.find((r) => {
    const rel = path.relative(r, abs);
    return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel);
  });
  if (!root) return undefined;
  return [
    ...found.map((x) => (x === f ? { ...x, level: 'L1' as const } : x)),
    finding('program.trusted_code', 'L1', { a: named, r: root }),
  ];
}

/** Base name of a path-like program, for matching allowedPrograms entries. */
export function programBase(program: string): string {
  return path.posix.basename(program.replace(/\\/g, '/'));
}
