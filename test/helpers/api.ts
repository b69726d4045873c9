import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { loadConfig, type Config } from '../../src/config';
import { createMetrics } from '../../src/observability/metrics';
import { createSharedStore, createPubSub, type SharedStore } from '../../src/store';
import { createServices, type Services } from '../../src/services';
import { buildGraphqlSchema } from '../../src/resolvers';
import { buildHttpApp } from '../../src/http/app';
import type { ConnectionCaps } from '../../src/gateway/caps';
import { captureLogger } from './logs';
import { testEnv } from './env';
import { createTestDb, type Db } from './db';

export interface TestApi {
  url: string;
  wsUrl: string;
  app: FastifyInstance;
  config: Config;
  store: SharedStore;
  services: Services;
  db: Db;
  logs: ReturnType<typeof captureLogger>['logs'];
  close(): Promise<void>;
}

export interface StartApiOptions {
  env?: Record<string, string>;
  /** 'redis' uses SHARED_STORE_URL; default: redis when configured, else memory. */
  store?: 'redis' | 'memory';
  /** Shared key namespace: two APIs with the same prefix act as replicas of one deployment. */
  storePrefix?: string;
  caps?: Partial<ConnectionCaps>;
  extraRoutes?: (app: FastifyInstance) => void | Promise<void>;
  host?: string;
  /** Share a database between several APIs (replicas); default: a fresh test database each. */
  db?: Db;
}

/** Starts the real API (config → store → services → Fastify/Apollo/graphql-ws) on a random port. */
export async function startApi(opts: StartApiOptions = {}): Promise<TestApi> {
  const useRedis = (opts.store ?? (testEnv.redisUrl ? 'redis' : 'memory')) === 'redis';
  if (useRedis && !testEnv.redisUrl) throw new Error('startApi: redis requested but SHARED_STORE_URL is not set');
  const config = loadConfig({
    envDir: '/nonexistent',
    env: {
      NODE_ENV: 'test',
      LOG_LEVEL: 'info',
      'GENERAL.PORT': '0',
      ...(useRedis ? { CACHE_STORE: 'redis', SHARED_STORE_URL: testEnv.redisUrl! } : { CACHE_STORE: 'memory' }),
      ...opts.env,
    },
  });
  const { logger, logs } = captureLogger({ level: config.logLevel, secretValues: config.secretValues });
  const store = await createSharedStore({ ...config.store, keyPrefix: `test:${opts.storePrefix ?? randomUUID()}:`, logger });
  const pubSub = createPubSub(store, { logger });
  const ownDb = opts.db ? null : await createTestDb();
  const db = opts.db ?? ownDb!.db;
  const services = await createServices({ config, logger, db, store, pubSub, version: 'test' });
  const schema = await buildGraphqlSchema({ services, pubSub });
  const app = await buildHttpApp({ config, logger, metrics: createMetrics({ defaultMetrics: false }), store, services, schema, caps: opts.caps, extraRoutes: opts.extraRoutes });
  await app.listen({ port: 0, host: opts.host ?? '127.0.0.1' });
  const { port } = app.server.address() as { port: number };
  const host = opts.host && opts.host !== '0.0.0.0' ? opts.host : '127.0.0.1';
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    wsUrl: `ws://${host.includes(':') ? `[${host}]` : host}:${port}/graphql`,
    app,
    config,
    store,
    services,
    db,
    logs,
    async close() {
      await app.close();
      await services.blog.close();
      await store.close();
      await ownDb?.cleanup();
    },
  };
}
