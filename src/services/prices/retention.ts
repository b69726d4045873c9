import type { Db } from '../../db/client';
import { purgeInBatches } from '../../db/purge';
import type { Logger } from '../../observability/logger';

export interface PriceRetention {
  /** Deletes snapshots older than PRICES.SNAPSHOT_RETENTION_DAYS, except each asset's newest; returns how many. */
  purge(signal?: AbortSignal): Promise<{ snapshots: number; cutoff: string }>;
}

export function createPriceRetention(deps: { db: Db; logger: Logger; retentionDays: number; now?: () => Date }): PriceRetention {
  const now = deps.now ?? (() => new Date());
  return {
    async purge(signal) {
      const cutoff = new Date(now().getTime() - deps.retentionDays * 86_400_000);
      // Each asset's newest snapshot stays whatever its age: current() falls back to it when the shared store has no price.
      const snapshots = await purgeInBatches(
        (limit) => deps.db.prisma.$executeRaw`
          DELETE FROM price_snapshot WHERE id IN (
            SELECT s.id FROM price_snapshot s
            WHERE s.fetched_at < ${cutoff}
              AND s.id <> (SELECT n.id FROM price_snapshot n WHERE n.asset = s.asset ORDER BY n.fetched_at DESC, n.id DESC LIMIT 1)
            LIMIT ${limit})`,
        signal,
      );
      if (snapshots > 0) deps.logger.info({ snapshots, cutoff }, 'price snapshots past their retention purged');
      return { snapshots, cutoff: cutoff.toISOString() };
    },
  };
}
