import type { FastifyInstance } from 'fastify';
import type { preCloseHookHandler } from 'fastify/types/hooks';
import { AppError, errorBody } from '../errors';

/**
 * Close code for open websockets at shutdown: 1012 "service restart" (RFC 6455 registry) tells a
 * client to reconnect, which reaches another replica or this one restarted; 1001 "going away"
 * reads as the endpoint leaving for good (a browser tab closing), so clients may not retry.
 */
export const WS_CLOSE_SERVICE_RESTART = 1012;

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * Enters the drain: from now on every new request gets 503 SERVICE_UNAVAILABLE with
     * `Connection: close`, responses to requests in flight carry `Connection: close`, and open
     * websockets are closed with 1012. `app.close()` does the same first thing (preClose).
     */
    beginDrain(): void;
  }
}

/**
 * Graceful drain (used with Fastify's `forceCloseConnections: 'idle'` and
 * `return503OnClosing: false`: Fastify's own 503 body is not the one error shape).
 */
export function registerDrain(app: FastifyInstance): void {
  let draining = false;
  app.decorate('beginDrain', function beginDrain(this: FastifyInstance) {
    if (draining) return;
    draining = true;
    // Registered later by @fastify/websocket; absent when the app has none.
    const wss = this.websocketServer as FastifyInstance['websocketServer'] | undefined;
    if (!wss) return;
    for (const client of wss.clients) client.close(WS_CLOSE_SERVICE_RESTART, 'Service restart');
    // Further upgrades are answered 503 by ws itself.
    wss.close();
  });
  app.addHook('preClose', async function () {
    this.beginDrain();
  });
  // Callback hooks: every request passes them, and an async hook costs a promise each.
  app.addHook('onRequest', (request, reply, done) => {
    if (!draining) return done();
    const err = new AppError('SERVICE_UNAVAILABLE', 'The server is shutting down; retry on another connection');
    reply.code(err.status).header('connection', 'close').send(errorBody(err, request.id));
  });
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (draining && !reply.raw.headersSent) reply.header('connection', 'close');
    done(null, payload);
  });
}

/** The websocket plugin's `preClose`: the drain already closed every socket with 1012 (its default uses 1005). */
export const websocketPreClose: preCloseHookHandler = function (done) {
  this.beginDrain();
  done();
};
