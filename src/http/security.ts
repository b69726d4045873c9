import type { FastifyInstance, FastifyRequest } from 'fastify';
import helmet from '@fastify/helmet';
import cors, { type FastifyCorsOptions } from '@fastify/cors';
import type { Config } from '../config';

type CspDirectives = Record<string, string[]>;

/** The API answers JSON: nothing may load from it, and nothing may frame it. */
export const API_CSP: CspDirectives = { 'default-src': ["'none'"], 'frame-ancestors': ["'none'"] };

const APOLLO_CDN = [
  'https://apollo-server-landing-page.cdn.apollographql.com',
  'https://embeddable-sandbox.cdn.apollographql.com',
  'https://embeddable-explorer.cdn.apollographql.com',
];

/**
 * Apollo's landing page (GET /graphql from a browser) loads its app from Apollo's CDN and
 * tightens scripts and styles further with a nonce in its own `<meta>` policy; this header
 * policy allows what that page needs and nothing else.
 */
export const APOLLO_LANDING_PAGE_CSP: CspDirectives = {
  'default-src': ["'none'"],
  'script-src': ["'self'", "'unsafe-inline'", ...APOLLO_CDN],
  'style-src': ["'unsafe-inline'", ...APOLLO_CDN, 'https://fonts.googleapis.com'],
  'font-src': ['https://fonts.gstatic.com'],
  'img-src': [APOLLO_CDN[0]!],
  'manifest-src': [APOLLO_CDN[0]!],
  'frame-src': ['https://explorer.embed.apollographql.com', 'https://sandbox.embed.apollographql.com'],
  'connect-src': ["'self'"],
  'base-uri': ["'none'"],
  'form-action': ["'none'"],
  'frame-ancestors': ["'none'"],
};

/**
 * A route serving HTML sets its own policy through its route options (kept in route config):
 * `app.get('/api/docs', { helmet: htmlPagePolicy({ 'default-src': ["'self'"], … }) }, …)`.
 */
export function htmlPagePolicy(directives: CspDirectives) {
  return { contentSecurityPolicy: { useDefaults: false, directives: { 'frame-ancestors': ["'none'"], ...directives } } };
}

const HSTS = 'max-age=31536000; includeSubDomains';

const isBlogPath = (url: string | undefined): boolean => url === '/blog' || (url?.startsWith('/blog/') ?? false);

/** Paths browsers on other origins may call. */
const CORS_PATH = /^\/(graphql|api)(\/|\?|$)/;

/** Headers a browser client sends: Apollo's CSRF-prevention header, the bearer token, JSON bodies. */
const CORS_ALLOWED_HEADERS = ['authorization', 'content-type', 'apollo-require-preflight', 'x-apollo-operation-name'];
const CORS_EXPOSED_HEADERS = ['retry-after', 'ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset'];

/**
 * Security headers (helmet) and CORS on every response, errors included. Registered before
 * any other hook, so responses ended early (admission 429, body limit 413, timeout 503) carry
 * them too, and preflights are answered before admission charges anything.
 */
export async function registerSecurity(app: FastifyInstance, http: Pick<Config['http'], 'corsOrigins'>): Promise<void> {
  // Before helmet's own onRoute hook, which turns a route's `helmet` option into its config.
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (route.url === '/graphql' && methods.includes('GET') && route.helmet === undefined) route.helmet = htmlPagePolicy(APOLLO_LANDING_PAGE_CSP);
    // The proxied blog (./blog-proxy.ts) sends its own policy and headers; the API's JSON CSP would break its pages.
    if (isBlogPath(route.url)) route.helmet = false;
  });
  await app.register(helmet, {
    contentSecurityPolicy: { useDefaults: false, directives: API_CSP },
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'no-referrer' },
    // Only over https (TLS, or x-forwarded-proto from a trusted proxy): set below.
    strictTransportSecurity: false,
  });
  app.addHook('onRequest', async (request, reply) => {
    if (request.protocol === 'https' && !isBlogPath(request.routeOptions.url)) reply.header('strict-transport-security', HSTS);
  });

  const allowed = new Set(http.corsOrigins);
  const corsFor = (request: FastifyRequest): FastifyCorsOptions => {
    const origin = request.headers.origin;
    const ok = origin !== undefined && allowed.has(origin) && CORS_PATH.test(request.url);
    // `false` sends no CORS header at all (and a preflight gets 404), so the browser refuses.
    return {
      origin: ok ? origin : false,
      credentials: true,
      methods: ['GET', 'HEAD', 'POST'],
      allowedHeaders: CORS_ALLOWED_HEADERS,
      exposedHeaders: CORS_EXPOSED_HEADERS,
      maxAge: 600,
    };
  };
  await app.register(cors, { hook: 'onRequest', delegator: (request, callback) => callback(null, corsFor(request)) });
}
