// What the soak reads about the system at the end of each window: per process its RSS (/proc),
// V8 heap used, event-loop lag p99 and open file descriptors (its Prometheus metrics: prom-client's
// default metrics, whose lag histogram is reset at every scrape, so the p99 covers the window),
// PostgreSQL's connections to the soak's database and Redis' used memory.
import { readdirSync, readFileSync } from 'node:fs';
import pg from 'pg';
import type { Redis } from 'ioredis';
import { memoryMiB } from '../proc-memory';
import type { SoakProcess } from './processes';

export interface ProcessSample {
  name: string;
  /** The median of its RSS read every 5 s since the last sample (a GC's saw-tooth is not a trend). */
  rssMiB: number;
  heapUsedMiB: number;
  /** V8's heap as reserved from the system (used + free pages it keeps). */
  heapTotalMiB: number;
  /** Memory outside V8's heap that JavaScript objects hold (Buffers, WebAssembly memories). */
  externalMiB: number;
  lagP99Ms: number;
  openFds: number;
}

export interface SystemSample {
  processes: ProcessSample[];
  pgConnections: number;
  redisUsedMiB: number;
  /** The machine's 1-minute load average. */
  load1: number;
  /** Events the indexer has committed so far (its cursors' counts). */
  eventsIndexed: number;
}

const MiB = 2 ** 20;
const RSS_EVERY_MS = 5000;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

/** A process's VmRSS, or NaN once it has exited. */
function vmRssMiB(pid: number): number {
  try {
    return memoryMiB(pid, 'VmRSS');
  } catch {
    return NaN;
  }
}

/** Every process started under `pid`, at any depth. */
function descendantPids(pid: number): number[] {
  let children: number[] = [];
  try {
    for (const task of readdirSync(`/proc/${pid}/task`)) {
      children.push(...readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').split(' ').filter(Boolean).map(Number));
    }
  } catch {
    children = [];
  }
  return children.flatMap((child) => [child, ...descendantPids(child)]);
}

const metric = (text: string, name: string): number => Number(new RegExp(`^${name}(?:\\{[^}]*\\})? (\\S+)$`, 'm').exec(text)?.[1] ?? NaN);

const processRssMiB = (p: SoakProcess): number => (p.descendants ? descendantPids(p.pid).reduce((sum, pid) => sum + (vmRssMiB(pid) || 0), 0) : vmRssMiB(p.pid));

async function sampleProcess(p: SoakProcess, rssReadings: number[]): Promise<ProcessSample> {
  const text = p.metricsUrl ? await fetch(p.metricsUrl).then((r) => r.text(), () => '') : '';
  return {
    name: p.name,
    rssMiB: median([...rssReadings, processRssMiB(p)]),
    heapUsedMiB: metric(text, 'nodejs_heap_size_used_bytes') / MiB,
    heapTotalMiB: metric(text, 'nodejs_heap_size_total_bytes') / MiB,
    externalMiB: metric(text, 'nodejs_external_memory_bytes') / MiB,
    lagP99Ms: metric(text, 'nodejs_eventloop_lag_p99_seconds') * 1000,
    openFds: metric(text, 'process_open_fds'),
  };
}

export interface Prober {
  sample(): Promise<SystemSample>;
  close(): Promise<void>;
}

export async function createProber(opts: { processes: SoakProcess[]; serverUrl: string; databaseName: string; databaseUrl: string; redis: Redis }): Promise<Prober> {
  const admin = new pg.Client({ connectionString: opts.serverUrl });
  await admin.connect();
  const own = new pg.Client({ connectionString: opts.databaseUrl });
  await own.connect();
  let readings = opts.processes.map((): number[] => []);
  const reader = setInterval(() => opts.processes.forEach((p, i) => readings[i]!.push(processRssMiB(p))), RSS_EVERY_MS);
  return {
    async sample() {
      const since = readings;
      readings = opts.processes.map((): number[] => []);
      const [processes, connections, indexed, info] = await Promise.all([
        Promise.all(opts.processes.map((p, i) => sampleProcess(p, since[i]!))),
        admin.query<{ n: number }>('SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1', [opts.databaseName]),
        own.query<{ n: string }>('SELECT coalesce(sum(events_indexed), 0)::text AS n FROM "cursor"'),
        opts.redis.info('memory'),
      ]);
      return {
        processes,
        // less the prober's own connection
        pgConnections: connections.rows[0]!.n - 1,
        redisUsedMiB: Number(/^used_memory:(\d+)/m.exec(info)?.[1] ?? NaN) / MiB,
        load1: Number(readFileSync('/proc/loadavg', 'utf8').split(' ')[0]),
        eventsIndexed: Number(indexed.rows[0]!.n),
      };
    },
    async close() {
      clearInterval(reader);
      await Promise.all([admin.end(), own.end()]);
    },
  };
}
