/**
 * The alert rules and the dashboard against a real Prometheus (Debian's) scraping the running roles:
 * `start:cluster` (HAProxy's exporter on its ops port, two API replicas, jobs with the chain writer,
 * the indexer following the fixture chain) on PostgreSQL and Redis, plus the blog role's supervisor
 * run in this process around a stand-in for its Next server (the cluster starts with --no-blog: a
 * real blog build takes minutes). Prometheus reads the cluster's generated prometheus.yml with
 * scrape and evaluation intervals of 1 s and a copy of alerts.yml whose `for` durations are cut to at
 * most 5 s (thresholds and expressions unchanged).
 *
 * Every alert expression and every panel query must parse and return series. An expression that is
 * empty on a healthy system (`x > threshold`) is checked through the series it names instead: each
 * must be in Prometheus, or (a labelled counter that has not counted anything yet) declared in a
 * scraped process's /metrics; a name no process exports fails. Then two alerts are provoked for real
 * and seen firing: a chain write that fails (ChainWritesFailing) and the chain fixture answering 503
 * to every read (IndexerChainReadsFailing).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { Ed25519Keypair } from '@mysten/sui/keypairs/ed25519';
import pg from 'pg';
import { parse, stringify } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config';
import { createRuntime, type Runtime } from '../../src/runtime';
import { GIVEAWAY_SETTLE_KIND, giveawaySettleKey } from '../../src/services/giveaways/service';
import { dashboardPanels } from '../../scripts/dashboard-docs';
import { startSuiChainFixture, type SuiChainFixture } from '../fixtures/sui-chain/index.js';
import { haproxyVersion, startTestCluster, type TestCluster } from '../helpers/cluster';
import { testLogger } from '../helpers/db';
import { testEnv } from '../helpers/env';
import { chainEnv } from '../helpers/indexer.js';
import { metricNames } from '../helpers/promql';
import { ALERTS_FILE, alertRules, prometheusInstalled } from '../helpers/prometheus';
import { until } from '../helpers/until';

const servicesPresent = Boolean(testEnv.databaseUrl && testEnv.redisUrl);
if (testEnv.requireServices && (!servicesPresent || !haproxyVersion)) throw new Error('REQUIRE_SERVICES=1 but DATABASE_URL, SHARED_STORE_URL or haproxy is missing');
const run = prometheusInstalled('real-Prometheus tests') && servicesPresent && Boolean(haproxyVersion);
if (!servicesPresent || !haproxyVersion) console.warn('real-Prometheus tests skipped: they need DATABASE_URL, SHARED_STORE_URL and haproxy');

/** The test copy's longest `for`: long enough to prove the pending → firing path, short enough for a test. */
const MAX_FOR_SECONDS = 5;
/** Grafana's `$__rate_interval`, as this test's 1 s scrapes allow. */
const RATE_INTERVAL = '30s';

let chain: SuiChainFixture;
let cluster: TestCluster;
let blog: Runtime;
let prometheus: ChildProcess;
let promUrl: string;
let promOut = '';
const work = mkdtempSync(join(tmpdir(), 'prometheus-test-'));

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

interface Series {
  metric: Record<string, string>;
}

async function query(expr: string): Promise<Series[]> {
  const res = await fetch(`${promUrl}/api/v1/query?query=${encodeURIComponent(expr)}`);
  const body = (await res.json()) as { status: string; error?: string; data?: { result: Series[] } };
  if (body.status !== 'success') throw new Error(`Prometheus refused ${expr}: ${body.error}`);
  return body.data!.result;
}

/** Seconds of a Prometheus duration (`1m`, `30s`, `0m`). */
const seconds = (d: string | undefined) => (d ? Number(/^(\d+)/.exec(d)![1]) * (d.endsWith('m') ? 60 : d.endsWith('h') ? 3600 : 1) : 0);

/** Metric names some scraped process declares (`# TYPE`), sampled or not. */
async function declaredNames(targets: string[]): Promise<Set<string>> {
  const names = new Set<string>();
  for (const url of targets) for (const [, name] of (await (await fetch(url)).text()).matchAll(/^# TYPE (\S+)/gm)) names.add(name!);
  return names;
}

beforeAll(async () => {
  if (!run) return;
  chain = await startSuiChainFixture({ seed: 43, events: 300 });
  const wallet = new Ed25519Keypair();
  chain.writes.fund(wallet.toSuiAddress());
  cluster = await startTestCluster({
    replicas: 2,
    apiOnly: false,
    timeoutMs: 150_000,
    env: {
      ...chainEnv(chain),
      INDEXER_DISABLED: 'false',
      'CHAIN.BACKEND_WALLET_PRIVATE_KEY': wallet.getSecretKey(),
      // Only the write this test queues goes to the chain.
      'CHAIN.GIVEAWAY_AUTO_SETTLEMENT_DISABLED': 'true',
      'CHAIN.WRITE_MAX_ATTEMPTS': '2',
      'CHAIN.WRITE_BACKOFF_BASE_MS': '100',
      'CHAIN.WRITE_BACKOFF_MAX_MS': '200',
      WEBHOOK_SECRET: randomBytes(16).toString('hex'),
    },
  });
  blog = await createRuntime(loadConfig({ envDir: '/nonexistent', env: { NODE_ENV: 'test', HEALTH_PORT: String(await freePort()), 'GENERAL.HOST': '127.0.0.1' } }), {
    roles: new Set(['blog']),
    logger: testLogger,
    blog: { command: { command: process.execPath, args: ['-e', 'setInterval(() => {}, 60_000)'], env: { NODE_ENV: 'test' } } },
  });
  const blogMetrics = /metrics:\s+http:\/\/localhost:(\d+)\/metrics/.exec(blog.urls.join('\n'))![1]!;

  // The cluster's generated scrape config, at test speed, with the blog added and the rules' test copy.
  const config = parse(readFileSync(join(cluster.dataDir, 'cluster', 'prometheus.yml'), 'utf8')) as {
    global: Record<string, string>;
    rule_files: string[];
    scrape_configs: Array<{ job_name: string; static_configs: unknown[] }>;
  };
  expect(config.rule_files).toEqual([ALERTS_FILE]);
  expect(config.scrape_configs.map((j) => j.job_name).sort()).toEqual(['api', 'haproxy', 'indexer', 'jobs']);
  Object.assign(config.global, { scrape_interval: '1s', scrape_timeout: '1s', evaluation_interval: '1s' });
  const rules = parse(readFileSync(ALERTS_FILE, 'utf8')) as { groups: Array<{ rules: Array<{ for?: string }> }> };
  for (const r of rules.groups.flatMap((g) => g.rules)) if (seconds(r.for) > MAX_FOR_SECONDS) r.for = `${MAX_FOR_SECONDS}s`;
  writeFileSync(join(work, 'alerts.yml'), stringify(rules));
  config.rule_files = [join(work, 'alerts.yml')];
  config.scrape_configs.push({ job_name: 'blog', static_configs: [{ targets: [`127.0.0.1:${blogMetrics}`], labels: { process: 'blog' } }] });
  writeFileSync(join(work, 'prometheus.yml'), stringify(config));

  const port = await freePort();
  promUrl = `http://127.0.0.1:${port}`;
  prometheus = spawn('prometheus', [`--config.file=${join(work, 'prometheus.yml')}`, `--storage.tsdb.path=${join(work, 'data')}`, `--web.listen-address=127.0.0.1:${port}`, '--log.level=warn'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  prometheus.stdout!.on('data', (c) => (promOut += c));
  prometheus.stderr!.on('data', (c) => (promOut += c));
  await until(() => fetch(`${promUrl}/-/ready`).then((r) => r.ok, () => false), `Prometheus ready:\n${promOut}`, 30_000, 200);
}, 240_000);

afterAll(async () => {
  if (prometheus && prometheus.exitCode === null) {
    const exited = new Promise((r) => prometheus.once('exit', r));
    prometheus.kill('SIGTERM');
    await exited;
  }
  await blog?.close();
  await cluster?.stop();
  await chain?.close();
  rmSync(work, { recursive: true, force: true });
}, 60_000);

interface Target {
  health: string;
  labels: Record<string, string>;
  scrapeUrl: string;
  lastError: string;
}

const targets = async () => ((await (await fetch(`${promUrl}/api/v1/targets?state=active`)).json()) as { data: { activeTargets: Target[] } }).data.activeTargets;

describe.runIf(run)('alerts and dashboard against a real Prometheus scraping the roles', () => {
  it('scrapes every process, and every alert expression and panel query parses and returns series', async () => {
    const expected = ['api', 'api', 'blog', 'haproxy', 'indexer', 'jobs'];
    const up = await until(async () => {
      const t = await targets();
      return t.length === expected.length && t.every((x) => x.health === 'up') ? t : null;
    }, 'every target up', 60_000, 250).catch(async (err: Error) => {
      throw new Error(`${err.message}: ${JSON.stringify(await targets(), null, 1)}\n${promOut}`);
    });
    expect(up.map((t) => t.labels.job).sort()).toEqual(expected);
    // The indexer leads and has indexed the fixture chain; the jobs process has run its start-up ticks.
    await until(async () => (await query('sum(indexer_events_indexed_total) > 0')).length > 0 && (await query('sum(indexer_leader) == 1')).length > 0, 'the indexer leading and indexing', 60_000, 500);

    // Traffic on the replicas (not through the edge, which does not publish /metrics and limits per client).
    for (const port of cluster.apiPorts) {
      const api = `http://127.0.0.1:${port}`;
      for (let i = 0; i < 5; i++) {
        await fetch(`${api}/api/health`);
        await fetch(`${api}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: 'query Probe { __typename }' }) });
        await fetch(`${api}/no-such-route`);
      }
      await fetch(`${api}/api/blog/webhooks/contentpartner`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer wrong' }, body: '{}' });
    }
    // Two scrapes since the traffic, so rate() over the panels' interval has its two samples.
    await until(async () => (await query(`rate(http_requests_total{route="/graphql"}[${RATE_INTERVAL}])`)).length > 0, 'request rates in Prometheus', 30_000, 250);

    const declared = await declaredNames(up.map((t) => t.scrapeUrl));
    const present = new Map<string, boolean>();
    const hasSeries = async (name: string) => {
      if (!present.has(name)) present.set(name, (await query(name)).length > 0);
      return present.get(name)!;
    };
    const checks: Array<{ what: string; expr: string }> = [
      ...alertRules().map((r) => ({ what: `alert ${r.alert}`, expr: r.expr })),
      ...dashboardPanels().flatMap((p) => p.queries.map((q) => ({ what: `panel "${p.title}"`, expr: q.replaceAll('$__rate_interval', RATE_INTERVAL) }))),
    ];
    const byInner: string[] = [];
    const declaredOnly: string[] = [];
    const failures: string[] = [];
    for (const { what, expr } of checks) {
      if ((await query(expr)).length > 0) continue;
      const names = metricNames(expr);
      if (names.length === 0) failures.push(`${what}: names no metric`);
      for (const name of names) {
        if (await hasSeries(name)) continue;
        if (declared.has(name)) declaredOnly.push(`${what}: ${name}`);
        else failures.push(`${what}: no process exports ${name}`);
      }
      byInner.push(what);
    }
    console.info(
      `prometheus: ${checks.length} expressions; ${checks.length - byInner.length} returned series, ${byInner.length} empty while healthy and checked through the series they name` +
        ` (${[...new Set(byInner)].join('; ')})` +
        (declaredOnly.length ? `; declared by a process but not sampled yet: ${declaredOnly.join('; ')}` : ''),
    );
    expect(failures).toEqual([]);
  }, 180_000);

  const firing = async (name: string) => {
    const body = (await (await fetch(`${promUrl}/api/v1/alerts`)).json()) as { data: { alerts: Array<{ labels: { alertname: string }; state: string }> } };
    return body.data.alerts.some((a) => a.labels.alertname === name && a.state === 'firing');
  };
  const forOf = (name: string) => Math.min(seconds(alertRules().find((r) => r.alert === name)!.for), MAX_FOR_SECONDS);

  it('a chain write that fails raises ChainWritesFailing', async () => {
    expect(await firing('ChainWritesFailing')).toBe(false);
    // A settlement of a giveaway the chain does not hold: the dry run refuses it, and the write fails.
    const giveaway = `0x${randomBytes(32).toString('hex')}`;
    const client = new pg.Client({ connectionString: cluster.databaseUrl });
    await client.connect();
    try {
      await client.query('INSERT INTO chain_write (kind, idempotency_key, payload) VALUES ($1, $2, $3::jsonb)', [GIVEAWAY_SETTLE_KIND, giveawaySettleKey(giveaway), JSON.stringify({ giveawayId: giveaway })]);
      await until(async () => (await client.query(`SELECT status FROM chain_write WHERE idempotency_key = $1`, [giveawaySettleKey(giveaway)])).rows[0]?.status === 'failed', 'the chain write to fail', 30_000, 200);
    } finally {
      await client.end();
    }
    const failedAt = Date.now();
    await until(() => firing('ChainWritesFailing'), 'ChainWritesFailing firing', 30_000, 250);
    // Scrape (1 s) + evaluation (1 s) + its `for`, with room for a loaded machine.
    expect(Date.now() - failedAt).toBeLessThan((forOf('ChainWritesFailing') + 15) * 1000);
  }, 90_000);

  it('the chain answering 503 to the indexer raises IndexerChainReadsFailing', async () => {
    expect(await firing('IndexerChainReadsFailing')).toBe(false);
    chain.setOutage('http-503');
    const downAt = Date.now();
    try {
      await until(() => firing('IndexerChainReadsFailing'), 'IndexerChainReadsFailing firing', 60_000, 250);
      expect(Date.now() - downAt).toBeLessThan((forOf('IndexerChainReadsFailing') + 20) * 1000);
      expect(chain.outageRefusals).toBeGreaterThan(0);
    } finally {
      chain.setOutage(null);
    }
  }, 90_000);
});
