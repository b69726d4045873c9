import type { IncomingHttpHeaders } from 'node:http';
import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import proxy from '@fastify/http-proxy';
import { AppError, errorBody } from '../errors';

/** While the blog is down or still building, clients are told to come back after this long. */
const RETRY_AFTER_SECONDS = 5;

/**
 * `/blog` and everything under it (pages, `_next` assets, the admin, Payload's REST API at
 * `/blog/api/*`, the revalidation endpoint) proxied to the blog's Next server, so the API and
 * the blog share one origin and `BLOG_URL = APP_URL + /blog` holds. The blog's own security
 * headers reach the client unchanged (the API's helmet skips these routes, see security.ts).
 * Page views and assets are not charged to the API's admission limit; `/blog/api/*` (logins,
 * password resets, revalidation) is. No websocket: `next start` needs none.
 */
export async function registerBlogProxy(app: FastifyInstance, upstream: string): Promise<void> {
  await app.register(async (scope) => registerPrefix(scope, upstream, '/blog/api', true));
  await app.register(async (scope) => registerPrefix(scope, upstream, '/blog', false));
}

async function registerPrefix(scope: FastifyInstance, upstream: string, prefix: string, charged: boolean): Promise<void> {
  scope.setChildLoggerFactory((logger, bindings, options) => withoutProxyErrorLine(logger.child(bindings, options)));
  // The proxy streams bodies through unread with its own parser, which may only replace Fastify's default (./json-body.ts is the app's).
  scope.removeContentTypeParser('application/json');
  await scope.register(proxy, {
    upstream,
    prefix,
    rewritePrefix: prefix,
    websocket: false,
    // Its "fetching from remote server" / "response received" lines at info for every asset:
    // each proxied request already has its debug "request completed" line (metrics.ts).
    disableRequestLogging: true,
    // The blog's own credentials (Payload's `JWT …`, the revalidation bearer secret) pass through unread.
    config: charged ? { skipAuth: true } : { rateLimit: false, skipAuth: true },
    replyOptions: {
      rewriteRequestHeaders: (request, headers) => forwardedHeaders(request as ProxiedRequest, headers as IncomingHttpHeaders),
      onError: (reply, { error }) => blogUnavailable(reply as ProxiedReply, error),
    },
  });
}

/** The blog sees the client's Host and the X-Forwarded-* set by this server (never the client's own). */
type ProxiedRequest = Pick<FastifyRequest, 'headers' | 'host' | 'protocol' | 'ips' | 'socket' | 'ip'>;
type ProxiedReply = Pick<FastifyReply, 'request' | 'sent' | 'raw' | 'code'>;

function forwardedHeaders(request: ProxiedRequest, headers: IncomingHttpHeaders): IncomingHttpHeaders {
  const prior = typeof request.headers['x-forwarded-for'] === 'string' ? `${request.headers['x-forwarded-for']}, ` : '';
  return {
    ...headers,
    host: request.headers.host ?? headers.host,
    'x-forwarded-host': request.host,
    'x-forwarded-proto': request.protocol,
    'x-forwarded-for': `${request.ips && request.ips.length > 1 ? prior : ''}${request.socket.remoteAddress ?? request.ip}`,
  };
}

/** reply-from's own warning for a failed upstream request (with the error's stack): blogUnavailable says it in one line. */
const PROXY_ERROR_LINE = 'response errored';

/**
 * The proxied requests' logger without reply-from's "response errored" warning. A blog still
 * building or restarting is expected: one short warning a request (blogUnavailable), no stack.
 */
function withoutProxyErrorLine(logger: FastifyBaseLogger): FastifyBaseLogger {
  const quiet: FastifyBaseLogger = Object.create(logger);
  quiet.warn = function warn(this: FastifyBaseLogger, ...args: unknown[]) {
    if (args[1] === PROXY_ERROR_LINE) return;
    (logger.warn as (...a: unknown[]) => void).apply(logger, args);
  };
  return quiet;
}

/** The innermost message of an error and its causes: `connect ECONNREFUSED 127.0.0.1:3001`. */
function rootCause(error: unknown): string {
  let current = error;
  while (current instanceof Error && current.cause instanceof Error) current = current.cause;
  return current instanceof Error ? current.message : String(current);
}

function blogUnavailable(reply: ProxiedReply, error: unknown): void {
  const err = new AppError('SERVICE_UNAVAILABLE', 'The blog is not available right now (starting, building or restarting); try again shortly', {
    retryAfterSeconds: RETRY_AFTER_SECONDS,
  });
  reply.request.log.warn({ url: reply.request.url, cause: rootCause(error) }, 'blog proxy: upstream unavailable');
  if (reply.sent || reply.raw.headersSent) return;
  reply.code(503).header('retry-after', String(RETRY_AFTER_SECONDS)).header('x-content-type-options', 'nosniff').header('content-type', 'application/json; charset=utf-8').send(errorBody(err, reply.request.id));
}
