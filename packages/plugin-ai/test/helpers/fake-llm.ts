import type { LlmCallOptions, LlmClient, LlmResult } from '../../src/config/llm-base';
import type { ChatMessage } from '../../src/context/context';

/** A fake model: replies come from a queue or a function of the request. */
export function fakeLlm(
  replies: Array<LlmResult | ((messages: ChatMessage[], options: LlmCallOptions) => LlmResult)>,
  fallback?: (messages: ChatMessage[], options: LlmCallOptions) => LlmResult,
): LlmClient & { calls: ChatMessage[][] } {
  const calls: ChatMessage[][] = [];
  return {
    features: { options: true, streaming: true },
    calls,
    async chat(messages, options) {
      calls.push(messages);
      const next = replies.shift() ?? fallback;
      if (!next) throw new Error('fake llm: no reply queued');
      return typeof next === 'function' ? next(messages, options) : next;
    },
  };
}

export const ok = (data: unknown, usage = { input_tokens: 10, output_tokens: 5 }): LlmResult => ({ ok: true, data, usage });
export const chat = (message: string): LlmResult => ok({ type: 'chat', message });
export const cmd = (...commands: unknown[]): LlmResult => ok({ type: 'cmd', message: 'look', data: { cwd: null, commands } });
