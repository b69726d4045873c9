import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { loadConfig, type Config } from '../../src/config';
import { createMetrics } from '../../src/observability/metrics';
import type { SharedStore } from '../../src/store';
import type { Services } from '../../src/services';
import { createRuntime, type Runtime } from '../../src/runtime';
import type { ConnectionCaps } from '../../src/gateway/caps';
import type { Role } from '../../src/roles';
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
  /** Roles this API runs (default: api only); e.g. ['api', 'jobs'] to run the scheduled jobs too. */
  roles?: Role[];
  /** A fake clock for the services that read one (auth, quests). */
  now?: () => Date;
}

/** What mainnet refuses to start without (src/config MAINNET_REQUIRED); a test's own values win. */
const MAINNET_REQUIRED_FOR_TESTS = {
  APP_URL: 'https://platform.example',
  JWT_SECRET: 'test-mainnet-jwt-secret-0123456789abcdef',
  PAYLOAD_SECRET: 'test-mainnet-payload-secret',
  WEBHOOK_SECRET: 'test-mainnet-webhook-secret',
  BLOG_REVALIDATION_SECRET: 'test-mainnet-revalidation-secret',
};

/** Starts the real API through the one composition root (createRuntime) on a random port. */
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
      ...(opts.env?.NETWORK === 'mainnet' ? MAINNET_REQUIRED_FOR_TESTS : {}),
      ...opts.env,
    },
  });
  const { logger, logs } = captureLogger({ level: config.logLevel, secretValues: config.secretValues });
  const ownDb = opts.db ? null : await createTestDb();
  const db = opts.db ?? ownDb!.db;
  let runtime: Runtime;
  try {
    runtime = await createRuntime(config, {
      roles: new Set<Role>(opts.roles ?? ['api']),
      logger,
      metrics: createMetrics({ defaultMetrics: false }),
      version: 'test',
      db,
      storeKeyPrefix: `test:${opts.storePrefix ?? randomUUID()}:`,
      listen: { port: 0, host: opts.host ?? '127.0.0.1' },
      caps: opts.caps,
      extraRoutes: opts.extraRoutes,
      now: opts.now,
    });
  } catch (err) {
    await ownDb?.cleanup();
    throw err;
  }
  const { app, core, url } = runtime;
  return {
    url: url!,
    wsUrl: `${url!.replace(/^http/, 'ws')}/graphql`,
    app: app!,
    config,
    store: core!.store,
    services: core!.services,
    db,
    logs,
    async close() {
      await runtime.close();
      await ownDb?.cleanup();
    },
  };
}
