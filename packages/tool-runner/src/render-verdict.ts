import { redactValue } from './redact';
import { render } from './policy/render';
import type { Verdict } from './policy/decide';
import type { Decision, Lang } from './types';

/**
 * Word a verdict for the edge that shows it, in that edge's language: the question, the
 * tool_result the model reads, `--json`, the audit line, `ai risk`. Reasons quote the step's
 * arguments, so what comes out has passed the redaction gate, always: an edge cannot render a
 * verdict without it (the runner's verdicts carry redacted params too; this is the second gate).
 * The public name of stage 3 (`render` itself stays internal, pure and fast, for `classify`).
 */
export function renderVerdict(verdict: Pick<Verdict, 'level' | 'findings'>, lang: Lang = 'zh'): Decision {
  return redactValue(render(verdict, lang));
}
