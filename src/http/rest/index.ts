import type { FastifyInstance } from 'fastify';
import type { Services } from '../../services';
import { analyticsRoutes } from './analytics';
import { blogRoutes } from './blog';
import { healthRoutes } from './health';
import { addSharedSchemas } from './responses';

/** The `/api` REST shim: one file per domain, each a thin adapter over its service. */
export async function restRoutes(app: FastifyInstance, opts: { services: Services }): Promise<void> {
  addSharedSchemas(app);
  await healthRoutes(app, opts.services);
  await analyticsRoutes(app, opts.services);
  await blogRoutes(app, opts.services);
}
