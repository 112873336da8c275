/**
 * Redaction is the shared gate's job (@holic512/shared): this module only names it for the
 * tool code, so every tool result passes through the same function as every other exit.
 */
export { redact, redactValue, redactArgs } from '@holic512/shared';
