import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi, type TestApi } from '../helpers/api';
import { createTestDb, type TestDb } from '../helpers/db';
import { needsService } from '../helpers/env';
import { betEvent, claimFootprint, indexBets, rest } from './quests-helpers';

const wallet = () => `0x${randomUUID().replace(/-/g, '').padEnd(64, '0')}`;

/** Fires `n` identical claims at once, alternating between the APIs; returns the status codes and error codes. */
async function claimStorm(apis: TestApi[], token: string, n: number): Promise<{ statuses: Map<number, number>; codes: Map<string, number> }> {
  const answers = await Promise.all(
    Array.from({ length: n }, (_, i) => rest(apis[i % apis.length].url, 'POST', '/quests/campaigns/platform/daily-bet/claim', { token, body: {} })),
  );
  const statuses = new Map<number, number>();
  const codes = new Map<string, number>();
  for (const a of answers) {
    statuses.set(a.status, (statuses.get(a.status) ?? 0) + 1);
    if (a.body?.error) codes.set(a.body.error.code, (codes.get(a.body.error.code) ?? 0) + 1);
  }
  return { statuses, codes };
}

// Two API processes (two runtimes: own HTTP server, pool, services) on one PostgreSQL and one Redis.
describe.runIf(needsService('DATABASE_URL') && needsService('SHARED_STORE_URL'))('1,000 parallel identical claims across two API processes', () => {
  let shared: TestDb;
  const apis: TestApi[] = [];
  beforeAll(async () => {
    shared = await createTestDb();
  }, 60_000);
  afterAll(async () => {
    await Promise.all(apis.splice(0).map((a) => a.close()));
    await shared?.cleanup();
  });

  async function replicas(env: Record<string, string>): Promise<TestApi[]> {
    const prefix = randomUUID();
    const pair = [await startApi({ db: shared.db, storePrefix: prefix, store: 'redis', env }), await startApi({ db: shared.db, storePrefix: prefix, store: 'redis', env })];
    apis.push(...pair);
    return pair;
  }

  it('with the limits raised so every claim reaches PostgreSQL: one success, 999 DUPLICATE_CLAIM, XP credited once', async () => {
    const [a, b] = await replicas({ 'HTTP.RATE_LIMIT_MAX': '100000', 'QUESTS.CLAIM_RATE_LIMIT_MAX': '100000' });
    const player = wallet();
    await indexBets(shared.db, a.services.quests, [betEvent(player, new Date())]);
    const before = await claimFootprint(shared.db);
    const { statuses, codes } = await claimStorm([a, b], a.services.tokens.signAccess(player), 1000);
    expect(Object.fromEntries(statuses)).toEqual({ 200: 1, 409: 999 });
    expect(Object.fromEntries(codes)).toEqual({ DUPLICATE_CLAIM: 999 });
    const after = await claimFootprint(shared.db);
    expect(after.claims - before.claims).toBe(1);
    const [row] = await shared.db.query<{ total_xp: string; quest_xp: string }>('SELECT total_xp::text, quest_xp::text FROM xp_leaderboard WHERE player = $1', [player]);
    expect(row).toEqual({ total_xp: '50', quest_xp: '50' });
    // the rank buckets moved with the one credit (triggers in the claim's statement)
    expect(after.buckets).toBe(after.xpRows);
  }, 120_000);

  it('with the default limits: one success; every other answer is DUPLICATE_CLAIM or 429', async () => {
    const [a, b] = await replicas({});
    const player = wallet();
    await indexBets(shared.db, a.services.quests, [betEvent(player, new Date())]);
    const { statuses, codes } = await claimStorm([a, b], a.services.tokens.signAccess(player), 1000);
    expect(statuses.get(200)).toBe(1);
    expect((statuses.get(409) ?? 0) + (statuses.get(429) ?? 0)).toBe(999);
    expect(statuses.get(429)).toBeGreaterThan(900);
    expect([...codes.keys()].sort()).toEqual(['DUPLICATE_CLAIM', 'RATE_LIMITED']);
    const rows = await shared.db.query<{ n: number; xp: string }>(
      `SELECT (SELECT count(*)::int FROM quest_claim WHERE player_address = $1) AS n, (SELECT quest_xp::text FROM xp_leaderboard WHERE player = $1) AS xp`,
      [player],
    );
    expect(rows[0]).toEqual({ n: 1, xp: '50' });
  }, 120_000);
});

// The same guarantee on whatever database the run has (embedded PGlite without services): one process, 200 at once.
describe('parallel identical claims on one API', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startApi({ env: { 'HTTP.RATE_LIMIT_MAX': '100000', 'QUESTS.CLAIM_RATE_LIMIT_MAX': '100000' } });
  }, 60_000);
  afterAll(async () => {
    await api?.close();
  });

  it('exactly one of 200 succeeds and XP is credited once', async () => {
    const player = wallet();
    await indexBets(api.db, api.services.quests, [betEvent(player, new Date())]);
    const { statuses } = await claimStorm([api], api.services.tokens.signAccess(player), 200);
    expect(Object.fromEntries(statuses)).toEqual({ 200: 1, 409: 199 });
    expect(await claimFootprint(api.db)).toEqual({ claims: 1, xpRows: 1, questXp: '50', buckets: 1 });
  }, 120_000);
});
