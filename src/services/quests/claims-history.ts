import type { Db, QueryOptions } from '../../db/client';
import { AppError } from '../../errors';
import { parseInput } from '../../input/validate';
import { claimsHistoryQuery, type QuestClaimPage, type QuestClaimRecord, type TimePeriod } from './model';

interface Position {
  claimedAt: string;
  id: string;
}

/** Opaque to clients: base64url of `claimedAt|id`, the last row's place in (claimed_at DESC, id DESC) order. */
const encodeCursor = (p: Position): string => Buffer.from(`${p.claimedAt}|${p.id}`).toString('base64url');

function decodeCursor(cursor: string): Position {
  const m = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z)\|([0-9a-f-]{36})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!m || Number.isNaN(Date.parse(m[1]!))) throw new AppError('VALIDATION_FAILED', 'after must be the nextCursor of a claims page');
  return { claimedAt: m[1]!, id: m[2]! };
}

interface Row {
  id: string;
  campaign_slug: string;
  quest_key: string;
  player_address: string;
  time_period: string;
  period_start: Date;
  xp_reward: number;
  tx_hash: string | null;
  claimed_at: Date;
}

/**
 * A wallet's claims, newest first, keyset-paged on (claimed_at DESC, id DESC): the
 * (player_address, claimed_at DESC) index gives the range, the id orders claims of one instant,
 * so a claim made while a client pages never shifts or repeats the rows of later pages.
 */
export async function readClaimsHistory(db: Pick<Db, 'query'>, wallet: string, input: unknown, opts?: QueryOptions): Promise<QuestClaimPage> {
  const { limit, after } = parseInput(claimsHistoryQuery, input);
  const params: unknown[] = [wallet];
  const conds = ['player_address = $1'];
  if (after) {
    const at = decodeCursor(after);
    const claimedAt = `$${params.push(at.claimedAt)}::timestamptz`;
    const id = `$${params.push(at.id)}::uuid`;
    conds.push(`claimed_at <= ${claimedAt}`, `(claimed_at < ${claimedAt} OR id < ${id})`);
  }
  const rows = await db.query<Row>(
    `SELECT id::text, campaign_slug, quest_key, player_address, time_period, period_start, xp_reward, tx_hash, claimed_at
       FROM quest_claim WHERE ${conds.join(' AND ')}
      ORDER BY claimed_at DESC, id DESC LIMIT $${params.push(limit + 1)}`,
    params,
    opts,
  );
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    claims: page.map(toRecord),
    nextCursor: rows.length > limit && last ? encodeCursor({ claimedAt: new Date(last.claimed_at).toISOString(), id: last.id }) : null,
  };
}

const toRecord = (r: Row): QuestClaimRecord => ({
  campaignSlug: r.campaign_slug,
  questKey: r.quest_key,
  player: r.player_address,
  timePeriod: r.time_period as TimePeriod,
  periodStart: new Date(r.period_start).toISOString(),
  xpReward: Number(r.xp_reward),
  txHash: r.tx_hash,
  claimedAt: new Date(r.claimed_at).toISOString(),
});
