import type { Decision, Verdict } from './runner-types';
import type { Lang } from '../i18n';
import { toolRunner } from '../lazy-modules';

/**
 * A verdict worded for the edge that shows it (the step line and the question in `ai -i`, the
 * model's observation of a step the agent did not run, `--json`), in that edge's language:
 * tool-runner's renderVerdict, which passes the words through the redaction gate, always.
 * Loaded on first use (only turns that judge steps reach it).
 */
export function renderVerdict(verdict: Verdict, lang: Lang): Decision {
  return toolRunner().renderVerdict(verdict, lang);
}
