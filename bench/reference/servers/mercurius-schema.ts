// Mercurius with graphql-jit (jit: 1) serving OUR schema: built by the runtime's buildGraphqlSchema
// over the same services, so against our API only the server and executor differ.
import 'reflect-metadata';
import Fastify from 'fastify';
import mercurius from 'mercurius';
import { createDb } from '../../../src/db/client';
import { buildGraphqlSchema } from '../../../src/resolvers';
import { createServices } from '../../../src/services';
import { createBus, createSharedStore } from '../../../src/store';
import type { GraphqlContext } from '../../../src/graphql/context';
import { announce, benchConfig, benchLogger, flag } from './common';

const config = benchConfig();
const logger = benchLogger();
const store = await createSharedStore({ ...config.store, logger });
const db = await createDb({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, logger });
const bus = createBus(store, { logger });
const services = await createServices({ config, logger, db, store, bus, version: 'bench', leaderboardCacheTtlMs: Number(flag('cache-ttl', '30000')) });
await services.quests.start();
const schema = await buildGraphqlSchema({ services, pubSub: bus.pubSub });

const app = Fastify();
await app.register(mercurius, {
  schema,
  jit: 1,
  context: (request): GraphqlContext => ({ requestId: request.id, ip: request.ip, auth: null, services, transport: 'http' }),
});
await announce(app, async () => {
  await app.close();
  await services.quests.close();
  await db.close();
  await store.close();
});
