/**
 * OpenTelemetry for a run of `ai` (docs/telemetry.md): off unless OTEL_EXPORTER_OTLP_ENDPOINT (or
 * ai.json `telemetry`) says where to send traces. This module is the lazy boundary: it decides
 * from the settings alone and requires the tracer (and with it @opentelemetry/*) only when traces
 * are on, so a run without them loads none of it (test/telemetry-e2e.test.ts checks).
 */
import type { TelemetryConfig } from '../config/config-schema';
import { isTelemetryProblem, telemetrySettings, type TelemetryProblem } from './settings';
import type { EventSource } from './agent-spans';

/** The telemetry of one run: agents followed, and the export finished before the process ends. */
export interface AppTelemetry {
  /** Make spans of this agent's turns, model calls and steps; returns the function that stops. */
  follow(source: EventSource): () => void;
  /** Export what is buffered and stop (each mode awaits it before it returns its exit code). */
  shutdown(): Promise<void>;
}

/** Start telemetry when the settings ask for it; a problem (an unsupported protocol) is returned to be said. */
export function startTelemetry(
  env: NodeJS.ProcessEnv,
  config: TelemetryConfig | undefined,
  version: string,
): { telemetry?: AppTelemetry; problem?: TelemetryProblem } {
  const settings = telemetrySettings(env, config);
  if (settings === undefined) return {};
  if (isTelemetryProblem(settings)) return { problem: settings };
  const { startTracing } = require('./tracer') as typeof import('./tracer');
  const { traceAgent } = require('./agent-spans') as typeof import('./agent-spans');
  const tracing = startTracing(settings, version);
  const followed = new Set<() => void>();
  return {
    telemetry: {
      follow(source) {
        const stop = traceAgent(source, tracing.tracer);
        followed.add(stop);
        return () => {
          followed.delete(stop);
          stop();
        };
      },
      shutdown() {
        for (const stop of followed) stop();
        followed.clear();
        return tracing.shutdown();
      },
    },
  };
}
