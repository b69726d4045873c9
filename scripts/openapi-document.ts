import Fastify from 'fastify';
import { registerOpenApi } from '../src/http/openapi';
import { restRoutes } from '../src/http/rest';
import type { Services } from '../src/services';

/** The checked-in copy: the console's and the client package's REST types are generated from it. */
export const OPENAPI_FILE = 'schema/openapi.json';

/** Stands in for every service: route modules only register (read properties, bind methods); no handler runs here. */
function inertServices(): Services {
  const inert: object = new Proxy(function inert() {}, {
    get: (_target, key) => (key === 'then' ? undefined : key === 'version' ? '0.0.0' : inert),
    apply: () => inert,
  });
  return inert as Services;
}

/**
 * The `/api` OpenAPI document as the server publishes it at /api/openapi.json, built without a
 * database or a listening server (route modules register, no handler runs). `info.version` is
 * fixed so the checked-in copy does not change with every release.
 */
export async function renderOpenApiDocument(): Promise<string> {
  const app = Fastify({ logger: false });
  await registerOpenApi(app, { version: '0.0.0' });
  await app.register(restRoutes, { prefix: '/api', services: inertServices() });
  await app.ready();
  const document = app.swagger();
  await app.close();
  return `${JSON.stringify(document, null, 2)}\n`;
}
