import { Server as NetServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance } from 'fastify';
import type { Logger } from '../observability/logger';

interface HttpCloseOptions {
  /** Hard limit for the whole close: whatever is still open then is cut. */
  graceMs: number;
  /**
   * How long connections that are open but carry no request stay open after the listener
   * closes, so a request already on its way is answered 503 instead of meeting a reset.
   */
  idleGraceMs: number;
  logger: Logger;
}

/**
 * Closes the API gracefully (see src/fastify/drain.ts):
 * 1. drain: new requests get 503 + `Connection: close`, websockets are closed with 1012;
 * 2. the listener closes (new connections are refused), open connections stay;
 * 3. after `idleGraceMs`, `app.close()` closes idle connections and waits for in-flight
 *    requests, which end within the request timeout (answered 503 REQUEST_TIMEOUT then);
 * 4. at `graceMs` anything still open (a client that never finishes its request, a websocket
 *    peer ignoring the close frame) is cut, so the close never waits longer.
 */
export async function closeHttpApp(app: FastifyInstance, opts: HttpCloseOptions): Promise<void> {
  const force = setTimeout(() => {
    opts.logger.warn({ graceMs: opts.graceMs }, 'connections still open after the shutdown grace period: closing them');
    app.server.closeAllConnections();
    for (const socket of app.websocketServer?.clients ?? []) socket.terminate();
  }, opts.graceMs);
  try {
    app.beginDrain();
    if (app.server.listening) {
      // net's close only stops accepting; http's close would also drop idle connections at once.
      NetServer.prototype.close.call(app.server);
      if ((await openConnections(app)) > 0) await sleep(opts.idleGraceMs);
    }
    await app.close();
  } finally {
    clearTimeout(force);
  }
}

function openConnections(app: FastifyInstance): Promise<number> {
  return new Promise((resolve) => app.server.getConnections((err, count) => resolve(err ? 0 : count)));
}
