import type { Db } from '../db/client.js';
import type { Batch } from './follow.js';
import { tableOf, type KindData, type KindKey } from '../chain-events/kinds.js';
import { insertCtes, TABLES, type StoredRows, type TableSpec } from './rows.js';
import type { Transport } from './sources/types.js';

/** SQLSTATE raised by `indexer_cursor_moved()` (see its migration). */
const CURSOR_MOVED = 'IX001';
/** unique_violation: a batch written with `fail` met a stored row. */
const UNIQUE_VIOLATION = '23505';

export interface StoredCursor {
  transport: Transport;
  cursor: string | null;
  eventsIndexed: bigint;
}

/** Where a kind's last stored event sits on the chain (for lag and progress). */
interface StoredPosition {
  checkpoint: bigint | null;
  /** Chain time of the last stored event, epoch ms. */
  lastEventAtMs: number | null;
}

export interface WriteResult {
  /** Rows actually inserted (replays of already stored events are skipped and not counted). */
  inserted: number;
}

/** Another writer moved this kind's cursor since the batch was read (e.g. two indexers without the lock). */
export class CursorConflictError extends Error {
  override readonly name = 'CursorConflictError';
  readonly retryable = false;
}

export interface EventStore {
  /** The stored position of a kind, or null. A cursor of another transport is returned as is: compare `transport`. */
  loadCursor(kind: KindKey): Promise<StoredCursor | null>;
  /** Checkpoint and chain time of the kind's last stored event; nulls before its first batch. */
  loadPosition(kind: KindKey): Promise<StoredPosition>;
  /** Cursor to resume `kind` on `transport`: the stored one if it was issued by that transport, else null (from genesis; replays are skipped). */
  resumeCursor(kind: KindKey, transport: Transport): Promise<string | null>;
  /** Writes the batch's rows, the leaderboard updates for the inserted rows, and the cursor, atomically (one statement). */
  writeBatch<K extends KindKey>(batch: Batch<K, KindData<K>>, transport: Transport): Promise<WriteResult>;
}

export function createEventStore({ db }: { db: Pick<Db, 'query' | 'kind'> }): EventStore {
  const encoding = db.kind === 'postgres' ? 'binary' : 'text';

  async function loadCursor(kind: KindKey): Promise<StoredCursor | null> {
    const rows = await db.query<{ transport: string; cursor: string | null; events_indexed: string }>(
      'SELECT transport, cursor, events_indexed::text AS events_indexed FROM "cursor" WHERE event_kind = $1',
      [kind],
    );
    const row = rows[0];
    return row ? { transport: row.transport as Transport, cursor: row.cursor, eventsIndexed: BigInt(row.events_indexed) } : null;
  }

  async function loadPosition(kind: KindKey): Promise<StoredPosition> {
    const rows = await db.query<{ checkpoint: string | null; at: string | number | null }>(
      `SELECT c.last_checkpoint::text AS checkpoint,
              (SELECT (extract(epoch FROM e.timestamp_ms) * 1000)::float8 FROM ${tableOf(kind)} e
                WHERE e.tx_digest = c.last_tx_digest AND e.event_seq = c.last_event_seq) AS at
         FROM "cursor" c WHERE c.event_kind = $1`,
      [kind],
    );
    const row = rows[0];
    return { checkpoint: row?.checkpoint ? BigInt(row.checkpoint) : null, lastEventAtMs: row?.at == null ? null : Number(row.at) };
  }

  /** Kinds whose last batch met stored rows (a replay): their next batch skips them from the start. */
  const replaying = new Set<KindKey>();

  /**
   * New rows are the rule (a backfill, the tip), so a batch is first written to fail on a stored
   * row, and only then written again to skip them; the statement is atomic, so the failed attempt
   * leaves nothing behind.
   */
  async function writeBatch<K extends KindKey>(batch: Batch<K, KindData<K>>, transport: Transport): Promise<WriteResult> {
    if (!replaying.has(batch.kind)) {
      try {
        return await writeOnce(batch, transport, 'fail');
      } catch (error) {
        if ((error as { code?: unknown }).code !== UNIQUE_VIOLATION) throw error;
        replaying.add(batch.kind);
      }
    }
    const result = await writeOnce(batch, transport, 'skip');
    if (result.inserted === batch.events.length) replaying.delete(batch.kind);
    return result;
  }

  async function writeOnce<K extends KindKey>(batch: Batch<K, KindData<K>>, transport: Transport, stored: StoredRows): Promise<WriteResult> {
    const spec = TABLES[batch.kind] as TableSpec<KindData<K>>;
    const { ctes, params } = insertCtes(spec, batch.events, encoding, stored);
    const last = batch.events.at(-1);
    const $ = (value: unknown) => `$${params.push(value)}`;
    const kind = $(batch.kind);
    const readFrom = $(batch.cursor);
    // The cursor moves in the same statement (one round trip a batch), guarded: the stored cursor
    // must still be the one this batch was read from (same transport); `cur` is empty otherwise.
    const cursor = `cur AS (
    INSERT INTO "cursor" AS c (event_kind, transport, cursor, last_tx_digest, last_event_seq, last_checkpoint, events_indexed, updated_at)
    VALUES (${kind}::text, ${$(transport)}::text, ${$(batch.nextCursor)}::text, ${$(last?.txDigest ?? null)}::text,
            ${$(last?.eventSeq ?? null)}::int, ${$(last?.checkpoint?.toString() ?? null)}::bigint, (SELECT count(*) FROM ins), now())
    ON CONFLICT (event_kind) DO UPDATE SET
      transport = EXCLUDED.transport,
      cursor = EXCLUDED.cursor,
      last_tx_digest = COALESCE(EXCLUDED.last_tx_digest, c.last_tx_digest),
      last_event_seq = COALESCE(EXCLUDED.last_event_seq, c.last_event_seq),
      last_checkpoint = COALESCE(EXCLUDED.last_checkpoint, c.last_checkpoint),
      events_indexed = c.events_indexed + EXCLUDED.events_indexed,
      updated_at = now()
    WHERE c.transport <> EXCLUDED.transport OR c.cursor IS NOT DISTINCT FROM ${readFrom}::text
    RETURNING 1
  )`;
    // One statement is atomic without a transaction: when the guard refuses, the final SELECT
    // raises (SQLSTATE IX001) and the rows and board updates of this statement roll back with it.
    const sql = `WITH ${[...ctes, cursor].join(',\n  ')}
SELECT CASE WHEN (SELECT count(*) FROM cur) = 1 THEN (SELECT count(*) FROM ins)::int
            ELSE indexer_cursor_moved(${kind}::text, ${readFrom}::text) END AS inserted`;
    try {
      const [row] = await db.query<{ inserted: number }>(sql, params);
      return { inserted: Number(row.inserted) };
    } catch (error) {
      if ((error as { code?: unknown }).code === CURSOR_MOVED) throw new CursorConflictError((error as Error).message, { cause: error });
      throw error;
    }
  }

  return {
    loadCursor,
    loadPosition,
    async resumeCursor(kind, transport) {
      const stored = await loadCursor(kind);
      return stored && stored.transport === transport ? stored.cursor : null;
    },
    writeBatch,
  };
}
