import type { AiError } from '../errors';
import type { TurnOutcome } from '../agent/events';

/** Exit codes of `ai` (documented in --help and the README). */
export const EXIT = {
  ok: 0,
  error: 1,
  usage: 2,
  stepLimit: 3,
  llmBase: 4,
  modelError: 5,
  aborted: 130,
} as const;

export function exitCodeOf(outcome: TurnOutcome): number {
  switch (outcome) {
    case 'answered':
      return EXIT.ok;
    case 'step_limit':
      return EXIT.stepLimit;
    case 'model_error':
      return EXIT.modelError;
    case 'aborted':
      return EXIT.aborted;
    case 'error':
      return EXIT.error;
  }
}

export function exitCodeOfError(err: AiError): number {
  switch (err.code) {
    case 'LLM_BASE_MISSING':
    case 'LLM_BASE_STALE':
    case 'LLM_BASE_BROKEN':
      return EXIT.llmBase;
    case 'CONFIG_INVALID':
    case 'CONFIG_UNREADABLE':
    case 'REGISTRY_CORRUPT':
    case 'USAGE':
      return EXIT.usage;
    default:
      return EXIT.error;
  }
}
