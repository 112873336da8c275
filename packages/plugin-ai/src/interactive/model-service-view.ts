/**
 * A local model server as `ai -i` shows it (llm-base FEATURES.ollama): when the session starts the
 * model's state is read and a model that is pulled but not loaded is warmed up in the background
 * (the prompt never waits); the status line says while it loads or when something is missing;
 * a missing model is offered for download with `/pull`, with progress.
 */
import type { Lang } from '../i18n';
import type { LlmClient, ModelState } from '../config/llm-base';
import type { Theme } from './theme';
import { t } from '../i18n';

export interface ModelServiceHost {
  print(text: string): void;
  render(): void;
}

export class ModelServiceView {
  state?: ModelState;
  private model = '';
  /** Settles once the state was read at start (a `/pull` typed at once waits for it). */
  private known: Promise<void> = Promise.resolve();

  constructor(
    private readonly llm: LlmClient,
    private readonly lang: Lang,
    private readonly host: ModelServiceHost,
  ) {}

  /** Read the state and warm the model up; never throws, never blocks the prompt. */
  async start(profile: string | null, mode: 'low' | 'high', minContext: number): Promise<void> {
    const service = this.llm.service;
    if (!service?.isLocalService(profile)) return;
    const reading = service.health(profile, mode);
    this.known = reading.then(() => undefined);
    const health = await reading;
    if (!health) return;
    this.model = health.model;
    this.state = health.state;
    if (health.state === 'not_pulled') this.host.print(t(this.lang, 'modelNotPulled', { model: health.model }));
    else if (health.state === 'not_running') this.host.print(t(this.lang, 'modelServerDown', { message: health.message }));
    if (health.state === 'cold') {
      this.state = 'loading';
      this.host.render();
      this.state = (await service.warmUp(profile, mode, minContext)) ? 'ready' : 'cold';
    }
    this.host.render();
  }

  /** The status-line part while the model is not ready. */
  status(theme: Theme): string | undefined {
    if (!this.state || this.state === 'ready' || this.state === 'cold') return undefined;
    const text = t(this.lang, `modelState_${this.state}`);
    return this.state === 'loading' ? theme.dim(text) : theme.yellow(text);
  }

  /** `/pull [model]`: download the model (default the session's) with progress lines. */
  async pull(arg: string, profile: string | null): Promise<string> {
    const service = this.llm.service;
    if (!service?.isLocalService(profile)) return t(this.lang, 'pullNoService');
    await this.known;
    const model = arg.trim() || this.model;
    if (!model) return t(this.lang, 'pullUsage');
    let last = '';
    const failed = await service.pull(model, profile, (line) => {
      // One line per status and per tenth of a layer, not one per chunk.
      const key = line.replace(/(\d)\d?%$/, '$1');
      if (key === last) return;
      last = key;
      this.host.print(`  ${model}: ${line}`);
    });
    if (failed) return t(this.lang, 'pullFailed', { model, message: failed });
    if (model === this.model) this.state = 'cold';
    return t(this.lang, 'pullDone', { model });
  }
}
