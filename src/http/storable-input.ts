import type { FastifyInstance, FastifyRequest } from 'fastify';
import { addRouteHook } from '../fastify/route-hooks';
import { AppError } from '../errors';
import { UNSTORABLE_TEXT_MESSAGE, findUnstorableText } from '../input/storable-text';

/**
 * Refuses REST requests whose params, query string or JSON body carry text PostgreSQL cannot
 * store (400 VALIDATION_FAILED), on the routes registered after it. `/graphql` is left to the GraphQL pipeline, which applies the
 * same check and answers in the GraphQL error format.
 */
export function registerStorableInputCheck(app: FastifyInstance, skipUrls: readonly string[] = ['/graphql']): void {
  app.addHook('onRoute', (route) => {
    if (!skipUrls.includes(route.url)) addRouteHook(route, 'preValidation', refuseUnstorableText, 'first');
  });
}

async function refuseUnstorableText(request: FastifyRequest): Promise<void> {
  // A proxied body (the blog, ./blog-proxy.ts) is a stream passed through unread.
  const body = isStream(request.body) ? undefined : request.body;
  const path = findUnstorableText(request.params, 'params') ?? findUnstorableText(request.query, 'query') ?? findUnstorableText(body, 'body');
  if (path) throw new AppError('VALIDATION_FAILED', UNSTORABLE_TEXT_MESSAGE, { path });
}

const isStream = (value: unknown): boolean => typeof (value as { pipe?: unknown } | null)?.pipe === 'function';
