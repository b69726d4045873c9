// Open-loop pacing: requests start at the set rate whether or not earlier ones have answered (a
// closed loop would slow down with the server and hide its latency). In-flight requests are capped
// so an overloaded server cannot make the driver itself run out of memory; starts skipped at the
// cap are counted and reported.

export interface Pacer {
  /** Requests started per second from now on (0 pauses). */
  setRate(perSecond: number): void;
  /** Starts skipped because `maxInFlight` were still unanswered, and starts made, since the last call. */
  take(): { started: number; skipped: number };
  stop(): Promise<void>;
}

const TICK_MS = 10;

export function startPacer(fire: () => Promise<void>, opts: { maxInFlight: number }): Pacer {
  let rate = 0;
  let owed = 0;
  let last = performance.now();
  let inFlight = 0;
  let started = 0;
  let skipped = 0;
  const pending = new Set<Promise<void>>();
  const timer = setInterval(() => {
    const now = performance.now();
    owed += (rate * (now - last)) / 1000;
    last = now;
    while (owed >= 1) {
      owed--;
      if (inFlight >= opts.maxInFlight) {
        skipped++;
        continue;
      }
      inFlight++;
      started++;
      const p = fire().finally(() => {
        inFlight--;
        pending.delete(p);
      });
      pending.add(p);
    }
  }, TICK_MS);
  return {
    setRate(perSecond) {
      rate = perSecond;
      owed = 0;
    },
    take() {
      const out = { started, skipped };
      started = skipped = 0;
      return out;
    },
    async stop() {
      clearInterval(timer);
      await Promise.allSettled([...pending]);
    },
  };
}
