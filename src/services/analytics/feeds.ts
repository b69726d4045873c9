import { normalizeMoveType } from '../../input/move-type';
import { z } from 'zod';
import type { Db, QueryOptions } from '../../db/client';
import { AppError } from '../../errors';
import { suiAddress } from '../../input/sui-address';
import { parseInput } from '../../input/validate';

/** One indexed `bet_result_event` row as the activity feeds show it. */
export interface BetActivity {
  /** Opaque position of this row in the feed (pass the last one as `cursor` for the next page). */
  cursor: string;
  txDigest: string;
  eventSeq: number;
  /** ISO 8601, the checkpoint's time. */
  timestamp: string;
  player: string;
  gameId: string;
  coinType: string;
  /** u64 base units as decimal strings. */
  stake: string;
  payout: string;
  won: boolean;
}

export interface BetPage {
  items: BetActivity[];
  /** Null on the last page. */
  nextCursor: string | null;
}

export const FEED_MAX_LIMIT = 100;
export const BIG_WIN_DEFAULT_MULTIPLIER = 2;

/** `<timestamp ms>.<row id>`, base64url: rows are ordered by (time, id) descending. */
const encodeCursor = (ms: number, id: string) => Buffer.from(`${ms}.${id}`).toString('base64url');
function decodeCursor(cursor: string): { ms: number; id: string } | null {
  const m = /^(\d{1,15})\.(\d{1,19})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  return m ? { ms: Number(m[1]), id: m[2] } : null;
}

const cursorField = z
  .string()
  .max(64)
  .refine((c) => decodeCursor(c) !== null, { error: 'cursor is not one this feed returned' })
  .optional();
const limitField = z
  .number({ error: `limit must be an integer from 1 to ${FEED_MAX_LIMIT}` })
  .int({ error: `limit must be an integer from 1 to ${FEED_MAX_LIMIT}` })
  .min(1, { error: `limit must be an integer from 1 to ${FEED_MAX_LIMIT}` })
  .max(FEED_MAX_LIMIT, { error: `limit must be an integer from 1 to ${FEED_MAX_LIMIT}` })
  .default(20);
const coinTypeField = z
  .string()
  .max(200)
  .transform((v, ctx) => {
    try {
      return normalizeMoveType(v);
    } catch {
      ctx.addIssue({ code: 'custom', message: `coinType "${v}" is not a Move type such as 0x2::sui::SUI` });
      return z.NEVER;
    }
  })
  .optional();
const playerField = suiAddress('player must be a Sui address').optional();

/** The feeds' inputs, one set of rules for REST (query string, numbers already coerced) and GraphQL. */
const recentBetsInput = z.strictObject({ limit: limitField, cursor: cursorField, player: playerField, coinType: coinTypeField });
const bigWinsInput = z.strictObject({
  limit: limitField,
  cursor: cursorField,
  coinType: coinTypeField,
  minMultiplier: z
    .number({ error: 'minMultiplier must be a number from 1 to 1000000' })
    .min(1, { error: 'minMultiplier must be a number from 1 to 1000000' })
    .max(1_000_000, { error: 'minMultiplier must be a number from 1 to 1000000' })
    .default(BIG_WIN_DEFAULT_MULTIPLIER),
});

interface Row {
  id: string;
  tx_digest: string;
  event_seq: number;
  ms: string;
  player: string;
  game_id: string;
  coin_type: string;
  stake: string;
  payout: string;
  won: boolean;
}

const toActivity = (r: Row): BetActivity => ({
  cursor: encodeCursor(Number(r.ms), r.id),
  txDigest: r.tx_digest,
  eventSeq: Number(r.event_seq),
  timestamp: new Date(Number(r.ms)).toISOString(),
  player: r.player,
  gameId: r.game_id,
  coinType: r.coin_type,
  stake: r.stake,
  payout: r.payout,
  won: Boolean(r.won),
});

/** Keyset pages over bet_result_event, newest first, on its (timestamp_ms) index. */
export function activityFeedQueries(db: Db) {
  async function page(conditions: string[], params: unknown[], limit: number, cursor: string | undefined, opts?: QueryOptions): Promise<BetPage> {
    const after = cursor ? decodeCursor(cursor) : null;
    if (cursor && !after) throw new AppError('VALIDATION_FAILED', 'cursor is not one this feed returned');
    const where = [...conditions];
    if (after) where.push(`(timestamp_ms, id) < ($${params.push(new Date(after.ms).toISOString())}::timestamptz, $${params.push(after.id)}::bigint)`);
    const rows = await db.query<Row>(
      `SELECT id::text AS id, tx_digest, event_seq, (extract(epoch FROM timestamp_ms) * 1000)::bigint::text AS ms,
              player, game_id, coin_type, stake::text AS stake, payout::text AS payout, won
         FROM bet_result_event ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
        ORDER BY timestamp_ms DESC, id DESC LIMIT $${params.push(limit + 1)}`,
      params,
      opts,
    );
    const items = rows.slice(0, limit).map(toActivity);
    return { items, nextCursor: rows.length > limit ? items[items.length - 1].cursor : null };
  }

  return {
    recentBets(input: unknown, opts?: QueryOptions): Promise<BetPage> {
      const q = parseInput(recentBetsInput, input ?? {});
      const params: unknown[] = [];
      const where: string[] = [];
      if (q.player) where.push(`player = $${params.push(q.player)}`);
      if (q.coinType) where.push(`coin_type = $${params.push(q.coinType)}`);
      return page(where, params, q.limit, q.cursor, opts);
    },
    /**
     * The newest `limit` bets of each player, in one statement (a LATERAL read per player on the
     * (player, timestamp_ms) index): the batch behind per-item lookups (DataLoader).
     */
    async recentBetsOfPlayers(players: readonly string[], limit: number, opts?: QueryOptions): Promise<Map<string, BetActivity[]>> {
      if (!Number.isInteger(limit) || limit < 1 || limit > FEED_MAX_LIMIT) throw new AppError('VALIDATION_FAILED', `limit must be an integer from 1 to ${FEED_MAX_LIMIT}`);
      const rows = await db.query<Row>(
        `SELECT b.id::text AS id, b.tx_digest, b.event_seq, (extract(epoch FROM b.timestamp_ms) * 1000)::bigint::text AS ms,
                b.player, b.game_id, b.coin_type, b.stake::text AS stake, b.payout::text AS payout, b.won
           FROM unnest($1::text[]) AS p(player)
           CROSS JOIN LATERAL (SELECT * FROM bet_result_event e WHERE e.player = p.player ORDER BY e.timestamp_ms DESC, e.id DESC LIMIT $2) AS b`,
        [players, limit],
        opts,
      );
      const byPlayer = new Map<string, BetActivity[]>(players.map((p) => [p, []]));
      for (const r of rows) byPlayer.get(r.player)?.push(toActivity(r));
      return byPlayer;
    },
    bigWins(input: unknown, opts?: QueryOptions): Promise<BetPage> {
      const q = parseInput(bigWinsInput, input ?? {});
      const params: unknown[] = [];
      const where = ['won', `payout >= stake * $${params.push(String(q.minMultiplier))}::numeric`, 'payout > 0'];
      if (q.coinType) where.push(`coin_type = $${params.push(q.coinType)}`);
      return page(where, params, q.limit, q.cursor, opts);
    },
  };
}
