import type { FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { htmlPagePolicy } from './security';

const OPENAPI_DOCUMENT_PATH = '/api/openapi.json';
const OPENAPI_DOCS_PATH = '/api/docs';

/**
 * The reference page is Swagger UI's own bundle served from this process (no CDN), so it needs
 * only same-origin scripts, styles (plus the inline styles its React views set), data: images
 * (its logo and icons) and same-origin calls for the document and "Try it out".
 */
const DOCS_PAGE_CSP = {
  'default-src': ["'none'"],
  'script-src': ["'self'"],
  'style-src': ["'self'", "'unsafe-inline'"],
  'img-src': ["'self'", 'data:'],
  'connect-src': ["'self'"],
  'base-uri': ["'none'"],
  'form-action': ["'none'"],
};

/**
 * Describes the `/api` REST routes as an OpenAPI 3.1 document generated from the routes' own
 * JSON schemas (the ones Fastify validates and serializes with). Only tagged routes are listed,
 * so `/graphql`, `/metrics` and routes added by tests stay out. Register before the REST routes:
 * the document collects routes as they are added.
 */
export async function registerOpenApi(app: FastifyInstance, opts: { version: string }): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Platform REST API',
        version: opts.version,
        description: 'The REST shim under `/api`. GraphQL (`/graphql`) is described by its own schema. Every error answer has the `ErrorResponse` shape.',
      },
      components: {
        securitySchemes: {
          webhookSecret: { type: 'http', scheme: 'bearer', description: 'The shared `WEBHOOK_SECRET` of the content partner.' },
          bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'The access token from /api/auth/login, /api/auth/zklogin or /api/auth/refresh.' },
          operatorToken: { type: 'http', scheme: 'bearer', description: 'The `OPERATOR_TOKEN` setting: operator-only routes (cache statistics and clear under /api/stats/cache, and every /api/admin route, where an operator wallet\'s access token works too).' },
        },
      },
    },
    hideUntagged: true,
    // Shared schemas keep their `$id` as their component name (the default is `def-N`).
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`) },
  });

  await app.register(async (docs) => {
    // The docs pages' security headers (read per request by ./security.ts).
    docs.addHook('onRoute', (route) => {
      route.config = { ...route.config, securityHeaders: htmlPagePolicy(DOCS_PAGE_CSP) };
    });
    await docs.register(swaggerUi, { routePrefix: OPENAPI_DOCS_PATH, uiConfig: { deepLinking: true } });
  });
  app.get(OPENAPI_DOCUMENT_PATH, { schema: { hide: true } }, async () => app.swagger());
}
