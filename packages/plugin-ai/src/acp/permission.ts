/**
 * An L1 step's question as ACP's `session/request_permission` (pure): allow once, allow always
 * (for the rest of this session only: our session allowance of the step's key) and reject. "Allow
 * always" is offered only for an L1 step that an allowance can cover: never for a step our rules
 * refuse (L2, which the runner never asks about anyway) nor for one that must be asked each time
 * (an interactive plugin, a permission rule's `ask`). The editor's answer is a person's answer:
 * the audit line says `approvedBy: "user"`.
 */
import type { PermissionOption, RequestPermissionOutcome, ToolCallContent } from '@agentclientprotocol/sdk';
import type { AgentConfirmAnswer } from '../agent/agent';
import type { ConfirmRequest } from '../agent/runner-types';
import { t, type Lang } from '../i18n';
import { textContent } from './updates';

export const OPTION_ONCE = 'allow_once';
export const OPTION_SESSION = 'allow_session';
export const OPTION_REJECT = 'reject';

/** The choices offered for a question. */
export function permissionOptions(request: ConfirmRequest, lang: Lang): PermissionOption[] {
  const always = request.verdict.level === 'L1' && !request.verdict.alwaysConfirm && request.sessionKey !== '';
  return [
    { optionId: OPTION_ONCE, name: t(lang, 'acpAllowOnce'), kind: 'allow_once' },
    ...(always
      ? [{ optionId: OPTION_SESSION, name: t(lang, 'acpAllowSession', { key: request.sessionKey }), kind: 'allow_always' as const }]
      : []),
    { optionId: OPTION_REJECT, name: t(lang, 'acpReject'), kind: 'reject_once' },
  ];
}

/** What the question shows beside the step: the preview the runner made (a config patch's masked diff). */
export function previewContent(request: ConfirmRequest): ToolCallContent[] {
  return request.preview ? [textContent('```diff\n' + request.preview.replace(/\n+$/, '') + '\n```')] : [];
}

/** The editor's answer as the runner's. An option that was not offered (or none) declines. */
export function answerOf(outcome: RequestPermissionOutcome, offered: readonly PermissionOption[], lang: Lang): AgentConfirmAnswer {
  if (outcome.outcome !== 'selected') return { action: 'decline', reason: t(lang, 'acpCancelled') };
  const chosen = offered.find((o) => o.optionId === outcome.optionId);
  if (chosen?.kind === 'allow_once') return { action: 'run', approvedBy: 'user' };
  if (chosen?.kind === 'allow_always') return { action: 'allow-session', approvedBy: 'user' };
  return { action: 'decline', reason: t(lang, 'acpRejected') };
}
