/**
 * `count` calls of `send` spread evenly over `ms`, all awaited together: a load generator's pacing (it
 * waits on its own schedule, never on the system under test).
 */
export async function paced<T>(count: number, ms: number, send: (i: number) => Promise<T>): Promise<T[]> {
  const started = Date.now();
  const pending: Promise<T>[] = [];
  for (let i = 0; i < count; i++) {
    const wait = started + (i * ms) / count - Date.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    pending.push(send(i));
  }
  return Promise.all(pending);
}
