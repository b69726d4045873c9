import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config';
import { createLogger, type Logger } from '../observability/logger';
import { createMetrics, type Metrics } from '../observability/metrics';
import { connectRedis, createBus, createSharedStore, type SharedStore } from '../store';
import type { RedisOptions } from 'ioredis';
import { createDb, type Db } from '../db/client';
import { DataDirInUseError } from '../db/data-dir-lock';
import { describeDatabaseFailure } from './database-failure';
import { StartupProblem } from './startup-problem';
import { createServices, type Services } from '../services';
import type { HttpAppDeps } from '../http/app';
import type { SharedKeyValueCache } from '../store/kv-cache';
import type { Role } from '../roles';
import { startBlogRole, type BlogRoleOptions } from './blog';
import { closeHttpApp } from './http';
import { listenHealth } from '../http/health-server';
import { createShutdown, HTTP_CLOSE_SLACK_MS, type Shutdown } from './shutdown';
import type { Supervisor } from './supervisor';

const VERSION = '0.1.0';

/** After the listener closes, how long a connection without a request may still send one (answered 503). */
const IDLE_CONNECTION_GRACE_MS = 250;

/**
 * Pending connections the kernel queues until the process accepts them. Node's default (511) fills in
 * half a second when a replica takes over a thousand websocket clients a second while its event loop is
 * busy, and the kernel then drops or resets the overflow (capped by net.core.somaxconn).
 */
const LISTEN_BACKLOG = 4_096;

/** Everything a caller may replace; main.ts passes roles only, tests and benches more. */
export interface RuntimeOverrides {
  /** Default: api, indexer and jobs (the blog process only when asked for). */
  roles?: ReadonlySet<Role>;
  logger?: Logger;
  metrics?: Metrics;
  version?: string;
  /** A database the caller owns (replicas sharing one); the runtime then never closes it. */
  db?: Db;
  /** Shared-store key namespace (default: the configured prefix). */
  storeKeyPrefix?: string;
  /** Where the API listens (default: GENERAL.HOST / GENERAL.PORT). */
  listen?: { host?: string; port?: number };
  caps?: HttpAppDeps['caps'];
  extraRoutes?: HttpAppDeps['extraRoutes'];
  admission?: boolean;
  leaderboardCacheTtlMs?: number;
  /** Storage of the GraphQL response cache and persisted queries (default: the shared store's); benchmarks pass one that never stores. */
  responseCache?: SharedKeyValueCache;
  /** The blog process's command and supervision policy. */
  blog?: Pick<BlogRoleOptions, 'command' | 'policy'>;
  /** Test seam: the services' clock (auth, quests). */
  now?: () => Date;
  /** A supervised part gave up for good (blog crash loop). Default: logged only. */
  onFatal?: (err: Error) => void;
}

/** The parts api, indexer and jobs share. */
interface RuntimeCore {
  db: Db;
  store: SharedStore;
  services: Services;
}

export interface Runtime {
  config: Config;
  logger: Logger;
  metrics: Metrics;
  roles: ReadonlySet<Role>;
  /** Present when api, indexer or jobs run in this process. */
  core: RuntimeCore | null;
  /** The listening API app (api role). */
  app: FastifyInstance | null;
  /** `http://host:port` of the API (api role). */
  url: string | null;
  /** The supervised blog process (blog role). */
  blog: Supervisor | null;
  /** Resolves when the supervised blog process first answers (blog role); null without it. */
  blogAnswering: Promise<void> | null;
  /** Human-readable addresses for the start-up banner. */
  urls: string[];
  /** Stops everything in SHUTDOWN_PHASES order; safe to call more than once. */
  close(): Promise<void>;
}

/**
 * The one composition root: config → db/store → services → http/gateway/indexer/jobs, plus the
 * supervised blog process. main.ts, the test helper and the benchmark server all build the
 * system here; a failure while starting closes whatever was already started, then rethrows.
 */
export async function createRuntime(config: Config, overrides: RuntimeOverrides = {}): Promise<Runtime> {
  const roles = overrides.roles ?? new Set<Role>(['api', 'indexer', 'jobs']);
  const logger = overrides.logger ?? createLogger({ level: config.logLevel, secretValues: config.secretValues });
  const metrics = overrides.metrics ?? createMetrics();
  const shutdown = createShutdown(logger);
  const runtime: Runtime = { config, logger, metrics, roles, core: null, app: null, url: null, blog: null, blogAnswering: null, urls: [], close: () => shutdown.run() };
  try {
    if (roles.has('blog')) startBlog(runtime, shutdown, overrides);
    if (roles.has('api') || roles.has('indexer') || roles.has('jobs')) await startCore(runtime, shutdown, overrides);
    if (!roles.has('api') && config.http.healthPort !== undefined) await startHealthPort(runtime, shutdown, config.http.healthPort);
  } catch (err) {
    await shutdown.run();
    throw err;
  }
  return runtime;
}

/**
 * Starts the supervised blog process: the only process that loads Payload and Next (the API
 * reads the blog and forwards the partner webhook to it over HTTP, services/blog).
 */
function startBlog(runtime: Runtime, shutdown: Shutdown, overrides: RuntimeOverrides): void {
  const { config, logger, roles } = runtime;
  let answering!: () => void;
  runtime.blogAnswering = new Promise<void>((resolve) => (answering = resolve));
  runtime.blog = startBlogRole({
    config,
    logger,
    metrics: runtime.metrics,
    command: overrides.blog?.command,
    policy: overrides.blog?.policy,
    onGiveUp: overrides.onFatal ?? ((err) => logger.error({ err }, 'blog: supervision gave up')),
    onMigrated: () => {
      logger.info('blog: migrations applied');
      // A supervising parent (npm run start:cluster) starts the API replicas only then.
      process.send?.({ type: 'blog-migrated' });
    },
    onAnswering: () => answering(),
  });
  const blog = runtime.blog;
  shutdown.add('blog', 'blog process', () => blog.stop());
  if (!roles.has('api')) runtime.urls.push(`blog:      http://localhost:${config.blog.port}/blog/`, `admin:     http://localhost:${config.blog.port}/blog/admin/`);
}

/**
 * The transports (Fastify, Apollo, type-graphql, graphql-ws, Socket.IO): only API processes load
 * them, so a jobs or indexer process never pays for them (about 30 MiB of heap, docs/decisions.md).
 */
const loadTransports = () => Promise.all([import('../resolvers'), import('../http/app'), import('../store/kv-cache')]);

async function startCore(runtime: Runtime, shutdown: Shutdown, overrides: RuntimeOverrides): Promise<void> {
  const { config, logger, metrics, roles } = runtime;
  // Their files are read while the database opens (a start waits on neither twice).
  const transports = roles.has('api') ? loadTransports() : null;
  transports?.catch(() => undefined);
  // Only API processes admit requests, so only they count among the replicas an outage divides limits by.
  const store = await createSharedStore({ ...config.store, ...(overrides.storeKeyPrefix ? { keyPrefix: overrides.storeKeyPrefix } : {}), logger, countsAsReplica: roles.has('api') });
  shutdown.add('store', 'shared store', () => store.close());
  const db = overrides.db ?? (await openDatabase(config, logger));
  if (!overrides.db) shutdown.add('db', 'database', () => db.close());
  const bus = createBus(store, { logger });
  const services = await createServices({ config, logger, db, store, bus, version: overrides.version ?? VERSION, leaderboardCacheTtlMs: overrides.leaderboardCacheTtlMs, registry: metrics.registry, now: overrides.now });
  shutdown.add('roles', 'quest lifecycle watch', () => services.quests.close());
  shutdown.add('roles', 'chat relay and presence', async () => void (await Promise.all([services.chat.close(), services.presence.close()])));
  // First boot: an empty quest catalogue is seeded before the API answers (GET /api/quests/list shows it at once).
  await services.quests.start();
  // The operator set every request is checked against, loaded before the first one.
  await services.operators.start();
  shutdown.add('roles', 'operator roles watch', () => services.operators.close());
  // The chat bans every send, reaction and typing is checked against, loaded before the first one.
  await services.chatModeration.start();
  shutdown.add('roles', 'chat bans watch', () => services.chatModeration.close());
  runtime.core = { db, store, services };

  if (transports) {
    const [{ buildGraphqlSchema }, { buildHttpApp }, { createSharedKeyValueCache }] = await transports;
    const schema = await buildGraphqlSchema({ services, pubSub: bus.pubSub });
    // One origin: `/blog` is proxied to BLOG_UPSTREAM_URL, else to this platform's own blog process.
    const blogUpstream = config.blog.upstreamUrl ?? (roles.has('blog') ? `http://127.0.0.1:${config.blog.port}` : undefined);
    const storeKeyPrefix = overrides.storeKeyPrefix ?? config.store.keyPrefix;
    const socketIoRedis = { connect: (extra?: RedisOptions) => connectRedis(config.store, extra), keyPrefix: storeKeyPrefix };
    const responseCache = overrides.responseCache ?? createSharedKeyValueCache(store, { logger });
    shutdown.add('store', 'response cache', () => responseCache.close());
    const app = await buildHttpApp({ config, logger, metrics, store, bus, services, schema, caps: overrides.caps, extraRoutes: overrides.extraRoutes, admission: overrides.admission, blogUpstream, socketIoRedis, responseCache, tracing: config.tracing !== undefined });
    // Unready first (the edge's health checks stop routing here while requests are still served),
    // then the drain: requests end within the request timeout (answered 503 then); a little slack to flush them.
    shutdown.add('http', 'http server', async () => {
      services.readiness.markShuttingDown();
      if (config.http.drainDelayMs > 0 && app.server.listening) await sleep(config.http.drainDelayMs);
      await closeHttpApp(app, { graceMs: config.http.requestTimeoutMs + HTTP_CLOSE_SLACK_MS, idleGraceMs: IDLE_CONNECTION_GRACE_MS, logger });
    });
    const host = overrides.listen?.host ?? config.http.host;
    await app.listen({ port: overrides.listen?.port ?? config.http.port, host, backlog: LISTEN_BACKLOG });
    const { port } = app.server.address() as { port: number };
    const reachable = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
    runtime.app = app;
    runtime.url = `http://${reachable.includes(':') ? `[${reachable}]` : reachable}:${port}`;
    const origin = `http://localhost:${port}`;
    runtime.urls.unshift(
      `api:       ${origin}/api/health`,
      `graphql:   ${origin}/graphql  (IDE: open it in a browser; subscriptions: ws://localhost:${port}/graphql)`,
      `api docs:  ${origin}/api/docs`,
      `socket.io: ${origin}/socket.io/`,
      ...(blogUpstream ? [`blog:      ${origin}/blog/  (proxied to ${blogUpstream})`, `admin:     ${origin}/blog/admin/`] : []),
      `metrics:   ${origin}/metrics`,
      `console:   ${origin}/console/  (operators: OPERATOR_WALLETS)`,
    );
  }
  if (roles.has('indexer')) {
    const stops: Array<() => Promise<void>> = [];
    shutdown.add('roles', 'indexer', async () => {
      for (const stop of stops) await stop();
    });
    const { startIndexerRole } = await import('../indexer/role');
    await startIndexerRole({ config, db, logger, registry: metrics.registry, services, store, shutdown: stops });
  }
  if (roles.has('jobs')) {
    const { startJobsRole } = await import('../jobs');
    const jobs = startJobsRole({ config, db, logger, services, registry: metrics.registry });
    shutdown.add('roles', 'jobs', () => jobs.stop());
    // The one chain writer runs beside the jobs (one leader across replicas); stopped after them.
    if (services.chainWriter.configured) {
      const { startChainWriterLoop } = await import('../services/chain-writes');
      const { timeoutMs, maxAttempts, backoffBaseMs, backoffMaxMs } = config.chain.writer;
      const writer = startChainWriterLoop(
        { db, service: services.chainWriter, logger, registry: metrics.registry },
        { executeTimeoutMs: timeoutMs, maxAttempts, backoffBaseMs, backoffMaxMs, now: overrides.now },
      );
      shutdown.add('roles', 'chain writer', () => writer.stop());
    } else logger.info('jobs role: no chain writer (CHAIN.BACKEND_WALLET_PRIVATE_KEY or CHAIN.SUI_URL unset)');
  }
}

/**
 * HEALTH_PORT of a process without the api role: health and readiness (jobs, indexer) and
 * /metrics (every role, the blog's supervisor included: blog_process_*).
 */
async function startHealthPort(runtime: Runtime, shutdown: Shutdown, port: number): Promise<void> {
  const services = runtime.core?.services;
  const health = await listenHealth({ services, registry: runtime.metrics.registry }, { host: runtime.config.http.host, port });
  shutdown.add('http', 'health port', async () => {
    services?.readiness.markShuttingDown();
    const closed = new Promise<void>((resolve) => health.close(() => resolve()));
    health.closeAllConnections();
    await closed;
  });
  const origin = `http://localhost:${(health.address() as { port: number }).port}`;
  runtime.urls.push(...(services ? [`health:    ${origin}/api/health/ready`] : []), `metrics:   ${origin}/metrics`);
}

/** The configured database; a failure to reach it (or a data directory in use) becomes a StartupProblem naming the fix. */
async function openDatabase(config: Config, logger: Logger): Promise<Db> {
  try {
    return await createDb({
      databaseUrl: config.databaseUrl,
      directUrl: config.databaseDirectUrl,
      dataDir: config.dataDir,
      logger,
      statementTimeoutMs: config.databaseStatementTimeoutMs,
      transactionMaxWaitMs: config.http.requestTimeoutMs,
    });
  } catch (err) {
    if (err instanceof DataDirInUseError) throw new StartupProblem(`${err.message}: another instance is running on DATA_DIR=${config.dataDir}. Stop it, or start this one with another DATA_DIR (or a DATABASE_URL).`);
    if (!config.databaseUrl) throw err;
    const [setting, url] = config.databaseDirectUrl ? ['DATABASE_DIRECT_URL', config.databaseDirectUrl] : ['DATABASE_URL', config.databaseUrl];
    throw describeDatabaseFailure(err, setting, url);
  }
}
