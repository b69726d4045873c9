import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import { INDEXER_STATUS_KEY, type IndexerMode, type IndexerStatus } from '../chain-events/indexer-status.js';
import type { Db, Lease } from '../db/client.js';
import type { Hooks } from '../services/hooks';
import type { LeaderboardService } from '../services/leaderboards';
import type { SharedStore } from '../store/index.js';
import { backoffDelay, sleep } from './backoff.js';
import type { ReadNormalizedModules } from '../chain-events/contract-check.js';
import { createMoveModuleReader } from '../providers/sui-move-modules.js';
import { coalesce } from './coalesce.js';
import { eventContractDifferences } from './contract.js';
import { classifyWriteError } from './errors.js';
import { followKind, type Batch } from './follow.js';
import { KIND_LIST, type AnyEventKind, type EventKind, type KindData, type KindKey } from './kinds.js';
import { createIndexerMetrics, type IndexerMetrics } from './metrics.js';
import { startProgressReporter, type ProgressStream } from './progress.js';
import { createEventSource, type EventSource, type Transport } from './sources/index.js';
import { createIndexerState } from './state.js';
import { INDEXER_LOCK_KEY } from './leader-lock.js';
import { createEventStore } from './store.js';
import { createTipReader, type TipReader } from './tip.js';

export interface IndexerConfig {
  packageId: string;
  transport: Transport;
  suiUrl: string;
  pollingIntervalMs: number;
  /** Events per listEvents page. Default 50 (Sui GraphQL's maximum) or 500 on gRPC. */
  pageSize?: number;
  /**
   * Pages one write carries in a backfill: consecutive pages are written together (fewer
   * statements, board upserts and trigger runs per event); at the tip each page is written as it
   * comes. Default 4 on gRPC (2 000 events), where the writes are half the work; 1 on GraphQL,
   * where the node's round trips of 50 events are.
   */
  pagesPerBatch?: number;
}

export interface IndexerDeps {
  config: IndexerConfig;
  db: Db;
  logger: Logger;
  /** The process's Prometheus registry (served at /metrics). */
  registry: Registry;
  leaderboards: Pick<LeaderboardService, 'invalidate'>;
  /** Where committed batches are announced (`chainIndexed`): domains' follow-ups (quest progress, the activity feed) subscribe there. */
  hooks: Pick<Hooks, 'emit'>;
  /** Where the leader publishes its status for the operator query (every replica reads it). */
  statusStore?: Pick<SharedStore, 'set' | 'del'>;
  /** Terminal for the backfill progress bar (a log line every few seconds when not a TTY). */
  progressStream?: ProgressStream;
  /** How often a standby process tries to become leader. Default 3 000 ms. */
  leaderRetryMs?: number;
  /** How often the leader publishes status and refreshes gauges. Default 2 000 ms. */
  statusIntervalMs?: number;
  /** How often the chain tip is read (for lag in checkpoints and the ETA). Default 5 000 ms. */
  tipIntervalMs?: number;
  /** Test seams. */
  source?: EventSource;
  tipReader?: TipReader;
  kinds?: readonly AnyEventKind[];
  /** Where the package's normalized modules come from (default: the configured node). */
  readModules?: ReadNormalizedModules;
}

export interface Indexer {
  /** Starts competing for leadership in the background; resolves at once. */
  start(): Promise<void>;
  /** Stops following, waits for the in-flight batch, releases the lock. */
  stop(): Promise<void>;
  status(): IndexerStatus;
}

const MODES: readonly IndexerMode[] = ['standby', 'backfill', 'live'];

export function createIndexer(deps: IndexerDeps): Indexer {
  const { config, db } = deps;
  const logger = deps.logger.child({ component: 'indexer' });
  const instanceId = randomUUID();
  const kinds = deps.kinds ?? KIND_LIST;
  const metrics: IndexerMetrics = createIndexerMetrics(deps.registry, () => void refreshGauges());
  // Retry series start at 0, so the first retry of an outage shows in rate() (and its alert) at once.
  for (const kind of kinds) for (const stage of ['list', 'batch'] as const) metrics.retries.inc({ kind: kind.key, stage }, 0);
  const state = createIndexerState(instanceId, kinds.map((k) => k.key));
  const events = createEventStore({ db });
  const source = deps.source ?? createEventSource({ transport: config.transport, url: config.suiUrl });
  const readModules = deps.readModules ?? createMoveModuleReader({ transport: config.transport, url: config.suiUrl });
  const readTip = deps.tipReader ?? createTipReader({ transport: config.transport, url: config.suiUrl });
  const pageSize = config.pageSize ?? (config.transport === 'graphql' ? 50 : 500);
  const pagesPerBatch = config.pagesPerBatch ?? (config.transport === 'graphql' ? 1 : 4);
  const statusIntervalMs = deps.statusIntervalMs ?? 2_000;
  const stopping = new AbortController();
  let loop: Promise<void> | null = null;

  const invalidate = coalesce(
    () => deps.leaderboards.invalidate(),
    (err) => logger.warn({ err }, 'leaderboard cache invalidation failed'),
  );

  function refreshGauges(): IndexerStatus {
    const s = state.snapshot();
    for (const m of MODES) metrics.mode.set({ mode: m }, s.mode === m ? 1 : 0);
    metrics.leader.set(s.leader ? 1 : 0);
    if (!s.leader) return s;
    for (const k of s.kinds) {
      if (k.lastCheckpoint !== null) metrics.positionCheckpoint.set({ kind: k.kind }, Number(k.lastCheckpoint));
      if (k.lagSeconds !== null) metrics.lagSeconds.set({ kind: k.kind }, k.lagSeconds);
      if (k.checkpointsBehind !== null) metrics.checkpointsBehind.set({ kind: k.kind }, Number(k.checkpointsBehind));
      metrics.caughtUp.set({ kind: k.kind }, k.caughtUp ? 1 : 0);
      metrics.contractRefused.set({ kind: k.kind }, k.contractDifferences.length > 0 ? 1 : 0);
    }
    return s;
  }

  async function publishStatus(): Promise<void> {
    const s = refreshGauges();
    if (!deps.statusStore || !s.leader) return;
    await deps.statusStore.set(INDEXER_STATUS_KEY, JSON.stringify(s), statusIntervalMs * 5).catch((err: unknown) => logger.warn({ err }, 'indexer status publish failed'));
  }

  /** A kind's stored cursor and position, read while the package is checked. */
  const loadStored = (kind: AnyEventKind) => Promise.all([events.loadCursor(kind.key), events.loadPosition(kind.key)]);

  /** Where each kind resumes, and the chain time of its last stored event (for lag). */
  async function restore(kind: AnyEventKind, loaded: ReturnType<typeof loadStored>): Promise<string | null> {
    const [stored, position] = await loaded;
    state.restored(kind.key, position.checkpoint, position.lastEventAtMs);
    if (stored && stored.transport !== config.transport) {
      logger.warn({ kind: kind.key, stored: stored.transport, transport: config.transport }, 'stored cursor belongs to another transport: re-reading from genesis (stored events are skipped)');
      return null;
    }
    return stored?.cursor ?? null;
  }

  async function commit(batch: Batch<KindKey, unknown>, term: AbortSignal): Promise<void> {
    // Leadership ended while this page was read: write nothing; the next leader re-reads it from the cursor.
    if (term.aborted) return;
    const end = metrics.batchDuration.startTimer({ kind: batch.kind });
    let inserted: number;
    try {
      ({ inserted } = await events.writeBatch(batch as Batch<KindKey, KindData<KindKey>>, config.transport));
    } catch (error) {
      throw classifyWriteError(error);
    }
    end();
    // Everything below happens only after the commit.
    metrics.batches.inc({ kind: batch.kind });
    if (inserted > 0) metrics.eventsIndexed.inc({ kind: batch.kind }, inserted);
    const last = batch.events.at(-1);
    state.committed(batch.kind, inserted, last && { checkpoint: last.checkpoint, timestampMs: last.timestampMs });
    if (inserted === 0) return;
    invalidate.request();
    // Replayed rows (inserted < events) are not news; neither is a backfill. Subscribers run later, off this path.
    const news = inserted === batch.events.length && state.isNews(batch.kind, last?.checkpoint ?? null);
    deps.hooks.emit('chainIndexed', { kind: batch.kind, events: batch.events, news });
  }

  async function follow(kind: AnyEventKind, startCursor: string | null, term: AbortSignal): Promise<void> {
    await followKind({
      source,
      kind: kind as EventKind<KindKey, unknown>,
      packageId: config.packageId,
      startCursor,
      pageSize,
      pagesPerBatch,
      pollIntervalMs: config.pollingIntervalMs,
      signal: term,
      onBatch: (batch) => commit(batch, term),
      onCaughtUp: () => state.reachedTip(kind.key),
      onRetry: ({ error, attempt, delayMs, stage }) => {
        metrics.retries.inc({ kind: kind.key, stage });
        logger.warn({ kind: kind.key, stage, attempt, delayMs, err: error }, 'indexer retry');
      },
    });
  }

  /**
   * The kinds whose event struct on chain is the one their decoder reads. A kind that differs is
   * not followed (it would index nothing, or fail on its first event); each difference is named.
   */
  async function checkContract(signal: AbortSignal): Promise<AnyEventKind[]> {
    const differences = await eventContractDifferences(kinds, config.packageId, readModules, signal);
    return kinds.filter((k) => {
      const found = differences.get(k.key) ?? [];
      if (found.length === 0) return true;
      state.refused(k.key, found);
      logger.error(
        { kind: k.key, moveType: k.moveType, packageId: config.packageId, differences: found },
        `indexer: ${k.key} not started: package ${config.packageId} differs from what the indexer reads: ${found.join('; ')}`,
      );
      return false;
    });
  }

  async function refreshTip(signal: AbortSignal): Promise<void> {
    state.setTip(await readTip(signal));
  }

  /** One leadership term: follows every kind until stopped, the lease is lost, or a kind fails. */
  async function lead(lease: Lease): Promise<'stopped' | 'lost' | 'failed'> {
    const term = new AbortController();
    const end = () => term.abort();
    lease.signal.addEventListener('abort', end, { once: true });
    stopping.signal.addEventListener('abort', end, { once: true });
    state.becameLeader();
    const timers: Array<ReturnType<typeof setInterval>> = [];
    let stopProgress = () => {};
    let failure: unknown = null;
    try {
      const loaded = kinds.map(loadStored);
      // A term that fails in the check leaves these unawaited: never an unhandled rejection.
      for (const l of loaded) l.catch(() => undefined);
      const following = await checkContract(term.signal);
      const cursors = await Promise.all(following.map((k) => restore(k, loaded[kinds.indexOf(k)])));
      logger.info({ instanceId, resumed: following.filter((_, i) => cursors[i] !== null).map((k) => k.key), refused: kinds.filter((k) => !following.includes(k)).map((k) => k.key) }, 'indexer: leading');
      void refreshTip(term.signal);
      timers.push(setInterval(() => void refreshTip(term.signal), deps.tipIntervalMs ?? 5_000));
      timers.push(setInterval(() => void publishStatus(), statusIntervalMs));
      timers.forEach((t) => t.unref());
      await publishStatus();
      if (deps.progressStream) stopProgress = startProgressReporter({ stream: deps.progressStream, logger, snapshot: () => state.snapshot() });
      const runs = following.map((k, i) =>
        follow(k, cursors[i], term.signal).catch((error: unknown) => {
          if (!failure) failure = error;
          logger.error({ kind: k.key, err: error }, 'indexer: follower stopped on an error');
          term.abort();
        }),
      );
      // Nothing to follow: keep the lease and the refusals on show until the term ends.
      if (runs.length === 0) runs.push(new Promise<void>((resolve) => term.signal.addEventListener('abort', () => resolve(), { once: true })));
      await Promise.all(runs);
    } catch (error) {
      failure = error;
      logger.error({ err: error }, 'indexer: leadership term failed');
    } finally {
      timers.forEach(clearInterval);
      stopProgress();
      lease.signal.removeEventListener('abort', end);
      stopping.signal.removeEventListener('abort', end);
      await invalidate.flush();
      state.lostLeadership();
      refreshGauges();
    }
    if (lease.lost) {
      logger.warn({ instanceId }, 'indexer: leader lock lost; stopped following');
      return 'lost';
    }
    await deps.statusStore?.del(INDEXER_STATUS_KEY).catch(() => undefined);
    await lease.release();
    if (failure) return 'failed';
    logger.info({ instanceId }, 'indexer: stopped leading');
    return 'stopped';
  }

  async function run(): Promise<void> {
    const retryMs = deps.leaderRetryMs ?? 3_000;
    let failures = 0;
    let announcedStandby = false;
    while (!stopping.signal.aborted) {
      let lease: Lease | null = null;
      try {
        lease = await db.tryAdvisoryLock(INDEXER_LOCK_KEY);
      } catch (err) {
        logger.warn({ err }, 'indexer: could not try the leader lock');
      }
      if (stopping.signal.aborted) {
        await lease?.release();
        break;
      }
      if (!lease) {
        if (!announcedStandby) logger.info({ instanceId, retryMs }, 'indexer: standby (another process leads)');
        announcedStandby = true;
        await sleep(retryMs, stopping.signal);
        continue;
      }
      announcedStandby = false;
      const outcome = await lead(lease);
      failures = outcome === 'failed' ? failures + 1 : 0;
      if (outcome === 'failed') await sleep(backoffDelay(failures - 1, { initialMs: 1_000, maxMs: 60_000 }), stopping.signal);
    }
  }

  return {
    async start() {
      if (loop) return;
      refreshGauges();
      logger.info({ instanceId, transport: config.transport, packageId: config.packageId, pageSize, pagesPerBatch, pollingIntervalMs: config.pollingIntervalMs }, 'indexer: starting');
      loop = run().catch((err: unknown) => logger.error({ err }, 'indexer: loop crashed'));
    },
    async stop() {
      stopping.abort();
      await loop;
    },
    status: () => state.snapshot(),
  };
}
