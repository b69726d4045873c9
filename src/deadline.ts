/**
 * `work`'s outcome, or a rejection with `late()` once `ms` have passed; the timer is cleared either
 * way, and whatever `work` does after the deadline is dropped (the work itself is not cancelled).
 */
export function withDeadline<T>(work: Promise<T>, ms: number, late: () => Error): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(late()), ms);
    timer.unref();
  });
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}
