import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

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
 * safe methods are tagged: an error or a POST answer is never turned into a 304.
 */
export function registerEtags(app: FastifyInstance): void {
  app.addHook('onSend', async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    if ((request.method !== 'GET' && request.method !== 'HEAD') || reply.statusCode !== 200) return payload;
    if (!(typeof payload === 'string' || Buffer.isBuffer(payload)) || !TAGGED_PATH.test(request.url)) return payload;
    // A cached GraphQL answer carries the tag hashed once when it was stored (src/graphql/cached-answers.ts).
    const known = reply.getHeader('etag');
    const etag = typeof known === 'string' ? known : `"${createHash('sha1').update(payload).digest('base64url')}"`;
    if (known === undefined) reply.header('etag', etag);
    const ifNoneMatch = request.headers['if-none-match'];
    if (!ifNoneMatch || !matches(ifNoneMatch, etag)) return payload;
    reply.code(304);
    return '';
  });
}
