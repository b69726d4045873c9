import { Pool } from 'undici';

export interface LoadResult {
  requests: number;
  errors: number;
  rps: number;
  p50Ms: number;
  p99Ms: number;
}

/** Closed-loop load: `connections` workers each send the next request when the last answers. */
export async function runLoad(opts: { url: string; path: string; method?: 'GET' | 'POST'; body?: string; headers?: Record<string, string>; connections: number; durationMs: number; warmupMs: number }): Promise<LoadResult> {
  const origin = new URL(opts.url).origin;
  const pool = new Pool(origin, { connections: opts.connections, pipelining: 1 });
  const latencies: number[] = [];
  let errors = 0;
  let measuring = false;
  const deadline = Date.now() + opts.warmupMs + opts.durationMs;
  setTimeout(() => (measuring = true), opts.warmupMs);
  const worker = async () => {
    while (Date.now() < deadline) {
      const start = performance.now();
      try {
        const res = await pool.request({ origin, path: opts.path, method: opts.method ?? 'GET', body: opts.body, headers: opts.headers });
        await res.body.text();
        if (res.statusCode !== 200) errors++;
      } catch {
        errors++;
      }
      if (measuring) latencies.push(performance.now() - start);
    }
  };
  await Promise.all(Array.from({ length: opts.connections }, worker));
  await pool.close();
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
  return { requests: latencies.length, errors, rps: latencies.length / (opts.durationMs / 1000), p50Ms: at(0.5), p99Ms: at(0.99) };
}
