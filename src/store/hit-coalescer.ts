import type { HitResult } from './types';

type Send = (key: string, windowMs: number, cost: number) => Promise<HitResult>;

interface Waiting {
  cost: number;
  resolve(result: HitResult): void;
  reject(err: unknown): void;
}

interface Lane {
  busy: boolean;
  waiting: Waiting[];
}

/**
 * Charges to one counter while a charge to it is in flight wait and go together as one INCRBY of
 * their sum, so a busy key costs one round trip per round trip instead of one per request. Each
 * caller still gets its own exact count (the batch's counts in arrival order, as if sent one by
 * one); an idle key's hit is sent at once. Hand-written: no maintained limiter batches a
 * fixed-window counter this way while keeping per-request counts exact.
 */
export function createHitCoalescer(send: Send): Send {
  const lanes = new Map<string, Lane>();

  function flush(id: string, key: string, windowMs: number, lane: Lane): void {
    const batch = lane.waiting.splice(0);
    if (batch.length === 0) {
      lanes.delete(id);
      return;
    }
    lane.busy = true;
    const total = batch.reduce((sum, w) => sum + w.cost, 0);
    send(key, windowMs, total).then(
      (result) => {
        let count = result.count - total;
        for (const w of batch) {
          count += w.cost;
          w.resolve({ ...result, count });
        }
      },
      (err: unknown) => {
        for (const w of batch) w.reject(err);
      },
    ).finally(() => {
      lane.busy = false;
      flush(id, key, windowMs, lane);
    });
  }

  return (key, windowMs, cost) =>
    new Promise<HitResult>((resolve, reject) => {
      const id = `${windowMs}\u0000${key}`;
      let lane = lanes.get(id);
      if (!lane) lanes.set(id, (lane = { busy: false, waiting: [] }));
      lane.waiting.push({ cost, resolve, reject });
      if (!lane.busy) flush(id, key, windowMs, lane);
    });
}
