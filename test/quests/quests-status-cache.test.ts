import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLeaderboardService } from '../../src/services/leaderboards/service';
import { createHooks } from '../../src/services/hooks';
import { createQuestService, type QuestService } from '../../src/services/quests/service';
import { createStatusCache } from '../../src/services/quests/status-cache';
import type { StoredCheck, StoredState } from '../../src/services/quests/progress';
import { createReadCacheService } from '../../src/services/read-cache';
import { createSharedStore, type SharedStore } from '../../src/store';
import { createTestDb, testLogger, type TestDb } from '../helpers/db';
import { needsService, testEnv } from '../helpers/env';
import { betEvent, indexBets } from './quests-helpers';

// Quest status reads keep each wallet's stored progress and claims in memory (src/services/quests/status-cache.ts)
// until that wallet's progress or claims change: the indexer's progress upkeep and a claim drop it on
// their own replica at once and on the others through the `questProgress` bump. The tests give the cache an hour of
// TTL, so what they see is the invalidation, never an expiry.
const HOUR = 3_600_000;
const wallet = () => `0x${randomUUID().replace(/-/g, '').padEnd(64, '0')}`;

/** A row written behind the service's back (as a script would): the cache does not hear of it. */
async function writeProgressDirectly(t: TestDb, player: string, progress: number): Promise<void> {
  await t.db.query(
    `INSERT INTO quest_progress (quest_key, campaign_slug, player_address, time_period, period_start, progress, target, updated_at)
     VALUES ('daily-bet', 'platform', $1, 'daily', date_trunc('day', now(), 'UTC'), $2, 1, now())
     ON CONFLICT (quest_key, campaign_slug, player_address, time_period, period_start) DO UPDATE SET progress = EXCLUDED.progress`,
    [player, progress],
  );
}

async function questsOn(t: TestDb, store: SharedStore): Promise<QuestService> {
  const readCache = await createReadCacheService({ store });
  const quests = createQuestService({
    db: t.db,
    store,
    readCache,
    hooks: createHooks(testLogger),
    logger: testLogger,
    leaderboards: await createLeaderboardService({ db: t.db, store, readCache }),
    lifecycleIntervalMs: 0,
    statusCacheTtlMs: HOUR,
  });
  await quests.start();
  return quests;
}

const dailyBet = (quests: QuestService, ...players: string[]) =>
  quests.statusBatch({ campaignSlug: 'platform', checks: players.map((player) => ({ questKey: 'daily-bet', player })) }, null);
const progressOf = async (quests: QuestService, ...players: string[]) => (await dailyBet(quests, ...players)).map((s) => s.progress);

describe('quest status reads from memory, per wallet, until its progress or claims change', () => {
  let t: TestDb;
  let store: SharedStore;
  let quests: QuestService;
  beforeAll(async () => {
    t = await createTestDb();
    store = await createSharedStore({ cacheStore: 'memory', logger: testLogger });
    quests = await questsOn(t, store);
  }, 60_000);
  afterAll(async () => {
    await quests?.close();
    await store?.close();
    await t?.cleanup();
  });

  it('an indexed bet and a claim show at once for their wallet; another wallet keeps its read', async () => {
    const [alice, bob] = [wallet(), wallet()];
    expect(await progressOf(quests, alice, bob)).toEqual(['0', '0']);
    // Unannounced writes are not seen: both wallets are answered from memory.
    await writeProgressDirectly(t, alice, 7);
    await writeProgressDirectly(t, bob, 7);
    expect(await progressOf(quests, alice, bob)).toEqual(['0', '0']);

    // The indexer's post-commit step recomputes Alice's progress from her events and drops her entry only.
    await indexBets(t.db, quests, [betEvent(alice, new Date())]);
    expect(await progressOf(quests, alice, bob)).toEqual(['1', '0']);

    await quests.claim(alice, { campaignSlug: 'platform', questKey: 'daily-bet' });
    const [claimed] = await dailyBet(quests, alice);
    expect(claimed).toMatchObject({ claimed: true, claimable: false, reason: 'claimed' });
    expect(claimed.claimedAt).not.toBeNull();
  });

  it('a read that an invalidation overtook answers its request but is not kept', async () => {
    const cache = createStatusCache({ ttlMs: HOUR });
    const check: StoredCheck = { campaignSlug: 'platform', questKey: 'daily-bet', timePeriod: 'daily', player: wallet(), periodStart: new Date(0) };
    const state = (progress: string): StoredState => ({ progress, claimedAt: null, txHash: null });
    let loads = 0;
    let release!: (states: StoredState[]) => void;
    const slow = cache.read([check], () => {
      loads++;
      return new Promise((resolve) => (release = resolve));
    });
    cache.drop([check.player]);
    release([state('1')]);
    expect(await slow).toEqual([state('1')]);
    // The next read loads again (the overtaken one was dropped), and that one is kept.
    expect(await cache.read([check], async () => (loads++, [state('2')]))).toEqual([state('2')]);
    expect(await cache.read([check], async () => (loads++, [state('3')]))).toEqual([state('2')]);
    expect(loads).toBe(2);
  });
});

// Replicas hear of each other's writes only through Redis (the embedded store is per process).
describe.runIf(needsService('SHARED_STORE_URL'))('a write on one replica drops the cached reads of the other', () => {
  let t: TestDb;
  const stores: SharedStore[] = [];
  const services: QuestService[] = [];
  let a: QuestService;
  let b: QuestService;
  let storeA: SharedStore;
  beforeAll(async () => {
    t = await createTestDb();
    const keyPrefix = `test:quests-status-cache-${randomUUID()}:`;
    for (let i = 0; i < 2; i++) {
      const store = await createSharedStore({ cacheStore: 'redis', url: testEnv.redisUrl, keyPrefix, logger: testLogger });
      stores.push(store);
      services.push(await questsOn(t, store));
    }
    [a, b] = services;
    storeA = stores[0];
  }, 60_000);
  afterAll(async () => {
    for (const quests of services) await quests.close();
    for (const store of stores) await store.close();
    await t?.cleanup();
  });

  /** Resolves once replica A has received the next announcement naming `player` (its own listener runs in the same delivery). */
  async function announcedOnA(player: string): Promise<() => Promise<void>> {
    let heard!: () => void;
    const delivered = new Promise<void>((resolve) => (heard = resolve));
    const unsubscribe = await storeA.subscribe('readcache:bump', (message) => {
      if (message.startsWith('questProgress ') && message.includes(player)) heard();
    });
    return async () => {
      await delivered;
      await unsubscribe();
    };
  }

  it("B's indexed bet and B's claim show on A as soon as A hears of them", async () => {
    const player = wallet();
    expect(await progressOf(a, player)).toEqual(['0']);
    await writeProgressDirectly(t, player, 7);
    expect(await progressOf(a, player)).toEqual(['0']);

    // B runs the indexer's post-commit step (as the indexer's process does) and announces the wallet.
    let heard = await announcedOnA(player);
    await indexBets(t.db, b, [betEvent(player, new Date())]);
    await heard();
    expect(await progressOf(a, player)).toEqual(['1']);

    heard = await announcedOnA(player);
    await b.claim(player, { campaignSlug: 'platform', questKey: 'daily-bet' });
    await heard();
    expect(await dailyBet(a, player)).toEqual([expect.objectContaining({ progress: '1', claimed: true, reason: 'claimed' })]);
  });
});
