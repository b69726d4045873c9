// The one OpenTelemetry trace pipeline of every process (the API's roles and the blog's Next
// server): W3C trace context, spans batched to OTLP over HTTP. Only ever imported dynamically when
// OTEL_EXPORTER_OTLP_ENDPOINT is set, so with tracing off no SDK module is loaded.
import { context, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter as JsonExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as ProtobufExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import type { Config } from '../config';

export type TracingSettings = NonNullable<Config['tracing']>;

export interface TracePipeline {
  provider: TracerProvider;
  /** Sends the spans still batched, then stops exporting. */
  shutdown(): Promise<void>;
}

/** Registers the global tracer provider, context manager and propagator; `serviceName` unless OTEL_SERVICE_NAME is set. */
export function startTracePipeline(settings: TracingSettings, serviceName: string): TracePipeline {
  const url = `${settings.endpoint}/v1/traces`;
  const exporter = settings.protocol === 'http/json' ? new JsonExporter({ url }) : new ProtobufExporter({ url });
  const provider = new TracerProvider({
    resource: resourceFromAttributes({ 'service.name': settings.serviceName ?? serviceName }),
    spanProcessors: [new BatchSpanProcessor({ exporter })],
  });
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  trace.setGlobalTracerProvider(provider);
  return { provider, shutdown: () => provider.shutdown() };
}
