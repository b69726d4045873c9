/**
 * `work`'s outcome, or a rejection with `late()` once `ms` have passed; the timer is cleared either
 * way, and whatever `work` does after the deadline is dropped (the work itself is not cancelled).
 *
 * The verdict waits one turn of the event loop after the timer fires: when this process itself was
 * blocked past the deadline (a long synchronous stretch under load), the answer that arrived
 * meanwhile sits unread in a socket, and the timers run before the loop polls for I/O. Judged at
 * once, a busy process would blame a peer that answered in time (the shared store's failover took
 * such a stall for a Redis outage and served one replica's broadcasts from memory).
 */
export function withDeadline<T>(work: Promise<T>, ms: number, late: () => Error): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  let verdict: NodeJS.Immediate | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      verdict = setImmediate(() => reject(late()));
    }, ms);
    timer.unref();
  });
  return Promise.race([work, deadline]).finally(() => {
    clearTimeout(timer);
    if (verdict) clearImmediate(verdict);
  });
}
