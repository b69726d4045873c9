import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSuiChainFixture, type SuiChainFixture } from '../fixtures/sui-chain/index.js';
import { migratedTarget, testLogger, type MigratedTarget } from '../helpers/db.js';
import { caughtUp, inProcessIndexer, waitUntil } from '../helpers/indexer.js';
import type { Db } from '../../src/db/client.js';
import { diffLeaderboards } from '../../src/indexer/rebuild.js';
import { createLeaderboardService } from '../../src/services/leaderboards/service.js';
import { createHooks } from '../../src/services/hooks.js';
import { DEFAULT_CATALOGUE } from '../../src/services/quests/catalogue.js';
import { diffProgress } from '../../src/services/quests/progress.js';
import { createQuestService } from '../../src/services/quests/service.js';
import { createReadCacheService } from '../../src/services/read-cache/index.js';
import { createSharedStore } from '../../src/store/index.js';
import { testEnv } from '../helpers/env.js';
import { builtScriptArgs } from '../helpers/built-main';

// The indexer's post-commit step keeps quest_progress equal to what the rebuild recomputes from
// the event tables; quests:rebuild lists and repairs differences; quests:seed is idempotent.
let chain: SuiChainFixture;
let target: MigratedTarget;

beforeAll(async () => {
  chain = await startSuiChainFixture({ seed: 83, events: 1500, startTimestampMs: Date.UTC(2026, 0, 9, 12) });
  target = await migratedTarget('quests-progress-');
});
afterAll(async () => {
  await chain?.close();
  await target?.cleanup();
});

const open = () => target.open();

/** An npm script of ours as its own process against the test database. */
function script(file: 'scripts/quests-rebuild.ts' | 'scripts/quests-seed.ts', ...args: Array<string | Record<string, string>>) {
  const env = args.find((a): a is Record<string, string> => typeof a !== 'string') ?? {};
  const r = spawnSync(process.execPath, [...builtScriptArgs(file), ...args.filter((a): a is string => typeof a === 'string')], {
    env: { ...process.env, NODE_ENV: 'test', ...target.env, ...env },
    encoding: 'utf8',
    timeout: 90_000,
  });
  return { code: r.status, out: `${r.stdout}${r.stderr}` };
}

async function withDb<T>(fn: (db: Db) => Promise<T>): Promise<T> {
  const db = await open();
  try {
    return await fn(db);
  } finally {
    await db.close();
  }
}

describe('quest progress kept by the indexer', () => {
  it('matches the recomputation after a backfill; indexed and live statuses agree; claimed XP survives the XP board rebuild', async () => {
    await withDb(async (db) => {
      const store = await createSharedStore({ cacheStore: 'memory', logger: testLogger });
      let clock = new Date();
      const hooks = createHooks(testLogger);
      const readCache = await createReadCacheService({ store });
      const quests = createQuestService({ db, store, logger: testLogger, leaderboards: await createLeaderboardService({ db, store, readCache }), readCache, now: () => clock, lifecycleIntervalMs: 0, hooks });
      await quests.start();
      const run = inProcessIndexer(db, chain, { hooks });
      await run.indexer.start();
      await waitUntil(() => caughtUp(db, chain), 60_000, 'the backfill');
      await run.indexer.stop();
      // The upkeep runs off the indexer's commit path (a chainIndexed subscriber): wait until it has caught up too.
      await waitUntil(async () => (await diffProgress(db, DEFAULT_CATALOGUE)).length === 0, 30_000, 'quest progress upkeep');

      const [{ n }] = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM quest_progress');
      expect(n).toBeGreaterThan(0);
      expect(await diffProgress(db, DEFAULT_CATALOGUE)).toEqual([]);

      // At the time of a player's last bet, the indexed and live statuses of every platform quest agree.
      const [bet] = await db.query<{ player: string; at: Date | string }>('SELECT player, timestamp_ms AS at FROM bet_result_event ORDER BY timestamp_ms DESC LIMIT 1');
      clock = new Date(bet.at);
      const checks = DEFAULT_CATALOGUE[0].quests.map((q) => ({ questKey: q.key, player: bet.player }));
      const indexed = await quests.statusBatch({ campaignSlug: 'platform', checks }, null);
      const live = await quests.statusBatch({ campaignSlug: 'platform', checks: checks.map((c) => ({ ...c, mode: 'live' })) }, null);
      expect(live.map((s) => [s.questKey, s.progress])).toEqual(indexed.map((s) => [s.questKey, s.progress]));
      expect(indexed.find((s) => s.questKey === 'daily-bet')).toMatchObject({ progress: expect.not.stringMatching(/^0$/), claimable: true });

      // A claim credits quest_xp; the XP board's recomputation includes claimed rewards, so it finds no difference.
      await quests.claim(bet.player, { campaignSlug: 'platform', questKey: 'daily-bet' });
      const [row] = await db.query<{ total_xp: string; chain_xp: string; quest_xp: string }>('SELECT total_xp::text, chain_xp::text, quest_xp::text FROM xp_leaderboard WHERE player = $1', [bet.player]);
      expect(BigInt(row.total_xp)).toBe(BigInt(row.chain_xp) + 50n);
      expect(row.quest_xp).toBe('50');
      expect(await diffLeaderboards(db)).toEqual([]);
      await quests.close();
      await store.close();
    });
  }, 120_000);

  it('quests:rebuild finds no difference, lists tampered rows, and --apply repairs them', async () => {
    expect(script('scripts/quests-rebuild.ts')).toMatchObject({ code: 0, out: expect.stringContaining('no difference') });
    const [changed, removed] = await withDb(async (db) => {
      const rows = await db.query<{ id: string; player_address: string }>(`SELECT id::text, player_address FROM quest_progress ORDER BY quest_key, player_address, period_start LIMIT 2`);
      await db.query('UPDATE quest_progress SET progress = progress + 5 WHERE id = $1::uuid', [rows[0].id]);
      await db.query('DELETE FROM quest_progress WHERE id = $1::uuid', [rows[1].id]);
      return rows;
    });
    const listed = script('scripts/quests-rebuild.ts');
    expect(listed.code).toBe(1);
    expect(listed.out).toContain('quest_progress: 2 difference(s)');
    expect(listed.out).toContain(changed.player_address);
    expect(listed.out).toMatch(new RegExp(`${removed.player_address} .*stored \\(no row\\)`));
    // With Redis, the repair is announced: every replica's cached quest statuses drop (`questProgress`, all wallets).
    const keyPrefix = `test:quests-rebuild-${randomUUID()}:`;
    const store = testEnv.redisUrl ? await createSharedStore({ cacheStore: 'redis', url: testEnv.redisUrl, keyPrefix, logger: testLogger }) : undefined;
    const bumps: string[] = [];
    await store?.subscribe('readcache:bump', (message) => bumps.push(message));
    try {
      const applied = script('scripts/quests-rebuild.ts', '--apply', { SHARED_STORE_KEY_PREFIX: keyPrefix });
      expect(applied).toMatchObject({ code: 0, out: expect.stringContaining('0 difference(s) left') });
      if (store) {
        expect(applied.out).toContain('every replica reads the new progress at once');
        await waitUntil(async () => bumps.length > 0, 10_000, 'the rebuild announced');
        expect(bumps).toEqual([expect.stringMatching(/^questProgress \S+$/)]);
      } else expect(applied.out).toContain('within 10 s');
    } finally {
      await store?.close();
    }
    await withDb(async (db) => expect(await diffProgress(db, DEFAULT_CATALOGUE)).toEqual([]));
  }, 180_000);

  it('quests:seed creates missing campaigns once and never changes existing rows', async () => {
    await withDb(async (db) => {
      await db.query(`DELETE FROM campaign`);
    });
    expect(script('scripts/quests-seed.ts')).toMatchObject({ code: 0, out: expect.stringContaining('created campaign(s) platform') });
    await withDb(async (db) => {
      await db.query(`UPDATE campaign SET title = 'Edited by an operator' WHERE slug = 'platform'`);
    });
    expect(script('scripts/quests-seed.ts')).toMatchObject({ code: 0, out: expect.stringContaining('nothing to do') });
    const rows = await withDb((db) => db.query<{ slug: string; title: string }>('SELECT slug, title FROM campaign'));
    expect(rows).toEqual([{ slug: 'platform', title: 'Edited by an operator' }]);
  }, 180_000);
});
