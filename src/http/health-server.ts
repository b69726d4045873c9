import { createServer, type Server } from 'node:http';
import { AppError, errorBody } from '../errors';
import type { Services } from '../services';

/**
 * Liveness and readiness of a process without the api role (jobs, indexer) on its own port, so
 * the edge proxy and orchestrators can check it the way they check an API replica: the same paths
 * and bodies as `/api/health` and `/api/health/ready`, nothing else.
 */
export async function listenHealth(services: Pick<Services, 'system' | 'readiness'>, opts: { host: string; port: number }): Promise<Server> {
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' }).end(JSON.stringify(body));
    };
    if (req.method !== 'GET' && req.method !== 'HEAD') return send(405, errorBody(new AppError('METHOD_NOT_ALLOWED', 'Only GET')));
    if (path === '/api/health') return send(200, services.system.info());
    if (path !== '/api/health/ready') return send(404, errorBody(new AppError('NOT_FOUND', `No route for ${req.method} ${path}`)));
    // check() is bounded (src/services/ops/readiness.ts): the answer never waits on a frozen database.
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
