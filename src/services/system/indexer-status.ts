import { INDEXER_STATUS_KEY, type IndexerStatus } from '../../chain-events/indexer-status';
import { KIND_SPECS, tableOf, type KindKey } from '../../chain-events/kinds';
import type { Db } from '../../db/client';
import type { SharedStore } from '../../store';
import type { IndexerMode } from './model';

export interface IndexerKindView {
  kind: KindKey;
  /** Transport that issued the stored cursor; null before the kind's first batch. */
  transport: string | null;
  cursor: string | null;
  lastTxDigest: string | null;
  lastEventSeq: number | null;
  lastCheckpoint: string | null;
  /** Rows written for this kind, all time (decimal string). */
  eventsIndexed: string;
  /** Chain time of the last stored event. */
  lastEventAt: Date | null;
  /** Now minus lastEventAt, seconds. */
  lagSeconds: number | null;
  /** When the cursor row last moved. */
  updatedAt: Date | null;
  /** From the leader: the kind follows the tip. Null without a live leader. */
  caughtUp: boolean | null;
  /** From the leader: tip checkpoint minus lastCheckpoint, where the chain reports its tip. */
  checkpointsBehind: string | null;
  /**
   * From the leader: how the package on the node differs from what this kind's decoder reads
   * (src/chain-events/contract.ts); the kind is not followed while any is listed. Empty without a leader.
   */
  contractDifferences: string[];
}

export interface IndexerStatusView {
  mode: IndexerMode;
  leader: { instanceId: string; since: Date; heartbeatAt: Date } | null;
  tipCheckpoint: string | null;
  eventsPerSecond: number | null;
  progress: number | null;
  etaSeconds: number | null;
  kinds: IndexerKindView[];
  checkedAt: Date;
}

export interface IndexerStatusService {
  status(): Promise<IndexerStatusView>;
}

interface CursorRow {
  kind: KindKey;
  transport: string | null;
  cursor: string | null;
  last_tx_digest: string | null;
  last_event_seq: number | null;
  last_checkpoint: string | null;
  events_indexed: string | null;
  updated_at: Date | string | null;
  last_event_at: Date | string | null;
}

// Kind keys and tables come from the registry, never from user input.
const POSITIONS_SQL = KIND_SPECS.map(
  (k) => `SELECT '${k.key}'::text AS kind, c.transport, c.cursor, c.last_tx_digest, c.last_event_seq,
       c.last_checkpoint::text AS last_checkpoint, c.events_indexed::text AS events_indexed, c.updated_at,
       (SELECT e.timestamp_ms FROM ${tableOf(k.key)} e WHERE e.tx_digest = c.last_tx_digest AND e.event_seq = c.last_event_seq) AS last_event_at
  FROM (SELECT 1) one LEFT JOIN "cursor" c ON c.event_kind = '${k.key}'`,
).join('\nUNION ALL\n');

const toDate = (v: Date | string | null): Date | null => (v === null ? null : v instanceof Date ? v : new Date(v));

/**
 * Operator view of the indexer: positions from the `cursor` table (the truth, whoever leads)
 * and mode, leader and tip from the status the leader publishes to the shared store.
 */
export function createIndexerStatusService(deps: { db: Pick<Db, 'query'>; store: Pick<SharedStore, 'get'> }): IndexerStatusService {
  async function published(): Promise<IndexerStatus | null> {
    const raw = await deps.store.get(INDEXER_STATUS_KEY).catch(() => null);
    if (!raw) return null;
    try {
      const s = JSON.parse(raw) as IndexerStatus;
      return s.leader ? s : null;
    } catch {
      return null;
    }
  }

  return {
    async status() {
      const [rows, leader] = await Promise.all([deps.db.query<CursorRow>(POSITIONS_SQL), published()]);
      const now = Date.now();
      const byKind = new Map(leader?.kinds.map((k) => [k.kind, k]));
      return {
        mode: leader ? (leader.mode === 'live' ? 'live' : 'backfill') : 'none',
        leader: leader ? { instanceId: leader.instanceId, since: new Date(leader.leaderSinceMs ?? leader.atMs), heartbeatAt: new Date(leader.atMs) } : null,
        tipCheckpoint: leader?.tipCheckpoint ?? null,
        eventsPerSecond: leader?.eventsPerSecond ?? null,
        progress: leader?.progress ?? null,
        etaSeconds: leader?.etaSeconds ?? null,
        checkedAt: new Date(now),
        kinds: rows.map((r) => {
          const lastEventAt = toDate(r.last_event_at);
          const live = byKind.get(r.kind);
          return {
            kind: r.kind,
            transport: r.transport,
            cursor: r.cursor,
            lastTxDigest: r.last_tx_digest,
            lastEventSeq: r.last_event_seq === null ? null : Number(r.last_event_seq),
            lastCheckpoint: r.last_checkpoint,
            eventsIndexed: r.events_indexed ?? '0',
            lastEventAt,
            lagSeconds: lastEventAt ? Math.max(0, (now - lastEventAt.getTime()) / 1000) : null,
            updatedAt: toDate(r.updated_at),
            caughtUp: live ? live.caughtUp : null,
            checkpointsBehind: live?.checkpointsBehind ?? null,
            contractDifferences: live?.contractDifferences ?? [],
          };
        }),
      };
    },
  };
}
