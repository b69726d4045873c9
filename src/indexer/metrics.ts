import { Counter, Gauge, Histogram, type Registry } from 'prom-client';

export interface IndexerMetrics {
  /** 1 while this process holds the indexer lock. */
  leader: Gauge;
  /** One series per mode; the current mode is 1, the others 0. */
  mode: Gauge<'mode'>;
  /** Rows inserted per kind (replays of stored events are not counted). */
  eventsIndexed: Counter<'kind'>;
  /** Committed batches per kind. */
  batches: Counter<'kind'>;
  /** Checkpoint of the last indexed event per kind. */
  positionCheckpoint: Gauge<'kind'>;
  /** Wall clock minus the chain timestamp of the last indexed event, per kind. */
  lagSeconds: Gauge<'kind'>;
  /** Chain tip checkpoint minus the kind's last indexed checkpoint (0 once caught up), where the tip is known. */
  checkpointsBehind: Gauge<'kind'>;
  /** 1 once the kind's follower reported it reached the tip. */
  caughtUp: Gauge<'kind'>;
  /** 1 when the kind's event struct on chain differs from its decoder's (the kind is not followed). */
  contractRefused: Gauge<'kind'>;
  /** Retries of chain reads and batch writes. */
  retries: Counter<'kind' | 'stage'>;
  /** Time of one batch's transaction. */
  batchDuration: Histogram<'kind'>;
}

const NAMES = ['indexer_leader', 'indexer_mode', 'indexer_events_indexed_total', 'indexer_batches_total', 'indexer_position_checkpoint', 'indexer_lag_seconds', 'indexer_checkpoints_behind', 'indexer_caught_up', 'indexer_contract_refused', 'indexer_retries_total', 'indexer_batch_duration_seconds'];

/** The indexer's series, registered in the process registry (served at /metrics by the api role). */
export function createIndexerMetrics(registry: Registry, onCollect?: () => void): IndexerMetrics {
  const registers = [registry];
  // A second indexer in the same process (tests) starts from fresh series.
  for (const name of NAMES) registry.removeSingleMetric(name);
  return {
    // Collected first: refreshes the derived gauges (mode, lag, …) at scrape time.
    leader: new Gauge({
      name: 'indexer_leader',
      help: '1 while this process is the indexer leader (holds the advisory lock)',
      registers,
      collect: onCollect,
    }),
    mode: new Gauge({ name: 'indexer_mode', help: 'Indexer mode: the series of the current mode is 1 (backfill | live | standby)', labelNames: ['mode'], registers }),
    eventsIndexed: new Counter({ name: 'indexer_events_indexed_total', help: 'Events written to the typed tables, by kind', labelNames: ['kind'], registers }),
    batches: new Counter({ name: 'indexer_batches_total', help: 'Committed batches (rows + leaderboards + cursor in one transaction), by kind', labelNames: ['kind'], registers }),
    positionCheckpoint: new Gauge({ name: 'indexer_position_checkpoint', help: 'Checkpoint of the last indexed event, by kind', labelNames: ['kind'], registers }),
    lagSeconds: new Gauge({ name: 'indexer_lag_seconds', help: 'Now minus the chain timestamp of the last indexed event, by kind', labelNames: ['kind'], registers }),
    checkpointsBehind: new Gauge({ name: 'indexer_checkpoints_behind', help: 'Chain tip checkpoint minus the last indexed checkpoint (0 when caught up), by kind', labelNames: ['kind'], registers }),
    caughtUp: new Gauge({ name: 'indexer_caught_up', help: '1 once the kind reached the chain tip and stays there', labelNames: ['kind'], registers }),
    contractRefused: new Gauge({ name: 'indexer_contract_refused', help: '1 when the event struct on chain differs from what the indexer reads (the kind is not followed), by kind', labelNames: ['kind'], registers }),
    retries: new Counter({ name: 'indexer_retries_total', help: 'Retried chain reads (list) and batch writes (batch), by kind', labelNames: ['kind', 'stage'], registers }),
    batchDuration: new Histogram({
      name: 'indexer_batch_duration_seconds',
      help: 'Duration of one batch transaction, by kind',
      labelNames: ['kind'],
      buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
      registers,
    }),
  };
}
