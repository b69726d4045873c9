import { randomUUID } from 'node:crypto';
import type { BetResult } from '../../src/chain-events/kinds';
import type { Db } from '../../src/db/client';
import type { DecodedEvent } from '../../src/indexer/follow';
import { createEventStore } from '../../src/indexer/store';
import type { QuestService } from '../../src/services/quests/service';

export const SUI = '0x0000000000000000000000000000000000000000000000000000000000000002::sui::SUI';

/** A decoded BetResultEvent as the indexer's decoder hands it to the store. */
export function betEvent(player: string, at: Date, over: Partial<BetResult> = {}): DecodedEvent<BetResult> {
  return {
    txDigest: randomUUID().replace(/-/g, ''),
    eventSeq: 0,
    checkpoint: 9_000_000n,
    timestampMs: at.getTime(),
    sender: player,
    type: '0x1::game::BetResultEvent',
    data: { player, gameId: 7n, coinType: SUI, stake: 1_000_000_000n, payout: 0n, won: false, ...over },
  };
}

/**
 * Stores bet events the way the indexer's runner does: one `writeBatch` (rows, leaderboards and
 * cursor in one transaction), then its post-commit quest step.
 */
export async function indexBets(db: Db, quests: Pick<QuestService, 'afterIndexed'>, events: DecodedEvent<BetResult>[]): Promise<number> {
  const store = createEventStore({ db });
  const stored = await store.loadCursor('bet_result_event');
  const { inserted } = await store.writeBatch({ kind: 'bet_result_event', events, cursor: stored?.cursor ?? null, nextCursor: randomUUID() }, 'graphql');
  await quests.afterIndexed('bet_result_event', events);
  return inserted;
}

export interface RestAnswer {
  status: number;
  headers: Headers;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any
}

/** One REST call over real HTTP. */
export async function rest(url: string, method: 'GET' | 'POST', path: string, opts: { token?: string; body?: unknown } = {}): Promise<RestAnswer> {
  const headers: Record<string, string> = {};
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  if (opts.body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${url}/api${path}`, { method, headers, body: opts.body === undefined ? undefined : JSON.stringify(opts.body) });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : null };
}

/** Everything a claim could have written: claims, XP rows and the XP board's rank buckets. */
export async function claimFootprint(db: Pick<Db, 'query'>): Promise<{ claims: number; xpRows: number; questXp: string; buckets: number }> {
  const [row] = await db.query<{ claims: number; xp_rows: number; quest_xp: string; buckets: string }>(
    `SELECT (SELECT count(*)::int FROM quest_claim) AS claims, (SELECT count(*)::int FROM xp_leaderboard) AS xp_rows,
            (SELECT coalesce(sum(quest_xp), 0)::text FROM xp_leaderboard) AS quest_xp,
            (SELECT coalesce(sum(n), 0)::text FROM leaderboard_rank_bucket WHERE board = 'xp') AS buckets`,
  );
  return { claims: Number(row.claims), xpRows: Number(row.xp_rows), questXp: String(row.quest_xp), buckets: Number(row.buckets) };
}
