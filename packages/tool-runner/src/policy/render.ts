import { message } from '../i18n';
import type { Decision, Lang, Level, Rule } from '../types';
import type { Verdict } from './decide';

/** L0 findings shown beside a stricter level: the ones that say why something was let through. */
const SHOWN_WHEN_STRICTER = new Set(['policy.lowered', 'session.allowed', 'permission.allow']);

/**
 * Stage 3 of a judgement: word a verdict in a language, for the edge that shows it (the question,
 * `--json`, `ai risk`, the model's observation). Strictest rule first (stable within a level),
 * duplicates dropped; above L0, "only reads" would only confuse, so those rules are left out.
 * Reasons quote the step's arguments: a caller whose text leaves the process redacts it (the
 * runner, whose decisions reach the question, `--json`, the audit and the model; `ai risk`).
 * `classify` stays pure and fast: it renders without redacting.
 */
export function render(verdict: Pick<Verdict, 'level' | 'findings'>, lang: Lang = 'zh'): Decision {
  const { level } = verdict;
  const buckets: Record<Level, Rule[]> = { L2: [], L1: [], L0: [] };
  // Duplicates (same id, level and reason): a scan of the few rules a step has, a set of keys when it has many.
  const seen = verdict.findings.length > 16 ? new Set<string>() : undefined;
  for (const f of verdict.findings) {
    if (level !== 'L0' && f.level === 'L0' && !SHOWN_WHEN_STRICTER.has(f.id)) continue;
    const { reason, hint } = message(f.msg ?? f.id, lang, f.params, f.level !== 'L0');
    const bucket = buckets[f.level];
    if (seen) {
      const key = `${f.id}|${f.level}|${reason}`;
      if (seen.has(key)) continue;
      seen.add(key);
    } else if (bucket.some((r) => r.id === f.id && r.reason === reason)) continue;
    bucket.push(hint ? { id: f.id, level: f.level, reason, hint } : { id: f.id, level: f.level, reason });
  }
  const rules = buckets.L1.length || buckets.L0.length ? [...buckets.L2, ...buckets.L1, ...buckets.L0] : buckets.L2;
  return { level, rules };
}
