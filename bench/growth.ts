// Growth table: one wallet's rank (leaderboardRank) and the top 100 (leaderboard) of BET boards of
// 10,000, 100,000 and 1,000,000 rows (seeded by bench/seed.ts under their own coin types), through
// our API with its caches off (response cache and leaderboard cache: every request reaches PostgreSQL), at 50 connections.
// Beside each: the service's own statements under EXPLAIN ANALYZE (their scans and execution
// time) and the service alone at one connection (the database's share, without HTTP).
// The goal: latency at 1,000,000 rows within 1.5x of 10,000.
import pg from 'pg';
import pino from 'pino';
import { createDb, type Db } from '../src/db/client';
import { createLeaderboardService, type LeaderboardService } from '../src/services/leaderboards';
import { createSharedStore } from '../src/store';
import { runLoad, type LoadResult } from './load';
import { startChild, stopChild } from './reference/run';
import { growthCoin } from './seed';

export const GROWTH_SIZES = [10_000, 100_000, 1_000_000];

export interface GrowthOptions {
  benchDatabaseUrl: string;
  sizes: number[];
  connections: number;
  durationMs: number;
  warmupMs: number;
}

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  Plans?: PlanNode[];
}

/** Runs `fn` against a Db whose statements are EXPLAIN ANALYZEd instead: scans and execution time. */
async function explain(db: Db, fn: (db: Db) => Promise<unknown>): Promise<string> {
  const plans: Array<{ Plan: PlanNode; 'Execution Time': number }> = [];
  const explaining: Db = {
    ...db,
    query: async <T>(sql: string, params?: unknown[]) => {
      const [row] = await db.query<{ 'QUERY PLAN': typeof plans }>(`EXPLAIN (ANALYZE, FORMAT JSON) ${sql}`, params);
      plans.push(...row!['QUERY PLAN']);
      return [] as T[];
    },
  };
  await fn(explaining).catch(() => undefined);
  const scans: string[] = [];
  const walk = (n: PlanNode) => {
    if (/Scan/.test(n['Node Type'])) scans.push(`${n['Node Type']}${n['Index Name'] ? ` (${n['Index Name']})` : n['Relation Name'] ? ` on ${n['Relation Name']}` : ''}`);
    n.Plans?.forEach(walk);
  };
  plans.forEach((p) => walk(p.Plan));
  const seq = scans.some((x) => x.startsWith('Seq Scan')) ? '  SEQ SCAN' : '';
  return `${plans.map((p) => p['Execution Time'].toFixed(2)).join('+')} ms: ${[...new Set(scans)].join(', ')}${seq}`;
}

/** Closed loop calling `fn` (one connection: latency without queueing). */
async function loop(fn: () => Promise<unknown>, durationMs: number): Promise<LoadResult> {
  const latencies: number[] = [];
  let errors = 0;
  const deadline = Date.now() + durationMs;
  while (Date.now() < deadline) {
    const start = performance.now();
    await fn().catch(() => errors++);
    latencies.push(performance.now() - start);
  }
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
  return { requests: latencies.length, errors, rps: latencies.length / (durationMs / 1000), p50Ms: at(0.5), p99Ms: at(0.99) };
}

async function playerAt(pool: pg.Pool, rows: number, rank: number): Promise<string> {
  const { rows: r } = await pool.query<{ player: string }>('SELECT player FROM bet_leaderboard WHERE coin_type = $1 ORDER BY total_wagered DESC, player ASC OFFSET $2 LIMIT 1', [growthCoin(rows), rank - 1]);
  return r[0]!.player;
}

const gql = (query: string) => JSON.stringify({ query });

export async function benchGrowth(opts: GrowthOptions): Promise<string[]> {
  const logger = pino({ level: 'warn' });
  const pool = new pg.Pool({ connectionString: opts.benchDatabaseUrl, max: 1 });
  const db = await createDb({ databaseUrl: opts.benchDatabaseUrl, dataDir: '/nonexistent', logger });
  const store = await createSharedStore({ cacheStore: 'memory', logger });
  const service: LeaderboardService = await createLeaderboardService({ db, store, ttlMs: 0 });
  const api = await startChild('bench/reference/servers/api.ts', ['--cache-ttl=0', '--response-cache=off'], { ...process.env, BENCH_DATABASE_URL: opts.benchDatabaseUrl });
  const load = (body: string) =>
    runLoad({ url: api.url, path: '/graphql', method: 'POST', body, headers: { 'content-type': 'application/json' }, connections: opts.connections, durationMs: opts.durationMs, warmupMs: opts.warmupMs });
  const rows: Array<{ size: number; rank: LoadResult; top: LoadResult; rankDb: LoadResult; topDb: LoadResult; explainRank: string; explainTop: string }> = [];
  try {
    // One warm-up of both reads first, so the smallest board (measured first) is not the one paying for a cold process.
    const warmCoin = growthCoin(opts.sizes[0]);
    for (const body of [gql(`{ leaderboard(board: BET, coinType: "${warmCoin}", limit: 100) { rank player } }`), gql(`{ leaderboardRank(board: BET, coinType: "${warmCoin}", player: "${await playerAt(pool, opts.sizes[0], 1)}") { rank } }`)]) {
      await runLoad({ url: api.url, path: '/graphql', method: 'POST', body, headers: { 'content-type': 'application/json' }, connections: opts.connections, durationMs: 1, warmupMs: opts.warmupMs });
    }
    for (const size of opts.sizes) {
      const coinType = growthCoin(size);
      const rank = Math.floor(size / 2);
      const player = await playerAt(pool, size, rank);
      const rankBody = gql(`{ leaderboardRank(board: BET, coinType: "${coinType}", player: "${player}") { rank player score count } }`);
      const topBody = gql(`{ leaderboard(board: BET, coinType: "${coinType}", limit: 100) { rank player score count } }`);
      const check = (await (await fetch(`${api.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: rankBody })).json()) as { data?: { leaderboardRank?: { rank: number } } };
      if (check.data?.leaderboardRank?.rank !== rank) throw new Error(`rank check failed on ${size} rows: expected ${rank}, got ${JSON.stringify(check)}`);
      const dbMs = Math.min(opts.durationMs, 2000);
      rows.push({
        size,
        rank: await load(rankBody),
        top: await load(topBody),
        rankDb: await loop(() => service.rankOf({ board: 'bet', coinType, player }), dbMs),
        topDb: await loop(() => service.top({ board: 'bet', coinType, limit: 100 }), dbMs),
        explainRank: await explain(db, (d) => createLeaderboardService({ db: d, store, ttlMs: 0 }).then((s) => s.rankOf({ board: 'bet', coinType, player }))),
        explainTop: await explain(db, (d) => createLeaderboardService({ db: d, store, ttlMs: 0 }).then((s) => s.top({ board: 'bet', coinType, limit: 100 }))),
      });
    }
  } finally {
    await stopChild(api.child);
    await pool.end();
    await store.close();
    await db.close();
  }
  const f = (n: number, w: number, d = 2) => n.toFixed(d).padStart(w);
  const lines = [
    `growth: BET board, our API with its caches off, ${opts.connections} connections, ${opts.durationMs} ms per cell; "db" = the service alone, 1 connection`,
    `${'rows'.padStart(10)}  ${'rank req/s'.padStart(10)} ${'p50'.padStart(7)} ${'p99'.padStart(7)} ${'db p50'.padStart(7)}   ${'top100 req/s'.padStart(12)} ${'p50'.padStart(7)} ${'p99'.padStart(7)} ${'db p50'.padStart(7)}  errors`,
  ];
  for (const r of rows) {
    lines.push(
      `${r.size.toLocaleString('en').padStart(10)}  ${f(r.rank.rps, 10, 0)} ${f(r.rank.p50Ms, 7)} ${f(r.rank.p99Ms, 7)} ${f(r.rankDb.p50Ms, 7)}   ${f(r.top.rps, 12, 0)} ${f(r.top.p50Ms, 7)} ${f(r.top.p99Ms, 7)} ${f(r.topDb.p50Ms, 7)}  ${r.rank.errors + r.top.errors}`,
    );
  }
  const first = rows[0];
  const last = rows[rows.length - 1];
  if (first && last && first !== last) {
    const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}x${a / b <= 1.5 ? '' : ' (over 1.5x)'}`;
    const span = `${last.size.toLocaleString('en')} ÷ ${first.size.toLocaleString('en')}`;
    lines.push(`  ${span}: rank p50 ${ratio(last.rank.p50Ms, first.rank.p50Ms)}, p99 ${ratio(last.rank.p99Ms, first.rank.p99Ms)}, db p50 ${ratio(last.rankDb.p50Ms, first.rankDb.p50Ms)}`);
    lines.push(`  ${span}: top100 p50 ${ratio(last.top.p50Ms, first.top.p50Ms)}, p99 ${ratio(last.top.p99Ms, first.top.p99Ms)}, db p50 ${ratio(last.topDb.p50Ms, first.topDb.p50Ms)}`);
  }
  for (const r of rows) {
    lines.push(`  EXPLAIN ANALYZE at ${r.size.toLocaleString('en')} rows: rank ${r.explainRank}`);
    lines.push(`  ${' '.repeat(`EXPLAIN ANALYZE at ${r.size.toLocaleString('en')} rows:`.length)} top100 ${r.explainTop}`);
  }
  return lines;
}
