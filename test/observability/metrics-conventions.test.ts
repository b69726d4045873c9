/**
 * Every role's /metrics, scraped from the running roles (api on its port; jobs, indexer and the
 * blog's supervisor on HEALTH_PORT), follows one policy: each family has HELP text, counters end in
 * `_total` and nothing else does, times are `_seconds` and sizes `_bytes`, no label names or values
 * identify a wallet, URL, address or id, a client inventing GraphQL operation names or paths cannot
 * grow the series, and Node's process series (event-loop lag, heap, GC, handles) are on every role.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config';
import { createRuntime, type Runtime } from '../../src/runtime';
import type { Role } from '../../src/roles';
import { startSuiChainFixture, type SuiChainFixture } from '../fixtures/sui-chain/index.js';
import { chainEnv } from '../helpers/indexer.js';
import { createTestDb, testLogger, type TestDb } from '../helpers/db';
import { parseExposition, type Family } from '../helpers/exposition';
import { until } from '../helpers/until';

/** prom-client's default gauges that end in `_total` (counts of things open now, not counters). */
const DEFAULT_GAUGES_NAMED_TOTAL = new Set(['nodejs_active_handles_total', 'nodejs_active_requests_total', 'nodejs_active_resources_total']);
const PROCESS_SERIES = ['nodejs_eventloop_lag_seconds', 'nodejs_eventloop_lag_p99_seconds', 'nodejs_heap_size_used_bytes', 'nodejs_gc_duration_seconds', 'nodejs_active_handles', 'process_resident_memory_bytes', 'process_cpu_seconds_total'];
const FORBIDDEN_LABEL_NAME = /wallet|address|url|uri|path|^id$|_id$|user|^ip$|email|token|player|digest|sender|session/i;
const FORBIDDEN_LABEL_VALUE: Array<[string, RegExp]> = [
  ['a Sui address or digest', /0x[0-9a-f]{32,}|^[1-9A-HJ-NP-Za-km-z]{43,44}$/i],
  ['a URL', /:\/\//],
  ['a UUID', /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i],
  ['an IP address', /^\d{1,3}(\.\d{1,3}){3}$|^[0-9a-f:]*::[0-9a-f:]*$/i],
  ['an email address', /@.+\./],
];
/** A family's label sets (histogram buckets counted once); more than this is not a bounded label. */
const MAX_SERIES_PER_FAMILY = 250;
/** Time and size words a name must carry its base unit with. */
const TIME_WORDS = /duration|latency|lag|_age|_time|timestamp|elapsed/;
const SIZE_WORDS = /heap|memory|_size/;

function problems(role: string, families: Map<string, Family>): string[] {
  const out: string[] = [];
  for (const f of families.values()) {
    const at = `${role}: ${f.name}`;
    if (!f.help.trim()) out.push(`${at} has no HELP text`);
    if (f.type === 'untyped') out.push(`${at} has no TYPE`);
    if (f.type === 'counter' && !f.name.endsWith('_total')) out.push(`${at} is a counter not named *_total`);
    if (f.type !== 'counter' && f.name.endsWith('_total') && !DEFAULT_GAUGES_NAMED_TOTAL.has(f.name)) out.push(`${at} is a ${f.type} named *_total`);
    if (/_(ms|millis|milliseconds|kb|mb|kib|mib|minutes|hours)(_total)?$/.test(f.name)) out.push(`${at} is not in a base unit`);
    if (TIME_WORDS.test(f.name) && !/_seconds(_total)?$/.test(f.name)) out.push(`${at} measures time but is not *_seconds`);
    if (SIZE_WORDS.test(f.name) && !/_bytes(_total)?$/.test(f.name)) out.push(`${at} measures a size but is not *_bytes`);
    const sets = new Set<string>();
    for (const s of f.samples) {
      const { le: _le, quantile: _q, ...labels } = s.labels;
      sets.add(JSON.stringify(labels));
      for (const [name, value] of Object.entries(labels)) {
        if (FORBIDDEN_LABEL_NAME.test(name)) out.push(`${at} has the label ${name}`);
        for (const [what, shape] of FORBIDDEN_LABEL_VALUE) if (shape.test(value)) out.push(`${at}{${name}="${value}"} looks like ${what}`);
      }
    }
    if (sets.size > MAX_SERIES_PER_FAMILY) out.push(`${at} has ${sets.size} series`);
  }
  return out;
}

async function scrape(url: string): Promise<Map<string, Family>> {
  const res = await fetch(url);
  expect(res.status, url).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  return parseExposition(await res.text());
}

/** The /metrics address a runtime without the api role printed for HEALTH_PORT. */
const healthMetricsUrl = (runtime: Runtime) => /metrics:\s+(http:\/\/localhost:\d+\/metrics)/.exec(runtime.urls.join('\n'))![1]!;

let chain: SuiChainFixture;
let db: TestDb;
const runtimes: Record<string, Runtime> = {};

async function start(name: string, roles: Role[], env: Record<string, string>): Promise<void> {
  const config = loadConfig({ envDir: '/nonexistent', env: { NODE_ENV: 'test', CACHE_STORE: 'memory', 'GENERAL.HOST': '127.0.0.1', 'GENERAL.PORT': '0', INDEXER_DISABLED: 'true', ...env } });
  runtimes[name] = await createRuntime(config, {
    roles: new Set(roles),
    logger: testLogger,
    db: db.db,
    listen: { port: 0, host: '127.0.0.1' },
    // The blog role's supervisor, around a stand-in for the Next server (its series are the supervisor's).
    blog: { command: { command: process.execPath, args: ['-e', 'setInterval(() => {}, 60_000)'], env: { NODE_ENV: 'test' } } },
  });
}

beforeAll(async () => {
  chain = await startSuiChainFixture({ seed: 43, events: 300 });
  db = await createTestDb();
  await start('api', ['api'], {});
  await start('jobs', ['jobs'], { HEALTH_PORT: '0' });
  await start('indexer', ['indexer'], { HEALTH_PORT: '0', INDEXER_DISABLED: 'false', ...chainEnv(chain) });
  await start('blog', ['blog'], { HEALTH_PORT: '0' });
}, 60_000);

afterAll(async () => {
  for (const r of Object.values(runtimes)) await r.close();
  await db?.cleanup();
  await chain?.close();
});

describe('/metrics on every role', () => {
  it('api, jobs, indexer and blog follow the naming, HELP and label rules, with Node process series on each', async () => {
    const api = runtimes.api!.url!;
    // Client-chosen values: 150 invented operation names, an overlong one, unknown paths with ids in them.
    for (let i = 0; i < 150; i++) {
      const res = await fetch(`${api}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: `query Invented${i} { __typename }` }) });
      expect(res.status).toBe(200);
    }
    await fetch(`${api}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: `query ${'X'.repeat(200)} { __typename }` }) });
    for (const path of [`/api/users/0x${'ab'.repeat(32)}`, `/nothing/${crypto.randomUUID()}`, '/api/health?wallet=0x1']) await fetch(`${api}${path}`);

    const urls = { api: `${api}/metrics`, jobs: healthMetricsUrl(runtimes.jobs!), indexer: healthMetricsUrl(runtimes.indexer!), blog: healthMetricsUrl(runtimes.blog!) };
    // Each role's own families (a labelled counter has no sample before its first event).
    const expected: Record<keyof typeof urls, string[]> = {
      api: ['http_requests_total', 'http_request_duration_seconds', 'graphql_operations_total', 'database_up', 'readiness_degraded', 'chain_write_failed_total'],
      jobs: ['job_runs_total', 'job_schedule_info', 'job_next_run_timestamp_seconds', 'database_up'],
      indexer: ['indexer_leader', 'indexer_lag_seconds', 'indexer_events_indexed_total', 'database_up'],
      blog: ['blog_process_up', 'blog_process_restarts_total'],
    };
    const scraped: Record<string, Map<string, Family>> = {};
    for (const [role, url] of Object.entries(urls) as Array<[keyof typeof urls, string]>) {
      scraped[role] = await until(async () => {
        const families = await scrape(url);
        const leading = role !== 'indexer' || families.get('indexer_leader')?.samples[0]?.value === 1;
        return leading && expected[role].every((n) => families.has(n)) ? families : null;
      }, `${role}'s series (${expected[role].join(', ')})`, 30_000, 200);
    }

    const all = Object.entries(scraped).flatMap(([role, families]) => [
      ...problems(role, families),
      ...PROCESS_SERIES.filter((n) => !families.has(n)).map((n) => `${role}: no ${n}`),
    ]);
    expect(all).toEqual([]);

    // The bounded operation label: 100 names kept, the rest (and the overlong one) counted as `other`.
    const operations = new Set(scraped.api!.get('graphql_operations_total')!.samples.map((s) => s.labels.operation));
    expect(operations.size).toBeLessThanOrEqual(101);
    expect(operations).toContain('other');
    expect(operations).toContain('Invented0');
    expect(scraped.blog!.get('blog_process_up')!.samples[0]!.value).toBe(1);
    expect(scraped.indexer!.get('indexer_leader')!.samples[0]!.value).toBe(1);
  }, 90_000);
});
