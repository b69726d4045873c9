import { Counter, Gauge, type Registry } from 'prom-client';
import type { Db } from '../../db/client';
import type { Logger } from '../../observability/logger';

interface Snapshot {
  failed: number;
  oldestQueuedAt: Date | null;
}

/**
 * The chain-write series of /metrics, read from the outbox at scrape time (one query per scrape),
 * so any API replica shows what the writer (in a jobs replica) did:
 * - `chain_write_failed_total`: writes that became `failed` (a definite failure, or transient
 *   ones past CHAIN.WRITE_MAX_ATTEMPTS), counted on the rows (`failures`), so it only grows;
 * - `chain_write_oldest_pending_seconds`: age of the oldest unfinished (queued or submitted)
 *   write since it entered the queue, 0 when there is none.
 */
export function registerChainWriteMetrics(deps: { registry: Registry; db: Db; logger: Logger; now: () => Date }): void {
  // The two collects of one scrape run together (the registry awaits them with Promise.all): they share one read.
  let inFlight: Promise<Snapshot | null> | null = null;
  const read = (): Promise<Snapshot | null> => {
    inFlight ??= deps.db
      .query<{ failed: string | number | null; oldest: Date | string | null }>(
        `SELECT (SELECT coalesce(sum(failures), 0) FROM chain_write) AS failed,
                (SELECT min(queued_at) FROM chain_write WHERE status IN ('queued', 'submitted')) AS oldest`,
      )
      .then(([row]) => ({ failed: Number(row?.failed ?? 0), oldestQueuedAt: row?.oldest ? new Date(row.oldest) : null }))
      .catch((err: unknown) => {
        deps.logger.warn({ err }, 'chain write metrics: outbox read failed');
        return null;
      })
      .finally(() => {
        inFlight = null;
      });
    return inFlight;
  };

  new Counter({
    name: 'chain_write_failed_total',
    help: 'Chain writes that failed: a definite failure, or transient failures past CHAIN.WRITE_MAX_ATTEMPTS (cluster-wide, from the outbox)',
    registers: [deps.registry],
    async collect() {
      const s = await read();
      if (!s) return;
      this.reset();
      this.inc(s.failed);
    },
  });
  new Gauge({
    name: 'chain_write_oldest_pending_seconds',
    help: 'Age of the oldest queued or submitted chain write since it entered the queue, 0 when none waits',
    registers: [deps.registry],
    async collect() {
      const s = await read();
      if (!s) return;
      this.set(s.oldestQueuedAt ? Math.max(0, (deps.now().getTime() - s.oldestQueuedAt.getTime()) / 1000) : 0);
    },
  });
}
