import 'reflect-metadata';
import { spawn, type ChildProcess } from 'node:child_process';
import { ConfigError, loadConfig, type Config } from './config';
import { createLogger, type Logger } from './observability/logger';
import { createMetrics } from './observability/metrics';
import { createSharedStore, createPubSub } from './store';
import { createDb } from './db/client';
import { createServices } from './services';
import { buildGraphqlSchema } from './resolvers';
import { buildHttpApp } from './http/app';
import { parseRoles, type Role } from './roles';

const VERSION = '0.1.0';

/** Distinct exit codes per failed start-up stage. */
const EXIT = { config: 78, startup: 70 } as const;

async function main(): Promise<void> {
  let roles: Set<Role>;
  let config: Config;
  try {
    roles = parseRoles(process.argv.slice(2));
    config = loadConfig();
  } catch (err) {
    process.stderr.write(`${err instanceof ConfigError || err instanceof Error ? err.message : String(err)}\n`);
    process.exit(EXIT.config);
  }
  const logger = createLogger({ level: config.logLevel, secretValues: config.secretValues });
  if (config.jwt.generated) logger.warn('JWT_SECRET is not set: using the development-only key (refused in production)');
  const shutdown: Array<() => Promise<void>> = [];
  try {
    await startRoles(roles, config, logger, shutdown);
  } catch (err) {
    logger.fatal({ err }, 'start-up failed');
    await runShutdown(shutdown, logger);
    process.exit(EXIT.startup);
  }
  const stop = async (signal: string) => {
    logger.info({ signal }, 'shutting down');
    await runShutdown(shutdown, logger);
    process.exit(0);
  };
  process.once('SIGINT', () => void stop('SIGINT'));
  process.once('SIGTERM', () => void stop('SIGTERM'));
}

async function startRoles(roles: Set<Role>, config: Config, logger: Logger, shutdown: Array<() => Promise<void>>): Promise<void> {
  const urls: string[] = [];
  if (roles.has('blog')) {
    const child = startBlog(config, logger);
    shutdown.push(async () => void child.kill('SIGTERM'));
    urls.push(`blog:    http://localhost:${config.blog.port}/blog/  (admin: /blog/admin/)`);
  }
  if (roles.has('api') || roles.has('indexer') || roles.has('jobs')) {
    const metrics = createMetrics();
    const store = await createSharedStore({ ...config.store, logger });
    shutdown.unshift(() => store.close());
    const db = await createDb({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, logger, statementTimeoutMs: config.databaseStatementTimeoutMs });
    shutdown.push(() => db.close());
    const pubSub = createPubSub(store, { logger });
    const services = await createServices({ config, logger, db, store, pubSub, version: VERSION });
    if (roles.has('api')) {
      const schema = await buildGraphqlSchema({ services, pubSub });
      const app = await buildHttpApp({ config, logger, metrics, store, services, schema });
      await app.listen({ port: config.http.port, host: config.http.host });
      shutdown.unshift(() => app.close());
      shutdown.push(() => services.blog.close());
      if (config.blog.webhookSecret) services.blog.warm();
      const port = (app.server.address() as { port: number }).port;
      urls.unshift(`api:     http://localhost:${port}/api/health`, `graphql: http://localhost:${port}/graphql  (ws: ws://localhost:${port}/graphql)`, `metrics: http://localhost:${port}/metrics`);
    }
    if (roles.has('indexer')) await (await import('./indexer/role')).startIndexerRole({ config, db, logger, registry: metrics.registry, services, store, shutdown });
    if (roles.has('jobs')) logger.info('jobs role: no jobs scheduled yet');
  }
  logger.info({ roles: [...roles], envFiles: config.envFiles }, 'started');
  process.stdout.write(`\nRunning roles: ${[...roles].join(', ')}\n${urls.map((u) => `  ${u}`).join('\n')}\n\n`);
}

function startBlog(config: Config, logger: Logger): ChildProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/blog-serve.ts'], {
    stdio: 'inherit',
    // eslint-disable-next-line no-restricted-properties -- the blog child inherits this process's environment
    env: { ...process.env, BLOG_PORT: String(config.blog.port), DATA_DIR: config.dataDir },
  });
  child.on('exit', (code, signal) => logger.warn({ code, signal }, 'blog process exited'));
  return child;
}

async function runShutdown(steps: Array<() => Promise<void>>, logger: Logger): Promise<void> {
  for (const step of steps) {
    try {
      await step();
    } catch (err) {
      logger.warn({ err }, 'shutdown step failed');
    }
  }
}

void main();
