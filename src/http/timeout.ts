import type { FastifyInstance } from 'fastify';
import { AppError, errorBody } from '../errors';

/**
 * Any request still unanswered after `timeoutMs` gets a 503 REQUEST_TIMEOUT (a late reply from
 * its handler is dropped), and `request.abandonedSignal` aborts when the request ends unanswered:
 * its time budget ran out or its client went away (the response closed before it was written
 * out). One controller per request: combining Fastify's `request.signal` with a timeout signal
 * through `AbortSignal.any` holds each request's signals through weak references, which V8 only
 * clears in full collections, so every request's objects were promoted to the old generation.
 */
export function registerRequestTimeout(app: FastifyInstance, timeoutMs: number): void {
  app.decorateRequest('abandonedSignal', null as unknown as AbortSignal);
  app.addHook('onRequest', (request, reply, done) => {
    const controller = new AbortController();
    request.abandonedSignal = controller.signal;
    const timer = setTimeout(() => {
      controller.abort();
      if (reply.sent || reply.raw.headersSent) return;
      const err = new AppError('REQUEST_TIMEOUT', `Request did not complete within ${timeoutMs} ms`);
      request.log.warn({ url: request.url, timeoutMs }, 'request timed out');
      reply.code(err.status).header('connection', 'close').send(errorBody(err, request.id));
    }, timeoutMs);
    timer.unref();
    reply.raw.once('close', () => {
      clearTimeout(timer);
      if (!reply.raw.writableFinished) controller.abort();
    });
    done();
  });
}
