// Giveaway auto-settlement: giveaways (giveaway_created_event) whose end plus the grace period has
// passed are settled on chain through the chain writer, one write per giveaway (idempotency key
// `giveaway.settle:<objectId>`), so a crash or a second run never settles one twice.
import { isValidSuiObjectId } from '@mysten/sui/utils';
import { objectInput } from '../../providers/sui-write-inputs';
import type { Db } from '../../db/client';
import { CALL_TARGETS } from '../../chain-events/contract';
import { ChainWriteRejectedError, ChainWriteTimeoutError, moveCallTarget, type ChainWriterService, type ChainWriteRecord } from '../chain-writes';

export const GIVEAWAY_SETTLE_KIND = 'giveaway.settle';
export const giveawaySettleKey = (giveawayId: string) => `${GIVEAWAY_SETTLE_KIND}:${giveawayId}`;

export interface GiveawaySettlementResult {
  batches: number;
  enqueued: number;
  settled: number;
  failed: number;
  /** Writes still pending when the run ended (the writer finishes them; they are never enqueued twice). */
  unfinished: number;
}

export interface GiveawayService {
  /** Enqueues due giveaways in batches and waits for each batch's outcomes before the next. */
  settleDue(opts: { now?: Date; signal?: AbortSignal }): Promise<GiveawaySettlementResult>;
}

export interface GiveawayServiceDeps {
  db: Db;
  chainWriter: ChainWriterService;
  graceMs: number;
  batchSize: number;
  /** How long one batch may wait for its outcomes (default 5 minutes). */
  batchTimeoutMs?: number;
}

/** `{package}::giveaway::settle(giveaway: &mut Giveaway, clock: &Clock)`: the spec names no function, so this is our documented target (src/chain-events/contract.ts). */
export function registerGiveawaySettle(chainWriter: ChainWriterService): void {
  const call = CALL_TARGETS[GIVEAWAY_SETTLE_KIND];
  chainWriter.register(
    GIVEAWAY_SETTLE_KIND,
    (tx, payload, { packageId }) => {
      const id = payload.giveawayId;
      if (typeof id !== 'string' || !isValidSuiObjectId(id)) throw new ChainWriteRejectedError(`giveaway.settle: invalid giveawayId ${JSON.stringify(id)}`);
      tx.moveCall({ target: moveCallTarget(packageId, call), arguments: [tx.object(objectInput(id, true)), tx.object.clock()] });
    },
    { call, packageId: chainWriter.packageId },
  );
}

export function createGiveawayService(deps: GiveawayServiceDeps): GiveawayService {
  const batchTimeoutMs = deps.batchTimeoutMs ?? 300_000;

  /** Ended past the grace period and never handed to the writer, oldest end first. */
  const due = (cutoff: Date, limit: number) =>
    deps.db.query<{ giveaway_id: string }>(
      `SELECT g.giveaway_id FROM giveaway_created_event g
        WHERE g.ends_at <= $1
          AND NOT EXISTS (SELECT 1 FROM chain_write w WHERE w.idempotency_key = $3 || g.giveaway_id)
        GROUP BY g.giveaway_id ORDER BY min(g.ends_at), g.giveaway_id LIMIT $2`,
      [cutoff, limit, `${GIVEAWAY_SETTLE_KIND}:`],
    );

  async function outcome(record: ChainWriteRecord, signal?: AbortSignal): Promise<ChainWriteRecord> {
    try {
      return await deps.chainWriter.awaitOutcome(record.id, { signal, timeoutMs: batchTimeoutMs });
    } catch (err) {
      if (err instanceof ChainWriteTimeoutError) return err.record;
      throw err;
    }
  }

  return {
    async settleDue({ now = new Date(), signal } = {}) {
      const result: GiveawaySettlementResult = { batches: 0, enqueued: 0, settled: 0, failed: 0, unfinished: 0 };
      const cutoff = new Date(now.getTime() - deps.graceMs);
      while (!signal?.aborted) {
        const rows = await due(cutoff, deps.batchSize);
        if (!rows.length) break;
        result.batches++;
        const records = await Promise.all(rows.map((r) => deps.chainWriter.enqueue({ kind: GIVEAWAY_SETTLE_KIND, key: giveawaySettleKey(r.giveaway_id), payload: { giveawayId: r.giveaway_id } })));
        result.enqueued += records.length;
        for (const done of await Promise.all(records.map((r) => outcome(r, signal)))) {
          if (done.status === 'confirmed') result.settled++;
          else if (done.status === 'failed' || done.status === 'cancelled') result.failed++;
          else result.unfinished++;
        }
        if (result.unfinished) break;
      }
      return result;
    },
  };
}
