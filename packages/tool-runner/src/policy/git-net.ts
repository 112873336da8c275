/**
 * git's sub-commands that talk to another repository, read with their own option tables the way
 * git's parse-options reads them (options/tables-git-net.ts): `git ls-remote --u=sh` is
 * `--upload-pack=sh`, `git clone -ccore.sshCommand=x` is `--config`, `git push --mi` is
 * `--mirror`. What the options name is judged by the shared tables: a program it runs (L2), the
 * configuration it sets (like `git -c`), the paths it writes (effects.ts: outside the workspace,
 * what runs later, system folders), and the folder a clone writes.
 */
import { writePathFindings } from './effects';
import { finding, type Finding, type JudgeCtx } from './finding';
import { compiled, lookupLong, optionName, resolveOptions, type Compiled } from './options/resolve';
import { GIT_NET_TABLES, GIT_STRATEGIES } from './options/tables-git-net';
import { gitConfigFindings } from './git-config-keys';

const own = <T>(table: Record<string, T>, key: string): T | undefined =>
  Object.prototype.hasOwnProperty.call(table, key) ? table[key] : undefined;

/**
 * The sub-command's arguments with every long option written out in full (`--mi` → `--mirror`,
 * `--no-ver` → `--no-verify`), so the rules that look for exact spellings see them. Arguments
 * that are no single option of the table stay as they are.
 */
function canonical(rest: readonly string[], c: Compiled): string[] {
  const out: string[] = [];
  for (let i = 0; i < rest.length; i++) {
    const a = rest[i];
    if (a === '--' || a === '--end-of-options') return [...out, '--', ...rest.slice(i + 1)];
    if (!a.startsWith('--')) {
      out.push(a);
      continue;
    }
    const eq = a.indexOf('=');
    const hit = lookupLong(c, a.slice(2, eq < 0 ? undefined : eq));
    if (!hit.spec) {
      out.push(a);
      continue;
    }
    const name = optionName(hit.spec).replace(/^--(no-)?/, '');
    out.push(`--${hit.negated ? 'no-' : ''}${name}${eq >= 0 ? a.slice(eq) : ''}`);
  }
  return out;
}

/** Findings of one option's role (the program it runs, the configuration it sets, the path it writes). */
function roleFindings(
  sub: string,
  given: string,
  role: string | undefined,
  value: string | undefined,
  ctx: JudgeCtx | undefined,
): Finding[] {
  if (role === 'config') return gitConfigFindings(value ?? '', `${given} ${value ?? ''}`.trim());
  if (role === 'strategy' && value !== undefined && !GIT_STRATEGIES.has(value))
    return [finding('git.exec_option', 'L2', { a: `${given} ${value}` })];
  if (role === 'out' && value !== undefined) return ctx ? writePathFindings(`git ${sub}`, [{ path: value, via: given }], ctx) : [];
  return [];
}

/**
 * The findings of a network sub-command's options and, for `clone`, of the folder it writes;
 * and its arguments written out in full. Undefined for a sub-command without a table.
 */
export function judgeGitNet(
  sub: string,
  rest: readonly string[],
  ctx: JudgeCtx | undefined,
): { findings: Finding[]; rest: string[] } | undefined {
  const table = own(GIT_NET_TABLES, sub);
  if (!table) return undefined;
  const c = compiled(table);
  const r = resolveOptions(rest, c);
  const found: Finding[] = [];
  for (const o of r.options) {
    if (o.negated) continue;
    const given = o.value !== undefined && !o.given.includes(o.value) ? `${o.given} ${o.value}` : o.given;
    if (o.spec.effect === 'exec') found.push(finding('git.exec_option', 'L2', { a: given }));
    found.push(...roleFindings(sub, o.given, o.spec.role, o.value, ctx));
  }
  // `git clone <repository> [<directory>]`: the folder it makes (default: the repository's name, here).
  if (sub === 'clone' && r.operands.length >= 2 && ctx)
    found.push(...writePathFindings('git clone', [{ path: r.operands[1], via: 'git clone' }], ctx));
  return { findings: found, rest: canonical(rest, c) };
}
