import type { Db } from '../db/client.js';
import { LEADERBOARD_SPECS, recomputedBoard } from '../chain-events/leaderboards.js';
import { INDEXER_LOCK_KEY } from './leader-lock.js';

interface BoardSpec {
  table: string;
  keys: readonly string[];
  values: readonly string[];
  /** The board recomputed from the event tables: the same columns as keys + values. */
  computed: string;
}

// The same rules as the live projections (one registry entry per board), as whole-table aggregates.
const BOARDS: readonly BoardSpec[] = LEADERBOARD_SPECS.map((b) => ({ table: b.table, keys: b.keys, values: b.values, computed: recomputedBoard(b) }));

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
