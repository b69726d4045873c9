import type { FastifyInstance, FastifyReply, FastifyRequest, RouteHandlerMethod } from 'fastify';
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
  app.addHook('onRoute', (route) => {
    route.handler = dropLateAnswers(route.handler);
  });
}

/** The end of an HTTP request unanswered as one signal: its time budget ran out or its client went away (registerRequestTimeout). */
export const requestSignal = (request: FastifyRequest): AbortSignal => request.abandonedSignal ?? request.signal;

const answered = (reply: FastifyReply) => reply.sent || reply.raw.headersSent;

/**
 * An async handler that settles after the time-out answered would have Fastify send its value
 * again ("Reply was already sent") or log its failure as an error: both are dropped here (a late
 * failure is logged at debug). Synchronous handlers are returned untouched.
 */
function dropLateAnswers(handler: RouteHandlerMethod): RouteHandlerMethod {
  return function (this: FastifyInstance, request, reply) {
    const result: unknown = handler.call(this, request, reply);
    // The reply itself is thenable (`return reply`): Fastify waits on it as before.
    if (result === reply || !isThenable(result)) return result;
    return result.then(
      (value) => (answered(reply) ? undefined : value),
      (err: unknown) => {
        if (!answered(reply)) throw err;
        request.log.debug({ err, url: request.url }, 'request failed after its time-out answered');
        return undefined;
      },
    );
  };
}

function isThenable(value: unknown): value is Promise<unknown> {
  return typeof (value as Promise<unknown> | null)?.then === 'function';
}
