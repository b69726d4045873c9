import { boardsFedBy, type LeaderboardSpec } from '../chain-events/leaderboards.js';
import { EVENT_KIND_SPECS, tableOf, type KindColumn, type KindData, type KindKey } from '../chain-events/kinds.js';
import type { DecodedEvent } from './follow.js';

export interface TableSpec<T> {
  table: string;
  columns: readonly KindColumn<T>[];
  /** Extra data-modifying CTEs reading the inserted rows from `ins` (leaderboard projections). */
  projections: readonly string[];
}

/** A batch's inserted rows (`ins`) folded into a board, as one data-modifying CTE. */
function liveProjection(b: LeaderboardSpec): string {
  const cols = [...b.keys, ...b.values].join(', ');
  const merge = Object.entries(b.merge).map(([col, expr]) => `${col} = ${expr}`);
  return `${b.board}_lb AS (
    INSERT INTO ${b.table} AS lb (${cols}, updated_at)
    SELECT ${cols}, now() FROM (${b.aggregate('ins', true)}) agg
    ON CONFLICT (${b.keys.join(', ')}) DO UPDATE SET ${[...merge, 'updated_at = now()'].join(', ')}
  )`;
}

function tableSpec<K extends KindKey>(kind: K): TableSpec<KindData<K>> {
  return {
    table: tableOf(kind),
    columns: EVENT_KIND_SPECS[kind].columns as readonly KindColumn<KindData<K>>[],
    projections: boardsFedBy(kind).map(liveProjection),
  };
}

export const TABLES = Object.fromEntries(Object.keys(EVENT_KIND_SPECS).map((k) => [k, tableSpec(k as KindKey)])) as {
  [K in KindKey]: TableSpec<KindData<K>>;
};

const COMMON: readonly KindColumn<DecodedEvent<unknown>>[] = [
  ['tx_digest', 'text', (e) => e.txDigest],
  ['event_seq', 'int', (e) => e.eventSeq],
  ['checkpoint', 'bigint', (e) => {
    if (e.checkpoint === null) throw new Error(`event ${e.txDigest}#${e.eventSeq} has no checkpoint`);
    return e.checkpoint.toString();
  }],
  ['timestamp_ms', 'timestamptz', (e) => new Date(e.timestampMs).toISOString()],
  ['sender', 'text', (e) => e.sender],
];

/**
 * One statement: insert the rows (duplicates by (tx_digest, event_seq) skipped), feed only the
 * inserted rows to the kind's leaderboards, return how many were inserted.
 */
export function insertStatement<T>(spec: TableSpec<T>, events: readonly DecodedEvent<T>[]): { sql: string; params: unknown[] } {
  const params: unknown[] = [];
  const names = [...COMMON.map((c) => c[0]), ...spec.columns.map((c) => c[0])];
  const rows = events.map((event) => {
    const cells = [
      ...COMMON.map(([, cast, value]) => `$${params.push(value(event))}::${cast}`),
      ...spec.columns.map(([, cast, value]) => `$${params.push(value(event.data))}::${cast}`),
    ];
    return `(${cells.join(', ')})`;
  });
  const ctes = [
    `ins AS (
    INSERT INTO ${spec.table} (${names.join(', ')})
    VALUES ${rows.join(',\n      ')}
    ON CONFLICT (tx_digest, event_seq) DO NOTHING
    RETURNING *
  )`,
    ...spec.projections,
  ];
  return { sql: `WITH ${ctes.join(',\n  ')}\nSELECT count(*)::int AS inserted FROM ins`, params };
}
