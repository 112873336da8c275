import { defaultConfig, type AiConfig } from '../../src/config/config';

/** The default ai.json with these fields replaced. */
export function config(overrides: Partial<AiConfig> = {}): AiConfig {
  return { ...defaultConfig(), ...overrides };
}

/** A fixed clock that advances one second per call. */
export function steppingClock(start = Date.UTC(2026, 10, 22, 5, 0, 0)): () => Date {
  let t = start;
  return () => new Date((t += 1000));
}
