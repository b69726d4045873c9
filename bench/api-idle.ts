// DATABASE_URL=postgres://… SHARED_STORE_URL=redis://… npx tsx bench/api-idle.ts [--runs 3] [--snapshot <file>]
// (also `npm run bench -- --only idle`)
// Issue 47, goal 2: the API process's idle memory as production runs it (`node --enable-source-maps
// dist/main.js --role api`, built by scripts/build.ts into .bench-dist/idle) on PostgreSQL and Redis.
// Each run is a fresh process: start, wait for /api/health/ready, one warm-up request per operation
// (bench/idle/warmup.ts), 40 s idle, then VmRSS, VmHWM and the V8 heap from /metrics. The database is
// a fresh one beside DATABASE_URL's (migrated by a first, uncounted start; dropped at the end); the
// store keys carry a prefix of their own. --snapshot adds a run with --heapsnapshot-signal and prints
// its snapshot's breakdown by package (bench/idle/heap-report.ts); --snapshot-file keeps the snapshot.
import { spawn } from 'node:child_process';
import { copyFileSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { DIST_ENTRIES, buildIfStale } from '../scripts/build';
import { heapReport } from './idle/heap-report';
import { benchWallet, warmUp } from './idle/warmup';
import { freePort, memoryMiB } from './proc-memory';

const ROOT = path.resolve(import.meta.dirname, '..');
const OUTDIR = path.join(ROOT, '.bench-dist', 'idle');
/** Issue 47, goal 2. */
export const IDLE_GOAL_MIB = 150;
/**
 * Idle time before the reading: the process's own idle collection (src/runtime/idle-gc.ts) runs within
 * 20 s of the last request. (Before it, V8's memory reducer ran at 20–30 s or not at all: 25–35 MiB apart.)
 */
const IDLE_MS = 40_000;

interface IdleSample {
  rssMiB: number;
  peakMiB: number;
  heapUsedMiB: number;
  externalMiB: number;
  statuses: Record<string, number>;
}


const metric = (text: string, name: string): number => Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1] ?? NaN) / 2 ** 20;
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)]!;

async function withDatabase<T>(databaseUrl: string, use: (url: string) => Promise<T>): Promise<T> {
  const name = `platform_bench_idle_${process.pid}`;
  const admin = new pg.Client({ connectionString: databaseUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  try {
    const url = new URL(databaseUrl);
    url.pathname = `/${name}`;
    return await use(url.toString());
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
}

interface StartOptions {
  databaseUrl: string;
  storeUrl: string;
  warm: boolean;
  /** Node flags before the entry (the snapshot run's --heapsnapshot-signal). */
  nodeFlags?: string[];
  cwd?: string;
  /** Runs while the process idles after the warm-up, before it is stopped. */
  atIdle?: (pid: number, url: string) => Promise<void>;
}

async function startOnce(opts: StartOptions): Promise<IdleSample> {
  const port = await freePort();
  const keypair = benchWallet();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'production',
    DATABASE_URL: opts.databaseUrl,
    SHARED_STORE_URL: opts.storeUrl,
    SHARED_STORE_KEY_PREFIX: `bench-idle-${process.pid}:`,
    JWT_SECRET: 'bench-jwt-secret-'.padEnd(40, 'x'),
    PAYLOAD_SECRET: 'bench-payload-secret-'.padEnd(40, 'x'),
    OPERATOR_WALLETS: keypair.toSuiAddress(),
    'GENERAL.PORT': String(port),
    'HTTP.RATE_LIMIT_MAX': '1000000',
    LOG_LEVEL: 'error',
    LOG_FORMAT: 'json',
  };
  for (const key of ['CACHE_STORE', 'REDIS_URL', 'BLOG_DATABASE_URL', 'OTEL_EXPORTER_OTLP_ENDPOINT', 'DATABASE_DIRECT_URL']) delete env[key];
  const child = spawn(process.execPath, [...(opts.nodeFlags ?? []), '--enable-source-maps', path.join(OUTDIR, 'main.js'), '--role', 'api'], {
    cwd: opts.cwd ?? ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out += c));
  child.stderr.on('data', (c: Buffer) => (out += c));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const url = `http://127.0.0.1:${port}`;
  try {
    const started = Date.now();
    for (;;) {
      if (child.exitCode !== null) throw new Error(`the API exited ${child.exitCode}:\n${out}`);
      if (await fetch(`${url}/api/health/ready`).then((r) => r.status === 200, () => false)) break;
      if (Date.now() - started > 120_000) throw new Error(`the API was not ready within 120 s:\n${out}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    const statuses = opts.warm ? await warmUp(url, keypair) : {};
    await new Promise((r) => setTimeout(r, IDLE_MS));
    const pid = child.pid!;
    const sample = { rssMiB: memoryMiB(pid, 'VmRSS'), peakMiB: memoryMiB(pid, 'VmHWM') };
    // Read after VmRSS: the scrape itself allocates.
    const metrics = await (await fetch(`${url}/metrics`)).text();
    await opts.atIdle?.(pid, url);
    return { ...sample, heapUsedMiB: metric(metrics, 'nodejs_heap_size_used_bytes'), externalMiB: metric(metrics, 'nodejs_external_memory_bytes'), statuses };
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
}

/** Takes a heap snapshot of one more warmed, idle process and returns its breakdown by package. */
async function snapshotRun(base: Omit<StartOptions, 'warm'>, file: string | undefined): Promise<string[]> {
  const dir = mkdtempSync(path.join(tmpdir(), 'api-idle-snapshot-'));
  try {
    await startOnce({
      ...base,
      warm: true,
      cwd: dir,
      nodeFlags: ['--heapsnapshot-signal=SIGUSR2'],
      atIdle: async (pid) => {
        process.kill(pid, 'SIGUSR2');
        // The process writes the file while it is paused; done once its size stops changing.
        let last = -1;
        for (;;) {
          await new Promise((r) => setTimeout(r, 1000));
          const found = readdirSync(dir).find((f) => f.endsWith('.heapsnapshot'));
          const size = found ? statSync(path.join(dir, found)).size : -1;
          if (size > 0 && size === last) break;
          last = size;
        }
      },
    });
    const found = path.join(dir, readdirSync(dir).find((f) => f.endsWith('.heapsnapshot'))!);
    if (file) copyFileSync(found, file);
    return heapReport(found);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function benchIdle(opts: { databaseUrl: string; storeUrl: string; runs: number; snapshot?: boolean; snapshotFile?: string }): Promise<string[]> {
  await buildIfStale({ outdir: OUTDIR, entries: DIST_ENTRIES });
  return withDatabase(opts.databaseUrl, async (databaseUrl) => {
    const base = { databaseUrl, storeUrl: opts.storeUrl };
    await startOnce({ ...base, warm: false }); // migrates the fresh database
    const lines = [`idle API (issue 47 goal 2): dist/main.js --role api on PostgreSQL + Redis, one warm-up request per operation, ${IDLE_MS / 1000} s idle; load average ${loadavg().map((l) => l.toFixed(1)).join(' ')}`];
    const samples: IdleSample[] = [];
    for (let i = 0; i < opts.runs; i++) {
      const s = await startOnce({ ...base, warm: true });
      samples.push(s);
      const answered = Object.entries(s.statuses).sort().map(([k, n]) => `${k}×${n}`).join(' ');
      lines.push(`  start ${i + 1}: VmRSS ${s.rssMiB.toFixed(0)} MiB, peak ${s.peakMiB.toFixed(0)} MiB, V8 heap used ${s.heapUsedMiB.toFixed(0)} MiB, external ${s.externalMiB.toFixed(0)} MiB; warm-up answers ${answered}`);
    }
    const rss = median(samples.map((s) => s.rssMiB));
    lines.push(`  median of ${opts.runs}: VmRSS ${rss.toFixed(0)} MiB (${samples.map((s) => s.rssMiB.toFixed(0)).join(', ')}), peak ${median(samples.map((s) => s.peakMiB)).toFixed(0)} MiB`);
    lines.push(`  goal idle RSS ≤ ${IDLE_GOAL_MIB} MiB: ${rss <= IDLE_GOAL_MIB ? 'MET' : 'MISSED'} (${(rss / IDLE_GOAL_MIB).toFixed(2)}× the goal)`);
    if (opts.snapshot) lines.push('', ...(await snapshotRun(base, opts.snapshotFile)));
    return lines;
  });
}

if (import.meta.filename === process.argv[1]) {
  const { values } = parseArgs({ options: { runs: { type: 'string', default: '3' }, snapshot: { type: 'boolean', default: false }, 'snapshot-file': { type: 'string' } } });
  const databaseUrl = process.env.DATABASE_URL;
  const storeUrl = process.env.SHARED_STORE_URL;
  if (!databaseUrl || !storeUrl) throw new Error('bench/api-idle.ts needs DATABASE_URL (PostgreSQL) and SHARED_STORE_URL (Redis)');
  const lines = await benchIdle({ databaseUrl, storeUrl, runs: Number(values.runs), snapshot: values.snapshot, snapshotFile: values['snapshot-file'] });
  process.stdout.write(`${lines.join('\n')}\n`);
}
