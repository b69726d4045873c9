// The soak's system: two API replicas, a jobs, an indexer and a blog process (src/main.ts built, as
// production runs it), on a scratch PostgreSQL database (and one for the blog's CMS) and one Redis
// database index, with the fixture chain (its own process, appending events while it runs) and the
// price source on loopback. The blog process builds the Next app first when no current build exists
// (a few minutes, once per machine and blog source).
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { startPriceSourceFixture } from '../../test/fixtures/price-source';
import { createScratchDatabase } from '../../test/helpers/db';
import { nodeArgsFor } from '../built';
import { freePort } from '../proc-memory';
import { startChainProcess } from '../chain-server';

export interface SoakProcess {
  name: string;
  pid: number;
  /** Where its Prometheus metrics are scraped (none: heap, lag and descriptors are not read). */
  metricsUrl?: string;
  /** Its RSS is the sum over the processes it started (the blog's Next server), not its own. */
  descendants?: boolean;
}

export interface SoakSystem {
  apiUrls: string[];
  /** The partner webhook's secret (the API's and the blog's). */
  webhookSecret: string;
  processes: SoakProcess[];
  /** The chain's process (not judged: it stands for a full node on another machine). */
  chainPid: number | undefined;
  databaseName: string;
  databaseUrl: string;
  redis: Redis;
  output(): string;
  /** The shared store's failovers the processes logged: `api-1: unreachable at 12:00:01`, `… reachable again at …`. */
  storeEvents(): string[];
  stop(): Promise<void>;
}

const STORE_EVENTS: Array<[RegExp, string]> = [
  [/"msg":"shared store unreachable/, 'unreachable'],
  [/"msg":"shared store reachable again/, 'reachable again'],
];

async function untilReady(url: string, child: ChildProcess, output: () => string, timeoutMs = 90_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await fetch(url).then((r) => r.ok, () => false))) {
    if (child.exitCode !== null) throw new Error(`${url}: the process exited with ${child.exitCode}:\n${output().slice(-4000)}`);
    if (Date.now() > deadline) throw new Error(`${url}: not ready after ${timeoutMs} ms:\n${output().slice(-4000)}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

export async function startSoakSystem(opts: { serverUrl: string; redisUrl: string; minutes: number; log: (line: string) => void }): Promise<SoakSystem> {
  const cleanups: Array<() => Promise<void> | void> = [];
  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      for (const cleanup of cleanups.reverse()) await cleanup();
    })());
  // The bench stopped by a signal stops what it started (its processes and scratch databases) first.
  const onSignal = (signal: NodeJS.Signals) => void stop().finally(() => process.exit(signal === 'SIGINT' ? 130 : 143));
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  cleanups.push(() => {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  });
  try {
    const redis = new Redis(opts.redisUrl, { lazyConnect: true, maxRetriesPerRequest: 2 });
    await redis.connect();
    // Only the soak's own database index is flushed, before and after.
    await redis.flushdb();
    cleanups.push(async () => {
      await redis.flushdb();
      redis.disconnect();
    });
    const scratch = await createScratchDatabase(opts.serverUrl, { migrated: true });
    cleanups.push(() => scratch.drop());
    const prices = await startPriceSourceFixture();
    cleanups.push(() => prices.close());
    const chain = await startChainProcess({ seed: 47, events: 5000, tick: { everyMs: 1000, events: 20 } });
    cleanups.push(() => chain.close());
    const blogDatabase = await createScratchDatabase(opts.serverUrl);
    cleanups.push(() => blogDatabase.drop());
    const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-soak-'));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));

    const apiPorts = [await freePort(), await freePort()];
    const healthPorts = { jobs: await freePort(), indexer: await freePort(), blog: await freePort() };
    const blogPort = await freePort();
    const blogUrl = `http://127.0.0.1:${blogPort}`;
    const webhookSecret = randomBytes(24).toString('hex');
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      NODE_ENV: 'production',
      // info: the store's recovery ("reachable again") is logged at info
      LOG_LEVEL: 'info',
      DATA_DIR: dataDir,
      APP_URL: `http://127.0.0.1:${apiPorts[0]}`,
      'GENERAL.HOST': '127.0.0.1',
      JWT_SECRET: randomBytes(32).toString('hex'),
      PAYLOAD_SECRET: randomBytes(32).toString('hex'),
      DATABASE_URL: scratch.url,
      CACHE_STORE: 'redis',
      SHARED_STORE_URL: opts.redisUrl,
      SHARED_STORE_KEY_PREFIX: 'soak:',
      BLOG_PORT: String(blogPort),
      BLOG_UPSTREAM_URL: blogUrl,
      BLOG_DATABASE_URL: blogDatabase.url,
      WEBHOOK_SECRET: webhookSecret,
      BLOG_REVALIDATION_SECRET: randomBytes(24).toString('hex'),
      // The driver stands in for many clients behind a proxy: each virtual client has its own
      // X-Forwarded-For address, so the per-IP limits apply per client as in production.
      TRUSTED_PROXY_CIDRS: '127.0.0.1/32',
      // The wallet pool logs in once: its tokens must outlive the run.
      'AUTH.ACCESS_TTL_SECONDS': String((opts.minutes + 15) * 60),
      'CHAIN.SUI_URL': chain.grpcUrl,
      'CHAIN.SUI_TRANSPORT': 'grpc',
      PLATFORM_PACKAGE_ID: chain.packageId,
      POLLING_INTERVAL_MS: '200',
      'CHAIN.PRICE_API_URL': prices.url,
      'CHAIN.PRICE_API_KEY': prices.key,
      // Every 20 s instead of 5 min, so a short soak sees the job run several times.
      'JOBS.PRICE_POLL_CRON': '*/20 * * * * *',
    };
    let out = '';
    const storeEvents: string[] = [];
    const children: Array<{ name: string; child: ChildProcess; ready: string; metricsUrl: string }> = [];
    const spawnRole = (name: string, role: string, extra: Record<string, string>, ready: string, metricsUrl: string, readyTimeoutMs?: number) => {
      const child = spawn(process.execPath, [...nodeArgsFor('src/main.ts'), '--role', role], { env: { ...env, ...extra }, stdio: ['ignore', 'pipe', 'pipe'] });
      const prefix = (chunk: Buffer) => {
        const text = String(chunk);
        for (const [pattern, event] of STORE_EVENTS) if (pattern.test(text)) storeEvents.push(`${name}: ${event} at ${new Date().toISOString().slice(11, 19)}`);
        out = (out + text.replace(/^(?=.)/gm, `${name} | `)).slice(-200_000);
      };
      child.stdout!.on('data', prefix);
      child.stderr!.on('data', prefix);
      const exited = new Promise<void>((r) => child.once('exit', () => r()));
      cleanups.push(async () => {
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
        await Promise.race([exited, new Promise((r) => setTimeout(r, 15_000))]);
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      });
      children.push({ name, child, ready, metricsUrl });
      // One at a time: four starts at once on a busy machine can miss the store's 1 s connect window.
      return untilReady(ready, child, () => out, readyTimeoutMs);
    };
    // First: the API's blog reads and webhook forwards need it (its first build, when one is due, takes minutes).
    opts.log('soak: starting the blog process (it builds the Next app first when no current build exists)');
    await spawnRole('blog', 'blog', { HEALTH_PORT: String(healthPorts.blog) }, `${blogUrl}/blog/`, `http://127.0.0.1:${healthPorts.blog}/metrics`, 15 * 60_000);
    for (const [i, port] of apiPorts.entries()) {
      const url = `http://127.0.0.1:${port}`;
      await spawnRole(`api-${i + 1}`, 'api', { 'GENERAL.PORT': String(port) }, `${url}/api/health/ready`, `${url}/metrics`);
    }
    for (const role of ['jobs', 'indexer'] as const) {
      const url = `http://127.0.0.1:${healthPorts[role]}`;
      await spawnRole(role, role, { HEALTH_PORT: String(healthPorts[role]) }, `${url}/api/health/ready`, `${url}/metrics`);
    }

    opts.log(`soak: ${children.map((c) => `${c.name} (pid ${c.child.pid})`).join(', ')} ready on database ${scratch.name}; chain pid ${chain.pid}`);
    return {
      apiUrls: apiPorts.map((p) => `http://127.0.0.1:${p}`),
      webhookSecret,
      processes: [
        ...children.map((c) => ({ name: c.name, pid: c.child.pid!, metricsUrl: c.metricsUrl })),
        { name: 'blog (next)', pid: children.find((c) => c.name === 'blog')!.child.pid!, descendants: true },
      ],
      chainPid: chain.pid,
      databaseName: scratch.name,
      databaseUrl: scratch.url,
      redis,
      output: () => out,
      storeEvents: () => [...storeEvents],
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}
