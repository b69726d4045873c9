import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

export interface Metrics {
  registry: Registry;
  httpRequests: Counter<'method' | 'route' | 'status'>;
  httpDuration: Histogram<'method' | 'route'>;
  graphqlOperations: Counter<'operation' | 'type' | 'outcome'>;
  graphqlDuration: Histogram<'operation' | 'type'>;
  admissionRejections: Counter<'scope'>;
  graphqlPlans: Counter<'outcome'>;
}

/**
 * The metrics policy of every role (api, jobs, indexer, blog): one registry per process with
 * Node's process series (event-loop lag, heap, GC, handles: prom-client's defaults), served at
 * `/metrics` by the API and by HEALTH_PORT elsewhere (`scrape`), never through the edge.
 * Series names follow Prometheus' conventions (`_total`, `_seconds`, `_bytes`) and label values
 * are bounded: no wallet, URL or id labels; a client-chosen value goes through `boundedLabel`.
 */
export function createMetrics(opts: { defaultMetrics?: boolean } = {}): Metrics {
  const registry = new Registry();
  if (opts.defaultMetrics !== false) collectDefaultMetrics({ register: registry });
  const buckets = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];
  return {
    registry,
    httpRequests: new Counter({
      name: 'http_requests_total',
      help: 'HTTP requests by method, route pattern and status code',
      labelNames: ['method', 'route', 'status'],
      registers: [registry],
    }),
    httpDuration: new Histogram({
      name: 'http_request_duration_seconds',
      help: 'HTTP request latency by method and route pattern',
      labelNames: ['method', 'route'],
      buckets,
      registers: [registry],
    }),
    graphqlOperations: new Counter({
      name: 'graphql_operations_total',
      help: 'GraphQL operations by name, type and outcome',
      labelNames: ['operation', 'type', 'outcome'],
      registers: [registry],
    }),
    graphqlDuration: new Histogram({
      name: 'graphql_operation_duration_seconds',
      help: 'GraphQL operation latency by name and type',
      labelNames: ['operation', 'type'],
      buckets,
      registers: [registry],
    }),
    admissionRejections: new Counter({
      name: 'admission_rejections_total',
      help: 'Requests refused by admission control, by the scope whose limit was hit',
      labelNames: ['scope'],
      registers: [registry],
    }),
    graphqlPlans: new Counter({
      name: 'graphql_jit_plans_total',
      help: 'GraphQL execution plans made for the plan cache (HTTP and graphql-ws share it): compiled by graphql-jit, or fallback (run by graphql-js)',
      labelNames: ['outcome'],
      registers: [registry],
    }),
  };
}

/** One scrape of a registry: what `/metrics` answers on the API and on HEALTH_PORT. */
export async function scrape(registry: Registry): Promise<{ contentType: string; body: string }> {
  return { contentType: registry.contentType, body: await registry.metrics() };
}

/** Label values a client chooses (a GraphQL operation name) past this many distinct ones count as `other`. */
const CLIENT_LABEL_LIMIT = 100;
const LABEL_SHAPE = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;

/**
 * Keeps a label whose value a client picks bounded: the first `limit` distinct well-formed values
 * are kept as they are, anything later or malformed is `other`, so a client inventing names
 * cannot grow a process's series without end.
 */
export function boundedLabel(limit = CLIENT_LABEL_LIMIT): (value: string) => string {
  const seen = new Set<string>();
  return (value) => {
    if (seen.has(value)) return value;
    if (seen.size >= limit || !LABEL_SHAPE.test(value)) return 'other';
    seen.add(value);
    return value;
  };
}
