/**
 * Notifications of `ai -i`: when a question opens, and when a turn that took longer than
 * `notify.afterSeconds` ends, the terminal is told: a bell (BEL) or an OSC 9 desktop notification
 * (iTerm2, WezTerm, kitty, Windows Terminal, ghostty; a terminal that does not know it ignores
 * it). ai.json `notify`: `"bell"` (default), `"osc9"`, `"off"`, or `{"style", "afterSeconds"}`.
 */
import type { AiConfig } from '../config/config';

export type NotifyStyle = 'bell' | 'osc9' | 'off';

/** Seconds a turn runs before its end is notified, when ai.json does not say: long enough that
 * the person has likely turned to another window, short enough to matter. */
export const DEFAULT_NOTIFY_AFTER_SECONDS = 30;

export interface NotifySettings {
  style: NotifyStyle;
  afterSeconds: number;
}

/** ai.json's `notify` as settings. */
export function notifySettings(config: Pick<AiConfig, 'notify'> | undefined): NotifySettings {
  const raw = config?.notify ?? 'bell';
  if (typeof raw === 'string') return { style: raw, afterSeconds: DEFAULT_NOTIFY_AFTER_SECONDS };
  return { style: raw.style ?? 'bell', afterSeconds: raw.afterSeconds ?? DEFAULT_NOTIFY_AFTER_SECONDS };
}

/** What is written to the terminal: BEL, or OSC 9 with the message (control characters and `;` kept out). Pure. */
export function notificationSequence(style: NotifyStyle, message: string): string {
  if (style === 'off') return '';
  if (style === 'bell') return '\x07';
  const clean = message.replace(/[\x00-\x1f\x7f-\x9f]/g, ' ').slice(0, 200);
  return `\x1b]9;${clean}\x07`;
}
