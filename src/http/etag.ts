import { createHash } from 'node:crypto';
import type { FastifyInstance, onSendHookHandler } from 'fastify';
import { addRouteHook, routeMethods } from '../fastify/route-hooks';

/** Routes whose GET answers carry an ETag: the GraphQL GET queries and the REST reads. */
const TAGGED_PATH = /^\/(graphql|api\/)/;

/** RFC 9110 §13.1.2: If-None-Match compares weakly, and may list several tags or be `*`. */
function matches(ifNoneMatch: string, etag: string): boolean {
  if (ifNoneMatch.trim() === '*') return true;
  const opaque = etag.replace(/^W\//, '');
  return ifNoneMatch.split(',').some((tag) => tag.trim().replace(/^W\//, '') === opaque);
}

/**
 * Strong ETags (a SHA-1 of the body bytes: this API sends no content-encoding, so equal bytes
 * are an equal representation) on successful GET/HEAD answers of /graphql and /api/*, and 304
 * without a body when the request's If-None-Match names the current tag. Only 200 answers to
 * safe methods are tagged: an error or a POST answer is never turned into a 304. The hook sits on
 * the GET and HEAD routes of those paths only (registered before them).
 */
export function registerEtags(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    if (TAGGED_PATH.test(route.url) && routeMethods(route).some((m) => m === 'GET' || m === 'HEAD')) addRouteHook(route, 'onSend', tagAnswer);
  });
}

const tagAnswer: onSendHookHandler = (request, reply, payload, done) => {
  if ((request.method !== 'GET' && request.method !== 'HEAD') || reply.statusCode !== 200) return done(null, payload);
  if (!(typeof payload === 'string' || Buffer.isBuffer(payload))) return done(null, payload);
  // A cached GraphQL answer carries the tag hashed once when it was stored (src/graphql/cached-answers.ts).
  const known = reply.getHeader('etag');
  const etag = typeof known === 'string' ? known : `"${createHash('sha1').update(payload).digest('base64url')}"`;
  if (known === undefined) reply.header('etag', etag);
  const ifNoneMatch = request.headers['if-none-match'];
  if (!ifNoneMatch || !matches(ifNoneMatch, etag)) return done(null, payload);
  reply.code(304);
  done(null, '');
};
