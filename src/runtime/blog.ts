import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Counter, Gauge } from 'prom-client';
import { childProcessEnv, type Config } from '../config';
import type { Logger } from '../observability/logger';
import type { Metrics } from '../observability/metrics';
import { relayBlogLine } from './blog-output';
import { scriptNodeArgs } from './script-command';
import { superviseProcess, type SupervisedCommand, type SupervisionPolicy, type Supervisor } from './supervisor';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** The `blog` role's process: migrations, a first build when none exists, then `next start`. */
function blogCommand(config: Pick<Config, 'blog' | 'dataDir' | 'sourceEnv' | 'nodeEnv'>): SupervisedCommand {
  return {
    command: process.execPath,
    args: scriptNodeArgs('blog-serve'),
    cwd: ROOT,
    // The child inherits this process's environment plus the settings it was configured from (env
    // files included), so the blog and its CMS parse exactly what was validated here, with this
    // process's NODE_ENV whatever their framework sets (PLATFORM_NODE_ENV).
    // eslint-disable-next-line no-restricted-properties -- the blog child inherits this process's environment
    env: { ...process.env, ...config.sourceEnv, ...childProcessEnv(config), BLOG_PORT: String(config.blog.port), DATA_DIR: config.dataDir },
  };
}

export interface BlogRoleOptions {
  config: Pick<Config, 'blog' | 'dataDir' | 'sourceEnv' | 'nodeEnv'>;
  logger: Logger;
  metrics: Metrics;
  onGiveUp: (err: Error) => void;
  /** The blog process has applied the blog database's migrations (blog-serve says so over IPC). */
  onMigrated?: () => void;
  /** The blog answers requests (blog-serve has fetched a page from its Next server). */
  onAnswering?: () => void;
  /** Tests: another command or a faster policy. */
  command?: SupervisedCommand;
  policy?: Partial<SupervisionPolicy>;
}

/**
 * Starts the blog process under supervision. Its state is reported in the logs (one line per
 * start, exit and restart) and in /metrics: `blog_process_up` (1 while the process runs) and
 * `blog_process_restarts_total`; /api/health stays liveness-only, as the spec asks.
 */
export function startBlogRole(opts: BlogRoleOptions): Supervisor {
  const up = new Gauge({ name: 'blog_process_up', help: '1 while the supervised blog process runs, else 0', registers: [opts.metrics.registry] });
  const restarts = new Counter({ name: 'blog_process_restarts_total', help: 'Restarts of the blog process after it exited unexpectedly', registers: [opts.metrics.registry] });
  let seenRestarts = 0;
  return superviseProcess({
    name: 'blog',
    run: opts.command ?? blogCommand(opts.config),
    logger: opts.logger,
    policy: opts.policy,
    onGiveUp: opts.onGiveUp,
    onOutput: (line, stream) => relayBlogLine(opts.logger, line, stream),
    onMessage: (message) => {
      const type = (message as { type?: unknown } | null)?.type;
      if (type === 'blog-migrated') opts.onMigrated?.();
      if (type === 'blog-answering') opts.onAnswering?.();
    },
    onStatus: (status) => {
      up.set(status.state === 'running' ? 1 : 0);
      if (status.restarts > seenRestarts) restarts.inc(status.restarts - seenRestarts);
      seenRestarts = status.restarts;
    },
  });
}
