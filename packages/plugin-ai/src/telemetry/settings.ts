/**
 * Whether `ai` exports OpenTelemetry traces, and where: decided from the standard OTEL_* variables
 * and ai.json's `telemetry`, before anything of OpenTelemetry is loaded (a run without them loads
 * none of it: telemetry/tracer.ts is required only when this says so). Pure.
 */
import type { TelemetryConfig } from '../config/config-schema';

/** What the tracer is built with; the exporter reads the rest of the OTEL_* variables itself. */
export interface TelemetrySettings {
  protocol: 'http/protobuf' | 'http/json';
  /** The traces URL when ai.json names the collector and no OTEL_* variable does. */
  url?: string;
  /** ai.json's headers (`env:NAME` values read); the OTEL_* header variables are added by the exporter. */
  headers: Record<string, string>;
  serviceName: string;
}

/** Telemetry asked for but not possible, said once at start (the run goes on without it). */
export interface TelemetryProblem {
  key: 'telemetryProtocol' | 'telemetryHeaderEnv';
  vars: Record<string, string>;
}

const ENDPOINT_VARS = ['OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', 'OTEL_EXPORTER_OTLP_ENDPOINT'] as const;

const set = (v: string | undefined): v is string => v !== undefined && v.trim() !== '';

/**
 * The settings, `undefined` when traces are off (no endpoint anywhere, `telemetry: false`,
 * OTEL_SDK_DISABLED=true or OTEL_TRACES_EXPORTER=none), or why they cannot be on.
 */
export function telemetrySettings(
  env: NodeJS.ProcessEnv,
  config: TelemetryConfig | undefined,
): TelemetrySettings | TelemetryProblem | undefined {
  if (config === false) return undefined;
  if ((env.OTEL_SDK_DISABLED ?? '').trim().toLowerCase() === 'true') return undefined;
  if ((env.OTEL_TRACES_EXPORTER ?? '').trim().toLowerCase() === 'none') return undefined;
  const fromEnv = ENDPOINT_VARS.some((name) => set(env[name]));
  if (!fromEnv && !config) return undefined;
  const written = env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL ?? env.OTEL_EXPORTER_OTLP_PROTOCOL;
  const protocol = set(written) ? written.trim() : (config?.protocol ?? 'http/protobuf');
  if (protocol !== 'http/protobuf' && protocol !== 'http/json') return { key: 'telemetryProtocol', vars: { protocol } };
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(config?.headers ?? {})) {
    const ref = /^env:([A-Za-z_][A-Za-z0-9_]*)$/.exec(value);
    if (ref && !set(env[ref[1]])) return { key: 'telemetryHeaderEnv', vars: { header: name, name: ref[1] } };
    headers[name] = ref ? env[ref[1]]! : value;
  }
  const url = !fromEnv && config ? `${config.endpoint.replace(/\/+$/, '')}/v1/traces` : undefined;
  const serviceName = set(env.OTEL_SERVICE_NAME)
    ? env.OTEL_SERVICE_NAME.trim()
    : ((config ? config.serviceName : undefined) ?? 'slothtool-ai');
  return { protocol, ...(url ? { url } : {}), headers, serviceName };
}

export function isTelemetryProblem(value: TelemetrySettings | TelemetryProblem | undefined): value is TelemetryProblem {
  return value !== undefined && 'key' in value;
}
