import type { FastifyInstance } from 'fastify';
import { AppError, errorBody } from '../errors';

/**
 * Any request still unanswered after `timeoutMs` gets a 503 REQUEST_TIMEOUT. The handler's
 * work is signalled through `request.timeoutSignal`; a late reply from it is dropped.
 */
export function registerRequestTimeout(app: FastifyInstance, timeoutMs: number): void {
  const timers = new WeakMap<object, NodeJS.Timeout>();
  app.decorateRequest('timeoutSignal', null as unknown as AbortSignal);
  app.addHook('onRequest', async (request, reply) => {
    const controller = new AbortController();
    request.timeoutSignal = controller.signal;
    const timer = setTimeout(() => {
      controller.abort();
      if (reply.sent || reply.raw.headersSent) return;
      const err = new AppError('REQUEST_TIMEOUT', `Request did not complete within ${timeoutMs} ms`);
      request.log.warn({ url: request.url, timeoutMs }, 'request timed out');
      reply.code(err.status).header('connection', 'close').send(errorBody(err, request.id));
    }, timeoutMs);
    timer.unref();
    timers.set(request, timer);
  });
  app.addHook('onResponse', async (request) => {
    clearTimeout(timers.get(request));
  });
  app.addHook('onRequestAbort', async (request) => {
    clearTimeout(timers.get(request));
  });
}
