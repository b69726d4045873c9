import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, errorBody, type ErrorCode } from '../errors';
import { toWireError, type WireAnswer } from '../edge/wire-error';
import { setApiSecurityHeaders } from './security';

const FASTIFY_CODES: Record<string, ErrorCode> = {
  FST_ERR_CTP_BODY_TOO_LARGE: 'PAYLOAD_TOO_LARGE',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'BAD_REQUEST',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'BAD_REQUEST',
  FST_ERR_CTP_INVALID_JSON_BODY: 'BAD_REQUEST',
};

/** Fastify's own errors (body parsing, schema validation, router statuses) as ours; anything else is left to the wire mapper. */
function fastifyError(error: unknown): AppError | undefined {
  const e = error as FastifyError;
  if (e?.validation) {
    return new AppError('VALIDATION_FAILED', e.message, {
      issues: e.validation.map((v) => ({ path: v.instancePath || (v.params as { missingProperty?: string })?.missingProperty, message: v.message })),
    });
  }
  const mapped = e?.code ? FASTIFY_CODES[e.code] : undefined;
  if (mapped) return new AppError(mapped, e.message);
  if (e?.statusCode === 413) return new AppError('PAYLOAD_TOO_LARGE', 'Request body is too large');
  if (e?.statusCode && e.statusCode >= 400 && e.statusCode < 500) {
    return new AppError(e.statusCode === 404 ? 'NOT_FOUND' : e.statusCode === 405 ? 'METHOD_NOT_ALLOWED' : 'BAD_REQUEST', e.message);
  }
  return undefined;
}

/** The one HTTP error answer: status, `Retry-After` when the refusal says when, and the documented body. */
function sendError(request: FastifyRequest, reply: FastifyReply, answer: WireAnswer): void {
  if (answer.retryAfterSeconds !== undefined) reply.header('retry-after', String(answer.retryAfterSeconds));
  reply.code(answer.status).send(errorBody(answer.error, request.id));
}

/** Fastify's default, named: the router refuses longer path parameters (answerFrameworkError). */
export const MAX_PARAM_LENGTH = 100;

/**
 * Fastify's `frameworkErrors`: what its router refuses before any route runs (a path parameter
 * longer than `maxParamLength`, a malformed URL), answered in the same shape as everything else
 * instead of Fastify's own `{ error, code, message, statusCode }` body.
 */
export function answerFrameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const answer = toWireError(
    error.code === 'FST_ERR_MAX_PARAM_LENGTH'
      ? new AppError('VALIDATION_FAILED', 'A path parameter is too long', { issues: [{ path: '/params', message: `at most ${MAX_PARAM_LENGTH} characters` }] })
      : error.code === 'FST_ERR_BAD_URL'
        ? new AppError('BAD_REQUEST', 'The URL is not valid (malformed percent-encoding)')
        : error,
    fastifyError,
  );
  request.log.info({ code: answer.error.code, fastifyCode: error.code }, answer.error.message);
  setApiSecurityHeaders(request, reply);
  sendError(request, reply, answer);
}

export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error, request, reply) => {
    const answer = toWireError(error, fastifyError);
    if (answer.status === 500) request.log.error({ err: error }, 'request failed');
    else if (answer.status >= 500) request.log.warn({ err: error, code: answer.error.code, url: request.url }, 'request failed: service unavailable');
    else request.log.info({ code: answer.error.code, url: request.url }, answer.error.message);
    if (reply.sent || reply.raw.headersSent) return;
    sendError(request, reply, answer);
  });
  app.setNotFoundHandler((request, reply) => {
    sendError(request, reply, toWireError(new AppError('NOT_FOUND', `No route for ${request.method} ${request.url.split('?')[0]}`)));
  });
}
