import type { FastifyRequest } from 'fastify';

/**
 * RFC 9112 answers a malformed Host with 400; the Fastify integration builds a URL from it and
 * would throw (a 500) instead.
 */
export function hasValidHost(request: FastifyRequest): boolean {
  try {
    new URL(request.url, `${request.protocol}://${request.hostname}/`);
    return true;
  } catch {
    return false;
  }
}
