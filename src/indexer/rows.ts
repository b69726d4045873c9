import { boardsFedBy, type LeaderboardSpec } from '../chain-events/leaderboards.js';
import { EVENT_KIND_SPECS, tableOf, type KindColumn, type KindData, type KindKey } from '../chain-events/kinds.js';
import { arrayParam, arrayParamType, type ArrayEncoding } from './array-params.js';
import type { DecodedEvent } from './follow.js';

export interface TableSpec<T> {
  table: string;
  columns: readonly KindColumn<T>[];
  /** Extra data-modifying CTEs reading the inserted rows from `ins` (leaderboard projections). */
  projections: readonly string[];
  /** The columns of the inserted rows those CTEs read (none: `ins` returns a 1 per row, to be counted). */
  returned: readonly string[];
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
  const boards = boardsFedBy(kind);
  return {
    table: tableOf(kind),
    columns: EVENT_KIND_SPECS[kind].columns as readonly KindColumn<KindData<K>>[],
    projections: boards.map(liveProjection),
    returned: [...new Set(boards.flatMap((b) => b.reads))],
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
    return e.checkpoint;
  }],
  // Sent as epoch milliseconds and made a timestamptz by the statement (exact integer arithmetic):
  // cheaper on both sides than an ISO string per row.
  ['timestamp_ms', 'bigint', (e) => e.timestampMs],
  ['sender', 'text', (e) => e.sender],
];

/** How a column of the `unnest` (alias `u`) is inserted: as is, except the common timestamp. */
const selected = (name: string): string => (name === 'timestamp_ms' ? `'epoch'::timestamptz + u.timestamp_ms * interval '1 millisecond'` : `u.${name}`);

/**
 * How a batch's rows meet rows already stored under the same (tx_digest, event_seq): `skip` skips
 * them (ON CONFLICT DO NOTHING: a replay stores nothing twice); `fail` lets the unique key refuse
 * the statement (SQLSTATE 23505), which spares PostgreSQL the speculative insertion ON CONFLICT
 * makes of every row, about a fifth of the insert's cost; the caller then writes the batch again with `skip`.
 */
export type StoredRows = 'skip' | 'fail';

/**
 * Data-modifying CTEs: `ins` inserts the rows and returns what the kind's leaderboard CTEs read
 * (PostgreSQL keeps every returned row until the statement ends, so no more than that), and those
 * CTEs fold only the inserted rows in. Each column travels as one array parameter (`unnest`), so a
 * batch binds one parameter per column instead of one per cell: far less to send, parse and plan
 * than a VALUES list of thousands of placeholders (binary arrays on PostgreSQL, ./array-params.ts).
 * Parameters are numbered from $1; the caller may append more.
 */
export function insertCtes<T>(spec: TableSpec<T>, events: readonly DecodedEvent<T>[], encoding: ArrayEncoding, stored: StoredRows = 'skip'): { ctes: string[]; params: unknown[] } {
  const names = [...COMMON.map((c) => c[0]), ...spec.columns.map((c) => c[0])];
  const casts = [...COMMON.map((c) => c[1]), ...spec.columns.map((c) => c[1])];
  const columns: unknown[][] = names.map(() => new Array<unknown>(events.length));
  for (let row = 0; row < events.length; row++) {
    const event = events[row];
    for (let c = 0; c < COMMON.length; c++) columns[c][row] = COMMON[c][2](event);
    for (let c = 0; c < spec.columns.length; c++) columns[COMMON.length + c][row] = spec.columns[c][2](event.data);
  }
  const ins = `ins AS (
    INSERT INTO ${spec.table} (${names.join(', ')})
    SELECT ${names.map(selected).join(', ')}
      FROM unnest(${casts.map((cast, i) => `$${i + 1}::${arrayParamType(cast, encoding)}`).join(', ')}) AS u(${names.join(', ')})
    ${stored === 'skip' ? 'ON CONFLICT (tx_digest, event_seq) DO NOTHING' : ''}
    RETURNING ${spec.returned.length > 0 ? spec.returned.join(', ') : '1'}
  )`;
  return { ctes: [ins, ...spec.projections], params: columns.map((values, i) => arrayParam(values, casts[i], encoding)) };
}
