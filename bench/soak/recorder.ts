// Latencies and outcomes per operation, per window. An answer is `ok`, `designed` (a refusal the
// product means to give under this load: DUPLICATE_CLAIM, QUEST_INCOMPLETE), `limited` (a 429 /
// RATE_LIMITED, also designed, counted apart) or an `error` (anything else: the soak's goal is none).

export type Outcome = 'ok' | 'designed' | 'limited' | 'error';

export interface OpStats {
  count: number;
  p50Ms: number;
  p99Ms: number;
  designed: number;
  limited: number;
  errors: number;
}

interface OpWindow {
  latencies: number[];
  designed: number;
  limited: number;
  errors: number;
}

export interface Recorder {
  record(op: string, ms: number, outcome: Outcome, detail?: string): void;
  /** The window so far, per operation (sorted by name), and a fresh window from now on. */
  cut(): Map<string, OpStats>;
  /** Up to a few distinct error details seen since the start or the last `reset()`. */
  errorSamples(): string[];
  /** Forgets everything recorded so far (what came before the measured windows). */
  reset(): void;
}

const percentile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;

export function createRecorder(): Recorder {
  let current = new Map<string, OpWindow>();
  const samples = new Set<string>();
  return {
    record(op, ms, outcome, detail) {
      let w = current.get(op);
      if (!w) current.set(op, (w = { latencies: [], designed: 0, limited: 0, errors: 0 }));
      w.latencies.push(ms);
      if (outcome === 'designed') w.designed++;
      else if (outcome === 'limited') w.limited++;
      else if (outcome === 'error') {
        w.errors++;
        if (samples.size < 8 && detail) samples.add(`${op}: ${detail}`);
      }
    },
    cut() {
      const done = current;
      current = new Map();
      const out = new Map<string, OpStats>();
      for (const op of [...done.keys()].sort()) {
        const w = done.get(op)!;
        const sorted = w.latencies.sort((a, b) => a - b);
        out.set(op, { count: sorted.length, p50Ms: percentile(sorted, 0.5), p99Ms: percentile(sorted, 0.99), designed: w.designed, limited: w.limited, errors: w.errors });
      }
      return out;
    },
    errorSamples: () => [...samples],
    reset() {
      current = new Map();
      samples.clear();
    },
  };
}
