// npm run start:cluster -- --replicas 3 [--port 8080] [--base-port 3100] [--no-blog]
// The production topology on one machine: HAProxy (the edge, deploy/ config rendered for these
// ports) in front of N API replicas, one jobs and one indexer process (health ports only) and the
// blog, all sharing DATABASE_URL and SHARED_STORE_URL. Every process is supervised (restarted with
// back-off, src/runtime/supervisor.ts); their output is one stream, each line prefixed with the
// process name. SIGINT/SIGTERM stops the replicas gracefully (unready, drain, 1012), then the edge.
// docs/operations.md, "Running several replicas" maps these processes onto several machines.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { loadConfig, type Config } from '../src/config';
import { createLogger } from '../src/observability/logger';
import { shutdownBoundMs } from '../src/runtime/shutdown';
import { onStopSignals } from '../src/runtime/stop-signals';
import { superviseProcess, type SupervisedCommand, type Supervisor } from '../src/runtime/supervisor';
import { renderHaproxyConfig } from './haproxy-config';
import { renderPrometheusConfig } from './prometheus-config';
import { haproxyProblem } from './haproxy-requirement';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** Long enough for the edge's health checks (every 500 ms, down after 2 failures) to take a replica out before it drains. */
const DRAIN_DELAY_MS = 2000;
/** At most this long the replicas wait for the blog's migrations (a broken blog must not keep the API down). */
const BLOG_MIGRATION_WAIT_MS = 120_000;
/** The address HAProxy connects to the replicas from: the only one they trust for X-Forwarded-For. */
const EDGE_SOURCE = '127.0.0.1';

const { values } = parseArgs({
  options: {
    replicas: { type: 'string', default: '2' },
    port: { type: 'string', default: '8080' },
    'base-port': { type: 'string', default: '3100' },
    'ops-port': { type: 'string' },
    'no-blog': { type: 'boolean', default: false },
    // Tests: the edge and the API replicas only (no jobs, indexer or blog).
    'api-only': { type: 'boolean', default: false },
    // Tests: a process entry built on src/runtime/process.ts with extra routes (built .js, or .ts run under tsx).
    'api-entry': { type: 'string' },
    'served-by-header': { type: 'boolean', default: false },
  },
});
const replicas = Number(values.replicas);
const edgePort = Number(values.port);
const basePort = Number(values['base-port']);
if (![replicas, edgePort, basePort].every((n) => Number.isInteger(n) && n > 0)) usage('--replicas, --port and --base-port take positive integers');

const edgeProblem = haproxyProblem();
if (edgeProblem) {
  process.stderr.write(`${edgeProblem}\n`);
  // EX_UNAVAILABLE: a program this one needs does not exist.
  process.exit(69);
}

let config: Config;
try {
  config = loadConfig();
} catch (err) {
  process.stderr.write(`${(err as Error).message}\n`);
  process.exit(78);
}
if (!config.databaseUrl || config.store.cacheStore !== 'redis') {
  process.stderr.write('start:cluster needs DATABASE_URL (PostgreSQL) and SHARED_STORE_URL (Redis): replicas share them; the embedded defaults are per process.\n');
  process.exit(78);
}
const logger = createLogger({ level: config.logLevel, secretValues: config.secretValues, name: 'cluster' });

const apiPorts = Array.from({ length: replicas }, (_, i) => basePort + 1 + i);
const healthPorts = { jobs: basePort + 91, indexer: basePort + 92 };
/** The blog role's supervisor serves /metrics (blog_process_*) on this HEALTH_PORT. */
const blogMetricsPort = basePort + 93;
const apiOnly = values['api-only'];
const withBlog = !values['no-blog'] && !apiOnly;
const edgeFile = path.join(path.resolve(config.dataDir), 'cluster', 'haproxy.cfg');
mkdirSync(path.dirname(edgeFile), { recursive: true });
writeFileSync(
  edgeFile,
  renderHaproxyConfig({
    bind: `127.0.0.1:${edgePort}`,
    api: apiPorts.map((port, i) => ({ name: `api-${i + 1}`, address: `127.0.0.1:${port}` })),
    blog: withBlog ? `127.0.0.1:${config.blog.port}` : undefined,
    healthOnly: apiOnly ? [] : Object.entries(healthPorts).map(([name, port]) => ({ name, address: `127.0.0.1:${port}` })),
    opsBind: values['ops-port'] ? `127.0.0.1:${values['ops-port']}` : undefined,
    requestTimeoutMs: config.http.requestTimeoutMs,
    servedByHeader: values['served-by-header'],
  }),
);

// Prometheus' scrape config for these ports, beside the edge's (docs/operations.md, "Observability").
const loopback = (name: string, port: number) => ({ name, address: `127.0.0.1:${port}` });
writeFileSync(
  path.join(path.dirname(edgeFile), 'prometheus.yml'),
  renderPrometheusConfig({
    ruleFiles: [path.join(ROOT, 'deploy/prometheus/alerts.yml')],
    jobs: {
      api: apiPorts.map((port, i) => loopback(`api-${i + 1}`, port)),
      ...(apiOnly ? {} : { jobs: [loopback('jobs', healthPorts.jobs)], indexer: [loopback('indexer', healthPorts.indexer)] }),
      ...(withBlog ? { blog: [loopback('blog', blogMetricsPort)] } : {}),
      ...(values['ops-port'] ? { haproxy: [loopback('edge', Number(values['ops-port']))] } : {}),
    },
  }),
);

/**
 * Defined by scripts/build.ts: built (dist/ or the tests' .test-dist/), this script starts the main.js beside its bundle
 * (`import.meta.filename`: the build rewrites `import.meta.url` to the source file's).
 */
declare const DIST_BUILD: boolean | undefined;
const MAIN_ARGS =
  typeof DIST_BUILD !== 'undefined'
    ? ['--enable-source-maps', path.join(path.dirname(import.meta.filename), 'main.js')]
    : ['--import', 'tsx', path.join(ROOT, 'src/main.ts')];
/** A test's own process entry: built JavaScript as it is, TypeScript under tsx. */
const entryArgs = (entry: string): string[] => [...(entry.endsWith('.js') ? ['--enable-source-maps'] : ['--import', 'tsx']), path.resolve(ROOT, entry)];

const appUrl = `http://localhost:${edgePort}`;
function role(args: string[], env: Record<string, string>, entry?: string): SupervisedCommand {
  return {
    command: process.execPath,
    args: [...(entry ? entryArgs(entry) : MAIN_ARGS), ...args],
    cwd: ROOT,
    env: { ...process.env, APP_URL: appUrl, 'GENERAL.HOST': '127.0.0.1', ...env },
  };
}

const names = ['edge', ...apiPorts.map((_, i) => `api-${i + 1}`), ...(apiOnly ? [] : ['jobs', 'indexer']), ...(withBlog ? ['blog'] : [])];
const width = Math.max(...names.map((n) => n.length));
const supervisors = new Map<string, Supervisor>();
let stopping = false;
// Long enough for a replica's whole bounded shutdown; the supervisor kills it after that.
const stopTimeoutMs = shutdownBoundMs({ http: { ...config.http, drainDelayMs: DRAIN_DELAY_MS } }) + 1000;

let blogMigrated!: () => void;
const blogReady = new Promise<void>((resolve) => (blogMigrated = resolve));

function start(name: string, run: SupervisedCommand): Supervisor {
  const supervisor = superviseProcess({
    name,
    run,
    logger,
    policy: { stopTimeoutMs },
    onOutput: (line) => process.stdout.write(`${name.padEnd(width)} | ${line}\n`),
    // The blog role's process says so over IPC once the blog database is migrated (src/runtime/index.ts).
    onMessage: (message) => {
      if ((message as { type?: unknown } | null)?.type === 'blog-migrated') blogMigrated();
    },
    onGiveUp: () => void stop(69),
  });
  supervisors.set(name, supervisor);
  return supervisor;
}

const apiEnv = (port: number): Record<string, string> => ({
  'GENERAL.PORT': String(port),
  TRUSTED_PROXY_CIDRS: `${EDGE_SOURCE}/32`,
  'HTTP.DRAIN_DELAY_MS': String(DRAIN_DELAY_MS),
  // The edge serves /blog; the replicas do not proxy it themselves.
  BLOG_UPSTREAM_URL: '',
});

if (withBlog) {
  // The blog process migrates the blog database (and builds the site the first time); the API
  // replicas, which read the blog and forward the partner webhook to it, start after that.
  start('blog', role(['--role', 'blog'], { BLOG_PORT: String(config.blog.port), HEALTH_PORT: String(blogMetricsPort) }));
}
start('edge', { command: 'haproxy', args: ['-db', '-f', edgeFile], env: { ...process.env }, cwd: ROOT });
if (withBlog) await Promise.race([blogReady, new Promise((r) => setTimeout(r, BLOG_MIGRATION_WAIT_MS))]);
apiPorts.forEach((port, i) => start(`api-${i + 1}`, role(['--role', 'api'], apiEnv(port), values['api-entry'])));
if (!apiOnly) {
  start('jobs', role(['--role', 'jobs'], { HEALTH_PORT: String(healthPorts.jobs) }));
  start('indexer', role(['--role', 'indexer'], { HEALTH_PORT: String(healthPorts.indexer) }));
}

void waitReady().then(() => {
  if (stopping) return;
  process.stdout.write(
    [
      '',
      `Cluster ready: ${replicas} API replica(s) behind the edge`,
      `  edge:    ${appUrl}/api/health  (graphql: ${appUrl}/graphql, socket.io: ${appUrl}/socket.io/${withBlog ? `, blog: ${appUrl}/blog/` : ''})`,
      ...apiPorts.map((port, i) => `  api-${i + 1}:   http://127.0.0.1:${port}/api/health/ready`),
      ...(apiOnly
        ? []
        : [`  jobs:    http://127.0.0.1:${healthPorts.jobs}/api/health/ready`, `  indexer: http://127.0.0.1:${healthPorts.indexer}/api/health/ready`]),
      ...(values['ops-port'] ? [`  ops:     http://127.0.0.1:${values['ops-port']}/stats`] : []),
      `  metrics: every process's /metrics; Prometheus scrape config: ${path.join(path.dirname(edgeFile), 'prometheus.yml')}`,
      '',
      '',
    ].join('\n'),
  );
});

/** Every API replica ready and the edge answering. */
async function waitReady(): Promise<void> {
  const urls = [...apiPorts.map((port) => `http://127.0.0.1:${port}/api/health/ready`), `${appUrl}/api/health/ready`];
  for (const url of urls) {
    while (!stopping && !(await fetch(url).then((r) => r.ok, () => false))) await new Promise((r) => setTimeout(r, 250));
  }
}

async function stop(code: number): Promise<void> {
  if (stopping) return;
  stopping = true;
  logger.info('cluster: stopping (replicas drain first, then the edge)');
  await Promise.all([...supervisors].filter(([name]) => name !== 'edge').map(([, s]) => s.stop()));
  await supervisors.get('edge')?.stop();
  process.exit(code);
}

onStopSignals({
  stop: () => void stop(0),
  force: (signal) => {
    logger.warn({ signal }, 'cluster: second signal, killing every process now');
    for (const s of supervisors.values()) {
      const pid = s.status().pid;
      if (pid) {
        try {
          process.kill(-pid, 'SIGKILL');
        } catch {
          // already gone
        }
      }
    }
    process.exit(130);
  },
});

function usage(message: string): never {
  process.stderr.write(`${message}\nusage: npm run start:cluster -- --replicas N [--port 8080] [--base-port 3100] [--ops-port 8404] [--no-blog] [--api-only]\n`);
  process.exit(64);
}
