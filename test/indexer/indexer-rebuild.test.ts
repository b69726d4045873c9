import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSuiChainFixture, type SuiChainFixture } from '../fixtures/sui-chain/index.js';
import { migratedTarget, type MigratedTarget } from '../helpers/db.js';
import { caughtUp, inProcessIndexer, waitUntil } from '../helpers/indexer.js';
import type { Db } from '../../src/db/client.js';
import { applyRebuild, diffLeaderboards, IndexerRunningError } from '../../src/indexer/rebuild.js';
import { builtScriptArgs } from '../helpers/built-main';

let chain: SuiChainFixture;
let target: MigratedTarget;

beforeAll(async () => {
  chain = await startSuiChainFixture({ seed: 61, events: 3000, startTimestampMs: Date.UTC(2026, 0, 9, 12), graphql: { shortPageProbability: 0.3 } });
  target = await migratedTarget('indexer-rebuild-');
});
afterAll(async () => {
  await chain?.close();
  await target?.cleanup();
});

const open = () => target.open();

/** `npm run indexer:rebuild` as its own process against the test database. */
function rebuild(...args: string[]) {
  const r = spawnSync(process.execPath, [...builtScriptArgs('scripts/indexer-rebuild.ts'), ...args], {
    env: { ...process.env, NODE_ENV: 'test', ...target.env },
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { code: r.status, out: `${r.stdout}${r.stderr}` };
}

async function tamper(db: Db): Promise<void> {
  await db.query(`UPDATE bet_leaderboard SET total_wagered = total_wagered + 1 WHERE (player, coin_type) = (SELECT player, coin_type FROM bet_leaderboard ORDER BY 1, 2 LIMIT 1)`);
  await db.query(`DELETE FROM xp_leaderboard WHERE player = (SELECT min(player) FROM xp_leaderboard)`);
  await db.query(`INSERT INTO referral_leaderboard (referrer, coin_type, total_rewards, referral_count, updated_at) VALUES ('0xdead', '0x2::sui::SUI', 5, 1, now())`);
  await db.query(`UPDATE weekly_bet_leaderboard SET bet_count = bet_count + 1 WHERE (week_start, player, coin_type) = (SELECT week_start, player, coin_type FROM weekly_bet_leaderboard ORDER BY 1, 2, 3 LIMIT 1)`);
}

describe('indexer:rebuild', () => {
  it('finds no difference after a run, lists tampered rows, and --apply repairs them', async () => {
    const db = await open();
    try {
      const run = inProcessIndexer(db, chain);
      await run.indexer.start();
      await waitUntil(() => caughtUp(db, chain), 40_000, 'the backfill');
      // While an indexer leads, --apply is refused (it would race the batches).
      await expect(applyRebuild(db)).rejects.toBeInstanceOf(IndexerRunningError);
      await run.indexer.stop();
      expect(await diffLeaderboards(db)).toEqual([]);
      await tamper(db);
      const diffs = await diffLeaderboards(db);
      expect(diffs.map((d) => d.board).sort()).toEqual(['bet_leaderboard', 'referral_leaderboard', 'weekly_bet_leaderboard', 'xp_leaderboard']);
      expect(diffs.find((d) => d.board === 'referral_leaderboard')).toMatchObject({ key: { referrer: '0xdead' }, expected: null, live: { total_rewards: '5' } });
      expect(diffs.find((d) => d.board === 'xp_leaderboard')?.live).toBeNull();
    } finally {
      await db.close();
    }

    const check = rebuild();
    expect(check.code, check.out).toBe(1);
    expect(check.out).toContain('bet_leaderboard: 1 difference(s)');
    expect(check.out).toContain('referrer=0xdead');
    const fixed = rebuild('--apply');
    expect(fixed.code, fixed.out).toBe(0);
    expect(fixed.out).toContain('applied: live leaderboards replaced');
    const clean = rebuild();
    expect(clean.code, clean.out).toBe(0);
    expect(clean.out).toContain('no difference');
  }, 85_000);
});
