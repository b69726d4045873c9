/** Rows one purge statement deletes at most: short transactions, so a large backlog never holds locks for long. */
export const PURGE_BATCH = 5000;

/**
 * Runs `deleteBatch` (a DELETE of at most `PURGE_BATCH` rows, returning its count) until a batch
 * comes back short; returns the rows deleted in all.
 */
export async function purgeInBatches(deleteBatch: (limit: number) => Promise<number>, signal?: AbortSignal): Promise<number> {
  let total = 0;
  for (;;) {
    signal?.throwIfAborted();
    const deleted = await deleteBatch(PURGE_BATCH);
    total += deleted;
    if (deleted < PURGE_BATCH) return total;
  }
}
