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
