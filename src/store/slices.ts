/** Listeners (or sockets) served per turn of the event loop by a sliced delivery. */
export const DELIVERY_SLICE = 2_000;

/**
 * Runs deliveries in slices, in order: each job's items are handed to `each` at most `slice` at a
 * time, and the event loop is served between slices (setImmediate), so a broadcast to 25,000
 * subscribers is a dozen short tasks instead of one that stalls accepts, reads and timers for half
 * a second. Jobs never overlap: a job's first slice waits until every earlier job is done, so each
 * subscriber still gets events in order. A job within one slice with nothing queued runs at once.
 */
export function createSliceQueue(slice = DELIVERY_SLICE): <T>(items: readonly T[], each: (items: readonly T[]) => void) => void {
  const jobs: Array<{ items: readonly unknown[]; each: (items: readonly unknown[]) => void; at: number }> = [];
  let scheduled = false;
  const step = () => {
    scheduled = false;
    const job = jobs[0];
    if (!job) return;
    const part = job.items.slice(job.at, job.at + slice);
    job.at += slice;
    if (job.at >= job.items.length) jobs.shift();
    try {
      job.each(part);
    } finally {
      if (jobs.length && !scheduled) {
        scheduled = true;
        setImmediate(step);
      }
    }
  };
  return (items, each) => {
    if (items.length === 0) return;
    if (jobs.length === 0 && items.length <= slice) return each(items);
    jobs.push({ items, each: each as (items: readonly unknown[]) => void, at: 0 });
    if (jobs.length === 1 && !scheduled) step();
  };
}
