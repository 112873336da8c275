/**
 * `/trust`: what this folder brings that runs code or changes policy (`.mcp.json`,
 * `.slothtool/settings.json`, `.claude/settings.json`, project skills), each file by its name, and
 * whether it is trusted; `/trust yes` trusts it as
 * it is now (asked again when those files change), `/trust no` forgets it.
 */
import type { Lang } from '../i18n';
import { listProjectRules, listRules, removeRule } from '../sessions/permissions-store';
import type { Theme } from './theme';
import { projectExtras, TrustStore } from '../extensions/trust';
import { findGitRoot } from '../context/project-context';
import { t } from '../i18n';

export function trustCommand(arg: string, cwd: string, trustFile: string, lang: Lang): string {
  const workspace = findGitRoot(cwd) ?? cwd;
  const extras = projectExtras(workspace);
  const store = new TrustStore(trustFile);
  if (!extras.files.length) return t(lang, 'trustNothing', { folder: workspace });
  const files = extras.files.map((f) => `  ${f.rel}`).join('\n');
  if (arg === 'yes') {
    store.trust(extras);
    return `${t(lang, 'trustDone', { folder: workspace })}\n${files}`;
  }
  if (arg === 'no') {
    store.revoke(workspace);
    return t(lang, 'trustRevoked', { folder: workspace });
  }
  return `${t(lang, `trust_${store.state(extras)}` as 'trust_trusted', { folder: workspace })}\n${files}\n${t(lang, 'trustUsage')}`;
}

/**
 * `/permissions`: every rule of ai.json by effect, and the ones given for this project folder;
 * `/permissions remove <rule>` takes one out of the everywhere rules.
 */
export function permissionsText(
  arg: string,
  file: string,
  folder: string,
  theme: Theme,
  lang: Lang,
  others: ReadonlyArray<{ allow?: string[]; ask?: string[]; deny?: string[]; source: string }> = [],
): string {
  try {
    const m = /^remove\s+(.+)$/.exec(arg);
    if (m) return t(lang, removeRule(file, m[1].trim(), folder) ? 'ruleRemoved' : 'ruleMissing', { rule: m[1].trim(), file });
    const rules = listRules(file);
    const here = listProjectRules(file, folder);
    const lines: string[] = [];
    for (const effect of ['deny', 'ask', 'allow'] as const) for (const r of rules[effect]) lines.push(`  ${effect.padEnd(5)}  ${r}`);
    for (const effect of ['deny', 'ask', 'allow'] as const)
      for (const r of here[effect]) lines.push(`  ${effect.padEnd(5)}  ${r}  ${t(lang, 'rulesHere')}`);
    // The other files' rules apply too (the project's, Claude Code's); they are changed there.
    const other: string[] = [];
    for (const set of others)
      for (const effect of ['deny', 'ask', 'allow'] as const)
        for (const r of set[effect] ?? []) other.push(`  ${effect.padEnd(5)}  ${r}  · ${set.source}`);
    const mine = lines.length ? [t(lang, 'rulesHead', { file }), ...lines] : [t(lang, 'rulesNone', { file })];
    if (!other.length) return lines.length ? [...mine, theme.dim(t(lang, 'rulesUsage'))].join('\n') : mine[0];
    return [...mine, t(lang, 'rulesOther'), ...other, ...(lines.length ? [theme.dim(t(lang, 'rulesUsage'))] : [])].join('\n');
  } catch (err) {
    return theme.yellow(t(lang, 'rulesUnreadable', { file, reason: (err as Error).message }));
  }
}

/** `/skills`: the skills found, with where they come from; their index is in the system prompt. */
export function skillsText(skills: ReadonlyArray<{ name: string; description: string; scope: string; dir: string }>, lang: Lang): string {
  if (!skills.length) return t(lang, 'skillsNone');
  return [
    t(lang, 'skillsHead'),
    ...skills.map((s) => `  ${s.name}  (${t(lang, s.scope === 'user' ? 'skillUser' : 'skillProject')}: ${s.dir})  ${s.description}`),
  ].join('\n');
}

/** `/hooks`: every hook of the session, with its event, matcher and the file it came from. */
export function hooksText(hooks: ReadonlyArray<{ event: string; matcher?: RegExp; command: string; source: string }>, lang: Lang): string {
  if (!hooks.length) return t(lang, 'hooksNone');
  const matcher = (m?: RegExp) => (m ? m.source.replace(/^\^\(\?:/, '').replace(/\)\$$/, '') : '*');
  return [
    t(lang, 'hooksHead'),
    ...hooks.map((h) => `  ${h.event}  ${matcher(h.matcher)}  ${h.command.replace(/\s+/g, ' ').slice(0, 120)}  · ${h.source}`),
  ].join('\n');
}
