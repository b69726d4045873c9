import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startApi, type TestApi } from '../helpers/api';
import { gql } from '../helpers/client';
import { createTestDb, testLogger, type TestDb } from '../helpers/db';
import { startPriceSourceFixture, type PriceSourceFixture } from '../fixtures/price-source';
import { startJobsRole, type JobsRunner } from '../../src/jobs';
import { PricesDocument } from '../../src/generated/graphql';
import { until } from '../helpers/until';

// Prices over real HTTP and GraphQL, polled by the real jobs runner from the CoinGecko-format
// fixture. Schedules are set never to fire here (a yearly cron); ticks are run through the
// runner's own `tick`, as node-cron would, so nothing waits on the clock.

const NEVER = '0 0 1 1 *';

let source: PriceSourceFixture;
let shared: TestDb;
const apis: TestApi[] = [];
const runners: JobsRunner[] = [];

const priceEnv = (extra: Record<string, string> = {}) => ({
  'CHAIN.PRICE_API_KEY': source.key,
  'CHAIN.PRICE_API_URL': source.url,
  'JOBS.PRICE_POLL_CRON': NEVER,
  ...extra,
});

/** The jobs role for one API (its own services, database and store), as the runtime starts it. */
function jobsFor(api: TestApi): JobsRunner {
  const runner = startJobsRole({ config: api.config, db: api.db, logger: testLogger, services: api.services });
  runners.push(runner);
  return runner;
}

async function getPrice(api: TestApi) {
  const res = await fetch(`${api.url}/api/price`);
  return { status: res.status, body: (await res.json()) as Record<string, unknown> & { error?: { code: string } } };
}

beforeAll(async () => {
  source = await startPriceSourceFixture();
  shared = await createTestDb();
}, 60_000);
afterEach(async () => {
  await Promise.all(runners.splice(0).map((r) => r.stop()));
  await Promise.all(apis.splice(0).map((a) => a.close()));
  source.setMode('ok');
});
afterAll(async () => {
  await source?.close();
  await shared?.cleanup();
});

describe('prices', () => {
  it('before any poll: SERVICE_UNAVAILABLE, and the source is never called by a read', async () => {
    const db = await createTestDb();
    const api = await startApi({ db: db.db, env: priceEnv() });
    try {
      const hits = source.hits;
      expect(await getPrice(api)).toMatchObject({ status: 503, body: { error: { code: 'SERVICE_UNAVAILABLE' } } });
      expect(source.hits).toBe(hits);
    } finally {
      await api.close();
      await db.cleanup();
    }
  });

  it('the first poll runs at start; the price is then served from the store with its age while the source is down', async () => {
    const api = await startApi({ db: shared.db, env: priceEnv({ 'PRICES.STALE_AFTER_SECONDS': '1' }) });
    apis.push(api);
    const runner = jobsFor(api);
    await runner.settled();
    const good = await getPrice(api);
    expect(good).toMatchObject({
      status: 200,
      body: { native: { symbol: 'SUI', usd: '3.4125' }, stablecoin: { symbol: 'USDC', usd: '0.99985' }, stale: false, source: 'coingecko', lastFailedPollAt: null },
    });
    expect(good.body.ageSeconds).toBeGreaterThanOrEqual(0);
    const updatedAt = good.body.updatedAt as string;
    const snapshots = await api.db.prisma.priceSnapshot.findMany({ where: { fetchedAt: new Date(updatedAt) } });
    expect(snapshots.map((s) => [s.asset, s.usdPrice.toFixed()]).sort()).toEqual([
      ['SUI', '3.4125'],
      ['USDC', '0.99985'],
    ]);

    // The source goes down: the poll fails and is recorded; reads keep the last good price.
    source.setMode('fail');
    const hits = source.hits;
    expect(await runner.tick('price-poll', new Date(Date.now() + 60_000))).toBe('failed');
    expect(source.hits).toBe(hits + 1);
    const heartbeat = await api.db.prisma.opsJobHeartbeat.findUnique({ where: { jobKey: 'price-poll' } });
    expect(heartbeat).toMatchObject({ status: 'failed', consecutiveFailures: 1, lastError: expect.stringContaining('HTTP 500') });

    const down = await until(
      async () => {
        const answer = await getPrice(api);
        return answer.body.stale === true && answer;
      },
      'the price to turn stale',
      20_000,
    );
    expect(down).toMatchObject({ status: 200, body: { native: { usd: '3.4125' }, stablecoin: { usd: '0.99985' }, updatedAt, stale: true, lastFailedPollAt: expect.any(String) } });
    expect(down.body.ageSeconds).toBeGreaterThanOrEqual(1);
    // Reads never reach the source.
    await Promise.all(Array.from({ length: 20 }, () => getPrice(api)));
    expect(source.hits).toBe(hits + 1);

    const graphql = await gql(api.url, PricesDocument);
    expect(graphql.body.data?.prices).toMatchObject({ native: { symbol: 'SUI', usd: '3.4125' }, stablecoin: { symbol: 'USDC', usd: '0.99985' }, updatedAt, stale: true });
    expect(graphql.body.data?.prices.ageSeconds).toBeGreaterThanOrEqual(1);

    // Back up: the next tick stores the new price and clears the failure.
    source.setMode('ok');
    source.prices = { sui: '3.5', 'usd-coin': '1.0001' };
    expect(await runner.tick('price-poll', new Date(Date.now() + 120_000))).toBe('ran');
    expect(await getPrice(api)).toMatchObject({ status: 200, body: { native: { usd: '3.5' }, stablecoin: { usd: '1.0001' }, stale: false, lastFailedPollAt: null } });
    expect(await api.db.prisma.opsJobHeartbeat.findUnique({ where: { jobKey: 'price-poll' } })).toMatchObject({ status: 'ok', consecutiveFailures: 0 });
    expect(api.logs.raw.join('\n')).not.toContain(source.key);
  }, 60_000);

  it('a replica with an empty store serves the newest snapshot from the database without calling the source', async () => {
    const db = await createTestDb();
    const first = await startApi({ db: db.db, env: priceEnv() });
    const second = await startApi({ db: db.db, env: priceEnv() });
    apis.push(first, second);
    expect(await first.services.prices.poll()).toMatchObject({ prices: { SUI: source.prices.sui } });
    const hits = source.hits;
    await second.store.del('prices:latest');
    expect(await getPrice(second)).toMatchObject({ status: 200, body: { native: { usd: source.prices.sui }, stablecoin: { usd: source.prices['usd-coin'] } } });
    expect(source.hits).toBe(hits);
    apis.splice(0);
    await first.close();
    await second.close();
    await db.cleanup();
  });

  it('two replicas run one poll per tick (start-up included)', async () => {
    const db = await createTestDb();
    const prefix = randomUUID();
    const a = await startApi({ db: db.db, storePrefix: prefix, env: priceEnv() });
    const b = await startApi({ db: db.db, storePrefix: prefix, env: priceEnv() });
    apis.push(a, b);
    const hitsBefore = source.hits;
    const [ra, rb] = [jobsFor(a), jobsFor(b)];
    await Promise.all([ra.settled(), rb.settled()]);
    expect(source.hits - hitsBefore).toBe(1);

    const base = Math.ceil(Date.now() / 1000) * 1000 + 3_600_000;
    for (let i = 0; i < 5; i++) {
      const tick = new Date(base + i * 300_000);
      const outcomes = await Promise.all([ra.tick('price-poll', tick), rb.tick('price-poll', tick)]);
      expect(outcomes.sort()).toEqual(['ran', 'taken']);
      // A replica whose clock fires late finds the tick taken.
      expect(await rb.tick('price-poll', tick)).toBe('taken');
    }
    expect(source.hits - hitsBefore).toBe(6);
    const runs = await db.db.prisma.opsJobRun.findMany({ where: { jobKey: 'price-poll' } });
    expect(runs).toHaveLength(6);
    await Promise.all(runners.splice(0).map((r) => r.stop()));
    apis.splice(0);
    await a.close();
    await b.close();
    await db.cleanup();
  }, 60_000);

  it('the runtime jobs role on two replicas with a per-second schedule: every tick polls once', async () => {
    const db = await createTestDb();
    const prefix = randomUUID();
    const env = priceEnv({ 'JOBS.PRICE_POLL_CRON': '* * * * * *', 'JOBS.RUN_SAMPLE_WINDOW_SECONDS': '1' });
    const hitsBefore = source.hits;
    const a = await startApi({ db: db.db, storePrefix: prefix, env, roles: ['api', 'jobs'] });
    const b = await startApi({ db: db.db, storePrefix: prefix, env, roles: ['api', 'jobs'] });
    apis.push(a, b);
    await until(async () => (await db.db.prisma.opsJobRun.count({ where: { jobKey: 'price-poll', status: 'ok' } })) >= 5, 'five polls', 20_000);
    apis.splice(0);
    await a.close();
    await b.close();
    const runs = await db.db.prisma.opsJobRun.findMany({ where: { jobKey: 'price-poll' } });
    const ticks = runs.map((r) => (r.detail as { tick: string }).tick);
    expect(new Set(ticks).size).toBe(runs.length);
    // A tick whose previous run still holds the job's lock (a slow start-up poll on a loaded machine) is
    // recorded as a skip with its reason and polls nothing; every other recorded run polled once.
    const skipped = runs.filter((r) => r.status === 'skipped');
    for (const r of skipped) expect((r.detail as { skipReason: string }).skipReason).toMatch(/still running/);
    expect(source.hits - hitsBefore).toBe(runs.length - skipped.length);
    expect(runs.filter((r) => (r.detail as { reason: string }).reason === 'start').length).toBeLessThanOrEqual(1);
    await db.cleanup();
  }, 60_000);
});
