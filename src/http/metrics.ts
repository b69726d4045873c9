import type { FastifyInstance } from 'fastify';
import type { Metrics } from '../observability/metrics';

/** Request counts and latency per route pattern, and the Prometheus scrape endpoint. */
export function registerMetrics(app: FastifyInstance, metrics: Metrics): void {
  app.decorateRequest('startedAt', 0n);
  app.addHook('onRequest', async (request) => {
    request.startedAt = process.hrtime.bigint();
  });
  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url ?? 'unmatched';
    const seconds = Number(process.hrtime.bigint() - request.startedAt) / 1e9;
    metrics.httpRequests.inc({ method: request.method, route, status: String(reply.statusCode) });
    metrics.httpDuration.observe({ method: request.method, route }, seconds);
    request.log.debug({ method: request.method, route, status: reply.statusCode, ms: Math.round(seconds * 1000) }, 'request completed');
  });
  app.get('/metrics', { config: { rateLimit: false } }, async (_request, reply) => {
    reply.type(metrics.registry.contentType);
    return metrics.registry.metrics();
  });
}
