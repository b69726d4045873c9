import type { FastifyInstance } from 'fastify';
import type { Services } from '../../services';
import { analyticsRoutes } from './analytics';
import { authRoutes } from './auth';
import { blogRoutes } from './blog';
import { chatRoutes } from './chat';
import { giftRoutes } from './gifts';
import { priceRoutes } from './prices';
import { healthRoutes } from './health';
import { questRoutes } from './quests';
import { addSharedSchemas, documentBearerAuth, documentTransportErrors } from './responses';
import { usersRoutes } from './users';
import { socialLinkRoutes } from './social-links';
import { zkLoginRoutes } from './zklogin';
import { onrampRoutes } from './onramps';
import { welcomeWheelRoutes } from './welcome-wheel';
import { nameserviceRoutes } from './nameservice';

/** The `/api` REST shim: one file per domain, each a thin adapter over its service. */
export async function restRoutes(app: FastifyInstance, opts: { services: Services }): Promise<void> {
  addSharedSchemas(app);
  documentBearerAuth(app);
  documentTransportErrors(app);
  await healthRoutes(app, opts.services);
  await authRoutes(app, opts.services);
  await zkLoginRoutes(app, opts.services);
  await analyticsRoutes(app, opts.services);
  await blogRoutes(app, opts.services);
  await questRoutes(app, opts.services);
  await usersRoutes(app, opts.services);
  await socialLinkRoutes(app, opts.services);
  await chatRoutes(app, opts.services);
  await onrampRoutes(app, opts.services);
  await welcomeWheelRoutes(app, opts.services);
  await nameserviceRoutes(app, opts.services);
  await priceRoutes(app, opts.services);
  await giftRoutes(app, opts.services);
}
