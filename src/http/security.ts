import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';
import cors, { type FastifyCorsOptions } from '@fastify/cors';
import type { Config } from '../config';
import { routeMethods, routeOf } from '../fastify/route-hooks';

type CspDirectives = Record<string, string[]>;

/** The API answers JSON: nothing may load from it, and nothing may frame it. */
export const API_CSP: CspDirectives = { 'default-src': ["'none'"], 'frame-ancestors': ["'none'"] };

const APOLLO_CDN = [
  'https://apollo-server-landing-page.cdn.apollographql.com',
  'https://embeddable-sandbox.cdn.apollographql.com',
  'https://embeddable-explorer.cdn.apollographql.com',
];

/**
 * Apollo's landing page (GET /graphql from a browser in production) loads its app from Apollo's CDN and
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
 * GraphiQL (development, src/graphql/ide): its script and stylesheet come from this server; its
 * stylesheet embeds its fonts and images as data URLs; it talks to this server over HTTP and
 * graphql-ws ('self' covers ws: and wss: to the same host).
 */
export const GRAPHIQL_CSP: CspDirectives = {
  'default-src': ["'none'"],
  'script-src': ["'self'"],
  'style-src': ["'self'"],
  'font-src': ['data:'],
  'img-src': ['data:'],
  'connect-src': ["'self'"],
  'base-uri': ["'none'"],
  'form-action': ["'none'"],
  'frame-ancestors': ["'none'"],
};

declare module 'fastify' {
  interface FastifyContextConfig {
    /** This route's security headers over the API's (helmet options), or `false` for none of ours. */
    securityHeaders?: HelmetOptions | false;
  }
}

/**
 * A route serving HTML sets its own policy in its route config:
 * `app.get('/api/docs', { config: { securityHeaders: htmlPagePolicy({ 'default-src': ["'self'"], … }) } }, …)`.
 */
export function htmlPagePolicy(directives: CspDirectives): HelmetOptions {
  return { contentSecurityPolicy: { useDefaults: false, directives: { 'frame-ancestors': ["'none'"], ...directives } } };
}

/** The API's headers: nothing loads from or frames a JSON answer. */
const API_HEADERS: HelmetOptions = {
  contentSecurityPolicy: { useDefaults: false, directives: API_CSP },
  frameguard: { action: 'deny' },
  referrerPolicy: { policy: 'no-referrer' },
  // Only over https (TLS, or x-forwarded-proto from a trusted proxy): set per request below.
  strictTransportSecurity: false,
};

const HSTS = 'max-age=31536000; includeSubDomains';

const isBlogPath = (url: string | undefined): boolean => url === '/blog' || (url?.startsWith('/blog/') ?? false);

/** Paths browsers on other origins may call. */
const CORS_PATH = /^\/(graphql|api)(\/|\?|$)/;

/** Headers a browser client sends: Apollo's CSRF-prevention header, the bearer token, JSON bodies. */
const CORS_ALLOWED_HEADERS = ['authorization', 'content-type', 'apollo-require-preflight', 'x-apollo-operation-name'];
const CORS_EXPOSED_HEADERS = ['retry-after', 'ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset'];

/**
 * The headers a helmet policy sets, from its middleware run once against a recorder: every policy
 * here is static (no nonce, no directive computed per request), so the same headers go on every
 * reply through Fastify's header map (helmet's middleware would call `setHeader`, which validates
 * each header again, a dozen times per request).
 */
export function helmetHeaders(options: HelmetOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  const recorder = {
    setHeader: (name: string, value: string) => void (headers[name.toLowerCase()] = value),
    removeHeader: (name: string) => void delete headers[name.toLowerCase()],
  };
  // helmet 8's middleware sets its headers and calls `next` synchronously.
  helmet(options)({} as IncomingMessage, recorder as unknown as ServerResponse, () => undefined);
  return headers;
}

const apiHeaders = helmetHeaders(API_HEADERS);

/** The API's security headers on a reply that no hook ran for (the router's own refusals, ./error-handler.ts). */
export function setApiSecurityHeaders(request: FastifyRequest, reply: FastifyReply): void {
  if (request.protocol === 'https') reply.header('strict-transport-security', HSTS);
  reply.headers(apiHeaders);
}

/**
 * Security headers (helmet) and CORS on every response, errors included. Registered before
 * any other hook, so responses ended early (admission 429, body limit 413, timeout 503) carry
 * them too, and preflights are answered before admission charges anything.
 */
export async function registerSecurity(app: FastifyInstance, http: Pick<Config['http'], 'corsOrigins'> & { graphqlIde: boolean }): Promise<void> {
  const graphqlPage = htmlPagePolicy(http.graphqlIde ? GRAPHIQL_CSP : APOLLO_LANDING_PAGE_CSP);
  app.addHook('onRoute', (route) => {
    const methods = routeMethods(route);
    const own = route.config?.securityHeaders;
    if (route.url === '/graphql' && methods.includes('GET') && own === undefined) route.config = { ...route.config, securityHeaders: graphqlPage };
    // The proxied blog (./blog-proxy.ts) sends its own policy and headers; the API's JSON CSP would break its pages.
    if (isBlogPath(route.url)) route.config = { ...route.config, securityHeaders: false };
  });
  // Each policy's headers are computed once (@fastify/helmet rebuilds the middleware, parsing the
  // policy again, on every request): the API's at start, a route's own on its first request (a
  // later scope's onRoute hook may still set it, see ./openapi.ts).
  const routeHeaders = new WeakMap<HelmetOptions, Record<string, string>>();
  const headersFor = (policy: HelmetOptions) => {
    let headers = routeHeaders.get(policy);
    if (!headers) routeHeaders.set(policy, (headers = helmetHeaders({ ...API_HEADERS, ...policy } as HelmetOptions)));
    return headers;
  };
  app.addHook('onRequest', (request, reply, done) => {
    const policy = routeOf(request).config?.securityHeaders;
    if (policy === false) return done();
    if (request.protocol === 'https') reply.header('strict-transport-security', HSTS);
    reply.headers(policy ? headersFor(policy) : apiHeaders);
    done();
  });

  // The options are built once per allowed origin (and once for every refused request), not per request.
  const optionsFor = (origin: string | false): FastifyCorsOptions => ({
    origin,
    credentials: true,
    methods: ['GET', 'HEAD', 'POST'],
    allowedHeaders: CORS_ALLOWED_HEADERS,
    exposedHeaders: CORS_EXPOSED_HEADERS,
    maxAge: 600,
  });
  // `false` sends no CORS header at all (and a preflight gets 404), so the browser refuses.
  const refused = optionsFor(false);
  const allowed = new Map(http.corsOrigins.map((origin) => [origin, optionsFor(origin)]));
  const corsFor = (request: FastifyRequest): FastifyCorsOptions => {
    const origin = request.headers.origin;
    return (origin !== undefined && CORS_PATH.test(request.url) && allowed.get(origin)) || refused;
  };
  await app.register(cors, { hook: 'onRequest', delegator: (request, callback) => callback(null, corsFor(request)) });
}
