// What the soak reads about the system: every 5 s per process its RSS (/proc) and, from its
// Prometheus metrics, its young generation and event-loop lag (prom-client resets the lag histogram
// at every scrape, so each reading's p99 covers those 5 s); at the end of each window its V8 heap,
// external memory and open file descriptors, PostgreSQL's connections to the soak's database and
// Redis' used memory.
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
  /** V8's young generation as reserved at the sample: V8 grows and shrinks it with the allocation rate, 1–32 MiB by default. */
  youngMiB: number;
  /**
   * The median of RSS less the young generation, both read at the same instant every 5 s (NaN
   * without metrics): memory a leak would grow, without the young generation's resizing, which
   * moves a process's RSS by up to 31 MiB either way within a minute.
   */
  rssLessYoungMiB: number;
  /** Memory outside V8's heap that JavaScript objects hold (Buffers, WebAssembly memories). */
  externalMiB: number;
  /** The highest of the 5-s readings' event-loop lag p99 in the window. */
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
const READ_EVERY_MS = 5000;

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

const metric = (text: string, name: string, labels = '(?:\\{[^}]*\\})?'): number => Number(new RegExp(`^${name}${labels} (\\S+)$`, 'm').exec(text)?.[1] ?? NaN);

const processRssMiB = (p: SoakProcess): number => (p.descendants ? descendantPids(p.pid).reduce((sum, pid) => sum + (vmRssMiB(pid) || 0), 0) : vmRssMiB(p.pid));

const scrape = (p: SoakProcess): Promise<string> => (p.metricsUrl ? fetch(p.metricsUrl).then((r) => r.text(), () => '') : Promise.resolve(''));
const youngMiB = (text: string): number => metric(text, 'nodejs_heap_space_size_total_bytes', '\\{space="new"\\}') / MiB;

/** One reading of a process's RSS and, from its metrics scraped just before, its young generation and loop lag since the last scrape. */
interface Reading {
  rssMiB: number;
  youngMiB: number;
  lagP99Ms: number;
}

async function read(p: SoakProcess, text?: string): Promise<Reading> {
  const metrics = text ?? (await scrape(p));
  return { rssMiB: processRssMiB(p), youngMiB: youngMiB(metrics), lagP99Ms: metric(metrics, 'nodejs_eventloop_lag_p99_seconds') * 1000 };
}

async function sampleProcess(p: SoakProcess, readings: Reading[]): Promise<ProcessSample> {
  const text = await scrape(p);
  const now = await read(p, text);
  const all = [...readings, now];
  const lags = all.map((r) => r.lagP99Ms).filter(Number.isFinite);
  const lessYoung = all.filter((r) => Number.isFinite(r.youngMiB)).map((r) => r.rssMiB - r.youngMiB);
  return {
    name: p.name,
    rssMiB: median(all.map((r) => r.rssMiB)),
    rssLessYoungMiB: lessYoung.length ? median(lessYoung) : NaN,
    heapUsedMiB: metric(text, 'nodejs_heap_size_used_bytes') / MiB,
    heapTotalMiB: metric(text, 'nodejs_heap_size_total_bytes') / MiB,
    youngMiB: now.youngMiB,
    externalMiB: metric(text, 'nodejs_external_memory_bytes') / MiB,
    lagP99Ms: lags.length ? Math.max(...lags) : NaN,
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
  // A connection the server ends (the scratch database dropped under it when a signal stops the
  // bench) fails the next sample's query; as an event it would end the process before its cleanup.
  for (const client of [admin, own]) client.on('error', () => {});
  let readings = opts.processes.map((): Reading[] => []);
  const reader = setInterval(() => opts.processes.forEach((p, i) => void read(p).then((r) => readings[i]!.push(r))), READ_EVERY_MS);
  return {
    async sample() {
      const since = readings;
      readings = opts.processes.map((): Reading[] => []);
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
