import type { KindKey } from './kinds.js';

// The status snapshot the indexer leader publishes to the shared store and services read back.

/** backfill: some kind has not reached the chain tip yet; live: every kind follows the tip; standby: not the leader. */
export type IndexerMode = 'standby' | 'backfill' | 'live';

export interface KindStatus {
  kind: KindKey;
  /** The kind's follower reached the tip and has stayed there (at most one batch between tip reports). */
  caughtUp: boolean;
  /** Checkpoint of the last indexed event (stored or this run). */
  lastCheckpoint: string | null;
  /** Chain time of the last indexed event, epoch ms. */
  lastEventAtMs: number | null;
  /** Now minus lastEventAtMs, seconds. */
  lagSeconds: number | null;
  /** Tip checkpoint minus lastCheckpoint; 0 once caught up; null while the tip is unknown. */
  checkpointsBehind: string | null;
  /** Rows inserted by this leader term. */
  eventsIndexed: number;
  /** How the event struct on chain differs from what the decoder reads; non-empty: the kind is not followed this term. */
  contractDifferences: string[];
}

export interface IndexerStatus {
  /** Random per process; reveals nothing about the host. */
  instanceId: string;
  leader: boolean;
  /** Epoch ms this process became leader. */
  leaderSinceMs: number | null;
  mode: IndexerMode;
  /** Latest checkpoint the chain endpoint reported, when it reports one. */
  tipCheckpoint: string | null;
  /** Insert rate over the last few seconds. */
  eventsPerSecond: number;
  /** Backfill progress 0..1 by checkpoints, where the tip is known. */
  progress: number | null;
  etaSeconds: number | null;
  kinds: KindStatus[];
  /** Epoch ms of this snapshot. */
  atMs: number;
}

/** Shared-store key under which the leader publishes its status (with a short expiry). */
export const INDEXER_STATUS_KEY = 'indexer:status';