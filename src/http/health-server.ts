import { createServer, type Server } from 'node:http';
import type { Registry } from 'prom-client';
import { AppError, errorBody } from '../errors';
import { scrape } from '../observability/metrics';
import type { Services } from '../services';

export interface HealthPortDeps {
  /** Liveness and readiness (jobs, indexer); absent in a blog-only process, which serves /metrics alone. */
  services?: Pick<Services, 'system' | 'readiness'>;
  /** The process's metrics, served at `/metrics` as the API serves its own. */
  registry: Registry;
}

/**
 * What a process without the api role (jobs, indexer, blog) serves on HEALTH_PORT, so the edge,
 * orchestrators and Prometheus reach it the way they reach an API replica: `/api/health` and
 * `/api/health/ready` with the API's paths and bodies (jobs, indexer) and `/metrics`; nothing else.
 * The port is private: the edge never routes to it.
 */
export async function listenHealth(deps: HealthPortDeps, opts: { host: string; port: number }): Promise<Server> {
  const { services, registry } = deps;
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' }).end(JSON.stringify(body));
    };
    if (req.method !== 'GET' && req.method !== 'HEAD') return send(405, errorBody(new AppError('METHOD_NOT_ALLOWED', 'Only GET')));
    if (path === '/metrics') {
      scrape(registry).then(
        ({ contentType, body }) => res.writeHead(200, { 'content-type': contentType, 'cache-control': 'no-store' }).end(body),
        () => send(500, errorBody(new AppError('INTERNAL', 'Metrics collection failed'))),
      );
      return;
    }
    if (services && path === '/api/health') return send(200, services.system.info());
    if (!services || path !== '/api/health/ready') return send(404, errorBody(new AppError('NOT_FOUND', `No route for ${req.method} ${path}`)));
    // check() is bounded (src/services/system/readiness.ts): the answer never waits on a frozen database.
    services.readiness.check().then(
      ({ ready, checks }) => {
        if (ready) send(200, { status: 'ready', checks });
        else send(503, errorBody(new AppError('SERVICE_UNAVAILABLE', 'This process is not ready', { checks })));
      },
      () => send(503, errorBody(new AppError('SERVICE_UNAVAILABLE', 'This process is not ready'))),
    );
  });
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, () => resolve());
  });
  return server;
}
