/**
 * The OpenTelemetry tracer of a run: a BasicTracerProvider with a batching processor and the
 * OTLP/HTTP exporter of the protocol asked for (protobuf, or JSON for
 * OTEL_EXPORTER_OTLP_PROTOCOL=http/json). Loaded only when telemetry/settings.ts says traces are
 * on (app.ts), so a run without them loads nothing of OpenTelemetry.
 */
import type { Tracer } from '@opentelemetry/api';
import { BasicTracerProvider, BatchSpanProcessor, SimpleSpanProcessor, type SpanExporter } from '@opentelemetry/sdk-trace-base';
import { defaultResource, detectResources, envDetector, resourceFromAttributes } from '@opentelemetry/resources';
import type { TelemetrySettings } from './settings';

/** The tracer and the end of its run. */
export interface Tracing {
  tracer: Tracer;
  /** Export what is still buffered and stop (at the end of the run); waits at most `FLUSH_LIMIT_MS`. */
  shutdown(): Promise<void>;
}

/** The longest the end of a run waits for the collector (an unreachable one must not hold `ai`). */
export const FLUSH_LIMIT_MS = 5000;

interface ExporterModule {
  OTLPTraceExporter: new (config: { url?: string; headers?: Record<string, string> }) => SpanExporter;
}

/** The exporter of the protocol; it reads OTEL_EXPORTER_OTLP_* (endpoint, headers, timeout, compression) itself. */
function exporterFor(settings: TelemetrySettings): SpanExporter {
  const mod = (
    settings.protocol === 'http/json'
      ? require('@opentelemetry/exporter-trace-otlp-http')
      : require('@opentelemetry/exporter-trace-otlp-proto')
  ) as ExporterModule;
  return new mod.OTLPTraceExporter({
    ...(settings.url ? { url: settings.url } : {}),
    ...(Object.keys(settings.headers).length ? { headers: settings.headers } : {}),
  });
}

/**
 * Start tracing. `exporter` (tests) replaces the OTLP one and exports each span as it ends;
 * otherwise spans are batched (and the batch exported every few seconds of a long session).
 */
export function startTracing(settings: TelemetrySettings, version: string, exporter?: SpanExporter): Tracing {
  const out = exporter ?? exporterFor(settings);
  // OTEL_RESOURCE_ATTRIBUTES and OTEL_SERVICE_NAME (envDetector) over our own names.
  const resource = defaultResource()
    .merge(resourceFromAttributes({ 'service.name': settings.serviceName, 'service.version': version }))
    .merge(detectResources({ detectors: [envDetector] }));
  const provider = new BasicTracerProvider({
    resource,
    spanProcessors: [exporter ? new SimpleSpanProcessor(out) : new BatchSpanProcessor(out)],
  });
  let ended: Promise<void> | undefined;
  return {
    tracer: provider.getTracer('@holic512/plugin-ai', version),
    shutdown() {
      ended ??= new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, FLUSH_LIMIT_MS);
        timer.unref();
        provider
          .shutdown()
          .then(
            () => resolve(),
            () => resolve(),
          )
          .finally(() => clearTimeout(timer));
      });
      return ended;
    },
  };
}
