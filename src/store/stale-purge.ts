/** How many writes pass between two sweeps of a cache's expired entries. */
const WRITES_PER_SWEEP = 1000;

/**
 * Call after each write to an LRU whose entries expire: every 1,000th write sweeps the expired ones
 * out. lru-cache drops an expired entry only when it is read or evicted, so a cache of short-lived
 * answers keyed by data generations otherwise fills to its size bound with dead entries and holds
 * that memory for good (issue 47's soak: 16 + 32 MiB of answers a few seconds old). A sweep walks
 * the cache once, so its cost per write stays a few entries; no timer, so nothing to stop.
 */
export function staleSweeper(cache: { purgeStale(): boolean }, writesPerSweep = WRITES_PER_SWEEP): () => void {
  let writes = 0;
  return () => {
    if (++writes < writesPerSweep) return;
    writes = 0;
    cache.purgeStale();
  };
}
