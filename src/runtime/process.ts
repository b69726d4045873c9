import { ConfigError, loadConfig, type Config } from '../config';
import { withDevelopmentSecrets, type DevelopmentSecrets } from '../config/development-secrets';
import { chooseLogFormat, createLogger } from '../observability/logger';
import { parseRoles, type Role } from '../roles';
import type { Runtime, RuntimeOverrides } from './index';
import { readyBanner } from './banner';
import { compileWasmBaselineOnly, limitHeapGrowth } from './heap';
import { collectWhenIdle } from './idle-gc';
import { checkBlogDatabase } from './blog-database';
import { checkPortsFree } from './ports';
import { shutdownBoundMs } from './shutdown';
import { StartupProblem } from './startup-problem';
import { onStopSignals } from './stop-signals';

/**
 * Exit codes: 78 configuration, 69 (EX_UNAVAILABLE) something outside unavailable (a port taken, the
 * database unreachable, the data directory in use: a StartupProblem) or a supervised part (the blog
 * process) crash-looped, 70 any other start-up failure; 0 after a clean shutdown on SIGTERM/SIGINT.
 */
const EXIT = { ok: 0, config: 78, startup: 70, unavailable: 69, supervisedGaveUp: 69 } as const;

/**
 * The process around the runtime: roles from argv, config from the environment, signals, exit
 * codes and the start-up banner. src/main.ts runs it as is; test entries may add overrides
 * (an extra route) and still get the real signal handling.
 */
export async function runProcess(argv: string[], overrides: Omit<RuntimeOverrides, 'roles' | 'logger' | 'onFatal'> = {}): Promise<void> {
  limitHeapGrowth();
  compileWasmBaselineOnly();
  collectWhenIdle();
  let roles: Set<Role>;
  let config: Config;
  let devSecrets: DevelopmentSecrets['generated'];
  try {
    roles = parseRoles(argv);
    ({ config, generated: devSecrets } = withDevelopmentSecrets(loadConfig()));
  } catch (err) {
    process.stderr.write(`${err instanceof ConfigError || err instanceof Error ? err.message : String(err)}\n`);
    process.exit(EXIT.config);
  }
  const tty = process.stdout.isTTY === true;
  const logger = createLogger({
    level: config.logLevel,
    secretValues: config.secretValues,
    format: chooseLogFormat(config.logFormat, tty),
    colorize: tty && process.stdout.hasColors(),
  });
  for (const { name, file } of devSecrets) logger.warn({ file }, `${name} is not set: using a development secret kept in ${file} (never generated on mainnet or in production)`);
  // Before anything it instruments is imported (the pg check below, then the runtime).
  const tracing = config.tracing ? (await import('../observability/tracing')).startTracing(config.tracing, `platform-${[...roles].join('-')}`) : null;

  let runtime: Runtime | null = null;
  let starting = true;
  let stopping: { reason: string; code: number; at: number } | null = null;
  const finish = async (): Promise<void> => {
    await runtime?.close();
    await tracing?.shutdown().catch((err: unknown) => logger.warn({ err }, 'tracing: the last spans could not be sent'));
    logger.info({ reason: stopping!.reason, exitCode: stopping!.code, ms: Date.now() - stopping!.at }, 'stopped');
    process.exit(stopping!.code);
  };
  const stop = (reason: string, code: number): void => {
    if (stopping) return;
    stopping = { reason, code, at: Date.now() };
    const boundMs = shutdownBoundMs(config);
    logger.info({ reason, boundMs }, 'shutting down');
    // The documented bound (docs/operations.md, Shutdown): whatever still hangs then does not keep the process alive.
    setTimeout(() => {
      logger.error({ boundMs }, 'shutdown did not finish within its bound: exiting now');
      process.exit(code);
    }, boundMs).unref();
    // During start-up the runtime is closed as soon as createRuntime returns.
    if (!starting) void finish();
  };
  // A second signal (not the same one delivered twice, see stop-signals.ts) ends the process at once.
  onStopSignals({
    stop: (signal) => stop(signal, EXIT.ok),
    force: (signal) => {
      logger.warn({ signal }, 'second signal during shutdown: exiting now');
      process.exit(128 + (signal === 'SIGINT' ? 2 : 15));
    },
  });
  // Spawned by a supervisor (scripts/start-cluster.ts): its death closes the IPC channel; stop with it.
  if (process.channel) process.once('disconnect', () => stop('supervisor exited', EXIT.ok));
  try {
    await checkPortsFree(config, roles);
    if (roles.has('blog')) await checkBlogDatabase(config);
    // Loaded only now: a refused configuration exits 78 without paying for the whole system's imports.
    const { createRuntime } = await import('./index');
    runtime = await createRuntime(config, {
      ...overrides,
      roles,
      logger,
      onFatal: (err) => {
        process.stderr.write(`${err.message}\n`);
        stop('blog crash loop', EXIT.supervisedGaveUp);
      },
    });
  } catch (err) {
    if (err instanceof StartupProblem) {
      logger.fatal(err.message.split('\n')[0]);
      process.stderr.write(`\n${err.message}\n\n`);
      process.exit(EXIT.unavailable);
    }
    logger.fatal({ err }, 'start-up failed');
    process.exit(EXIT.startup);
  }
  starting = false;
  if (stopping) return finish();
  logger.info({ roles: [...roles], envFiles: config.envFiles, url: runtime.url ?? undefined }, 'started');
  const started = runtime;
  const webhookFile = devSecrets.find((s) => s.name === 'WEBHOOK_SECRET')?.file;
  // One banner, once everything answers: with its own blog process, after the blog's first answer.
  const printReady = (): void => {
    if (stopping) return;
    logger.info('ready');
    process.stdout.write(readyBanner(roles, started.urls));
    if (webhookFile && started.url) process.stdout.write(samplePublishCommand(started.config.blog.appUrl, webhookFile));
  };
  if (!runtime.blogAnswering) return printReady();
  logger.info('blog: starting (a first build takes a minute or two); the addresses follow once it answers');
  void runtime.blogAnswering.then(printReady);
}

/**
 * The curl that publishes the sample article (docs/sample-article.json) with the development
 * webhook secret. It reads the secret from its file, so the secret stays out of logs and scrollback.
 */
function samplePublishCommand(appUrl: string, secretFile: string): string {
  return [
    `Webhook: development secret in ${secretFile}. Publish the sample article (then open ${appUrl.replace(/\/+$/, '')}/blog/):`,
    `  curl -X POST ${appUrl.replace(/\/+$/, '')}/api/blog/webhooks/contentpartner \\`,
    `    -H "Authorization: Bearer $(cat ${secretFile})" -H 'content-type: application/json' -d @docs/sample-article.json`,
    '',
    '',
  ].join('\n');
}
