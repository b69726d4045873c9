import type { Db } from '../db/client.js';
import { INDEXER_LOCK_KEY } from './status.js';

interface BoardSpec {
  table: string;
  keys: readonly string[];
  values: readonly string[];
  /** The board recomputed from the event tables: the same columns as keys + values. */
  computed: string;
}

// The same rules as the live projections in rows.ts, as whole-table aggregates.
export const BOARDS: readonly BoardSpec[] = [
  {
    table: 'bet_leaderboard',
    keys: ['player', 'coin_type'],
    values: ['total_wagered', 'total_payout', 'bet_count', 'win_count'],
    computed: `SELECT player, coin_type, sum(stake) AS total_wagered, sum(payout) AS total_payout,
                      count(*)::int AS bet_count, (count(*) FILTER (WHERE won))::int AS win_count
                 FROM bet_result_event GROUP BY player, coin_type`,
  },
  {
    table: 'weekly_bet_leaderboard',
    keys: ['week_start', 'player', 'coin_type'],
    values: ['total_wagered', 'total_payout', 'bet_count', 'win_count'],
    computed: `SELECT date_trunc('week', timestamp_ms AT TIME ZONE 'UTC')::date AS week_start, player, coin_type,
                      sum(stake) AS total_wagered, sum(payout) AS total_payout,
                      count(*)::int AS bet_count, (count(*) FILTER (WHERE won))::int AS win_count
                 FROM bet_result_event GROUP BY 1, player, coin_type`,
  },
  {
    table: 'xp_leaderboard',
    keys: ['player'],
    values: ['total_xp', 'vip_level'],
    computed: `SELECT DISTINCT ON (player) player, total_exp AS total_xp, vip_level
                 FROM vip_exp_progress_event ORDER BY player, total_exp DESC, id DESC`,
  },
  {
    table: 'referral_leaderboard',
    keys: ['referrer', 'coin_type'],
    values: ['total_rewards', 'referral_count'],
    computed: `SELECT referrer, coin_type, sum(amount) AS total_rewards, count(DISTINCT referee)::int AS referral_count
                 FROM referral_reward_event GROUP BY referrer, coin_type`,
  },
];

export interface BoardDifference {
  board: string;
  key: Record<string, string>;
  /** Recomputed from the events; null when the live table has a row the events do not produce. */
  expected: Record<string, string> | null;
  /** In the live table; null when a row is missing. */
  live: Record<string, string> | null;
}

const obj = (alias: string, presence: string, cols: readonly string[]) =>
  `CASE WHEN ${alias}.${presence} IS NULL THEN NULL ELSE json_build_object(${cols.map((c) => `'${c}', ${alias}.${c}::text`).join(', ')}) END`;

/** One statement (one snapshot) per board: rows that differ, are missing, or are extra. */
function diffSql(b: BoardSpec): string {
  const on = b.keys.map((k) => `l.${k} = c.${k}`).join(' AND ');
  const key = `json_build_object(${b.keys.map((k) => `'${k}', coalesce(c.${k}, l.${k})::text`).join(', ')})`;
  const tuple = (a: string) => `(${b.values.map((v) => `${a}.${v}`).join(', ')})`;
  return `WITH c AS (${b.computed})
    SELECT ${key} AS key, ${obj('c', b.keys[0], b.values)} AS expected, ${obj('l', b.keys[0], b.values)} AS live
      FROM c FULL OUTER JOIN ${b.table} l ON ${on}
     WHERE c.${b.keys[0]} IS NULL OR l.${b.keys[0]} IS NULL OR ${tuple('c')} IS DISTINCT FROM ${tuple('l')}
     ORDER BY 1::text`;
}

const parse = (v: unknown): Record<string, string> | null => (v === null || v === undefined ? null : typeof v === 'string' ? JSON.parse(v) : (v as Record<string, string>));

/** Recomputes the four leaderboards from the event tables and lists every difference from the live tables. */
export async function diffLeaderboards(db: Pick<Db, 'query'>): Promise<BoardDifference[]> {
  const out: BoardDifference[] = [];
  for (const b of BOARDS) {
    const rows = await db.query<{ key: unknown; expected: unknown; live: unknown }>(diffSql(b));
    for (const r of rows) {
      out.push({ board: b.table, key: parse(r.key)!, expected: parse(r.expected), live: parse(r.live) });
    }
  }
  return out;
}

export class IndexerRunningError extends Error {
  override readonly name = 'IndexerRunningError';
}

/**
 * Replaces the live leaderboards with the recomputed ones, in one transaction, while holding the
 * indexer's leader lock so no batch commits in between (refused while an indexer leads).
 */
export async function applyRebuild(db: Db): Promise<{ rows: Record<string, number> }> {
  const outcome = await db.withAdvisoryLock(INDEXER_LOCK_KEY, async () =>
    db.prisma.$transaction(async (tx) => {
      const rows: Record<string, number> = {};
      for (const b of BOARDS) {
        const cols = [...b.keys, ...b.values].join(', ');
        await tx.$executeRawUnsafe(`DELETE FROM ${b.table}`);
        rows[b.table] = await tx.$executeRawUnsafe(`INSERT INTO ${b.table} (${cols}, updated_at) SELECT ${cols}, now() FROM (${b.computed}) c`);
      }
      return { rows };
    }),
  );
  if (!outcome.acquired) throw new IndexerRunningError('an indexer holds the leader lock: stop it (or every replica) before --apply');
  return outcome.value;
}
