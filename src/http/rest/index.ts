import type { FastifyInstance } from 'fastify';
import { domains, type DomainName, type Services } from '../../services';
import { zkLoginOperations } from '../../services/auth';
import { chainWriteOperations } from '../../services/chain-writes';
import { chatModerationOperations } from '../../services/chat';
import { giftOperations, giftPlayerOperations } from '../../services/gifts';
import { operatorOperations } from '../../services/operators';
import { nameserviceOperations } from '../../services/nameservice';
import { onrampOperations } from '../../services/onramps';
import { priceOperations } from '../../services/prices';
import { questOperations, questPlayerOperations } from '../../services/quests';
import { welcomeWheelOperations } from '../../services/welcome-wheel';
import { restRoutesOf } from './operations';
import { analyticsRoutes } from './analytics';
import { authRoutes } from './auth';
import { blogRoutes } from './blog';
import { chatRoutes } from './chat';
import { healthRoutes } from './health';
import { addSharedSchemas, documentBearerAuth, documentTransportErrors } from './responses';
import { usersRoutes } from './users';
import { socialLinkRoutes } from './social-links';

type DomainRoutes = (app: FastifyInstance, services: Services) => Promise<void>;

/** Each domain's `/api` routes, under its name in the registry (src/services/domains.ts). */
export const domainRoutes = {
  system: [healthRoutes],
  auth: [authRoutes, restRoutesOf(zkLoginOperations)],
  operators: [restRoutesOf(operatorOperations)],
  analytics: [analyticsRoutes],
  blog: [blogRoutes],
  quests: [restRoutesOf(questPlayerOperations), restRoutesOf(questOperations)],
  users: [usersRoutes, socialLinkRoutes],
  chat: [chatRoutes, restRoutesOf(chatModerationOperations)],
  onramps: [restRoutesOf(onrampOperations)],
  'chain-writes': [restRoutesOf(chainWriteOperations)],
  'welcome-wheel': [restRoutesOf(welcomeWheelOperations)],
  nameservice: [restRoutesOf(nameserviceOperations)],
  prices: [restRoutesOf(priceOperations)],
  gifts: [restRoutesOf(giftPlayerOperations), restRoutesOf(giftOperations)],
} as const satisfies { [D in DomainName]?: readonly DomainRoutes[] };

/** The `/api` REST shim: one file per domain, each a thin adapter over its service, registered in registry order. */
export async function restRoutes(app: FastifyInstance, opts: { services: Services }): Promise<void> {
  addSharedSchemas(app);
  documentBearerAuth(app);
  documentTransportErrors(app);
  const byDomain: { [D in DomainName]?: readonly DomainRoutes[] } = domainRoutes;
  for (const { name } of domains) for (const register of byDomain[name] ?? []) await register(app, opts.services);
}
