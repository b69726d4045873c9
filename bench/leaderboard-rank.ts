// leaderboardRank at scale: boards of 100,000 and 1,000,000 rows seeded with plain SQL
// (generate_series) into bet_leaderboard under their own coin types, then one wallet's rank
// through GraphQL under load, next to the raw top-100 handler measured in the same run.
// The same reads are also driven straight through the service (no HTTP), rank against an
// uncached top-100, to show the database's share. Also times the old whole-board CTE once (JIT on
// and off) for contrast. PostgreSQL only.
import pg from 'pg';
import pino from 'pino';
import { createDb, type Db } from '../src/db/client';
import { createLeaderboardService, type LeaderboardService } from '../src/services/leaderboards';
import { createSharedStore } from '../src/store';
import { runLoad, type LoadResult } from './load';

export interface RankBenchOptions {
  /** The bench server (bench/server.ts) on the same database. */
  url: string;
  databaseUrl: string;
  connections: number;
  durationMs: number;
  warmupMs: number;
  /** Board sizes; default 100,000 and 1,000,000. */
  sizes?: number[];
  row: (name: string, r: LoadResult, base?: LoadResult) => string;
}

const coinFor = (rows: number) => `0x${'0'.repeat(63)}b::bench_rank_${rows}::COIN`;

/** 2 players per score on average, so the address tie-break is exercised. */
async function seed(db: pg.Pool, rows: number): Promise<void> {
  const coin = coinFor(rows);
  await db.query('DELETE FROM bet_leaderboard WHERE coin_type = $1', [coin]);
  await db.query(
    `INSERT INTO bet_leaderboard (player, coin_type, total_wagered, total_payout, bet_count, win_count)
     SELECT '0x' || lpad(to_hex(i), 64, '0'), $1, ((i::bigint * 7919) % ($2::bigint / 2)) * 1000000000, 0, 1 + i % 50, i % 7
       FROM generate_series(1, $2::int) AS i`,
    [coin, rows],
  );
  // Index-only scans need the visibility map; on a live board autovacuum keeps it current.
  await db.query('VACUUM ANALYZE bet_leaderboard');
}

async function playerAt(db: pg.Pool, rows: number, rank: number): Promise<string> {
  const { rows: r } = await db.query<{ player: string }>(
    'SELECT player FROM bet_leaderboard WHERE coin_type = $1 ORDER BY total_wagered DESC, player ASC OFFSET $2 LIMIT 1',
    [coinFor(rows), rank - 1],
  );
  return r[0]!.player;
}

/** The query leaderboardRank ran before: the whole board in a CTE. */
const OLD_CTE = `WITH board AS (SELECT player, total_wagered AS raw_score, bet_count AS count FROM bet_leaderboard WHERE coin_type = $1),
  me AS (SELECT * FROM board WHERE player = $2)
  SELECT me.player, (SELECT count(*) FROM board b WHERE b.raw_score > me.raw_score OR (b.raw_score = me.raw_score AND b.player < me.player)) + 1 AS rank FROM me`;

async function timeOldCte(url: string, rows: number, player: string, jit: boolean): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`SET jit = ${jit ? 'on' : 'off'}`);
    const start = performance.now();
    await client.query(OLD_CTE, [coinFor(rows), player]);
    return performance.now() - start;
  } finally {
    await client.end();
  }
}

/** Closed loop like runLoad, calling `fn` instead of sending a request. */
async function loop(fn: () => Promise<unknown>, workers: number, durationMs: number, warmupMs: number): Promise<LoadResult> {
  const latencies: number[] = [];
  let errors = 0;
  const measureFrom = Date.now() + warmupMs;
  const deadline = measureFrom + durationMs;
  await Promise.all(
    Array.from({ length: workers }, async () => {
      while (Date.now() < deadline) {
        const start = performance.now();
        await fn().catch(() => errors++);
        if (Date.now() >= measureFrom) latencies.push(performance.now() - start);
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
  return { requests: latencies.length, errors, rps: latencies.length / (durationMs / 1000), p50Ms: at(0.5), p99Ms: at(0.99) };
}

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  Plans?: PlanNode[];
}

/** The service's own statement under EXPLAIN ANALYZE: its scans and execution time. */
async function explainRank(db: Db, query: Parameters<LeaderboardService['rankOf']>[0]): Promise<string> {
  const plans: Array<{ Plan: PlanNode; 'Execution Time': number }> = [];
  const explaining: Db = {
    ...db,
    query: async <T>(sql: string, params?: unknown[]) => {
      const [row] = await db.query<{ 'QUERY PLAN': typeof plans }>(`EXPLAIN (ANALYZE, FORMAT JSON) ${sql}`, params);
      plans.push(...row!['QUERY PLAN']);
      return [] as T[];
    },
  };
  const store = await createSharedStore({ cacheStore: 'memory', logger: pino({ level: 'warn' }) });
  try {
    await (await createLeaderboardService({ db: explaining, store, ttlMs: 0 })).rankOf(query);
  } finally {
    await store.close();
  }
  const scans: string[] = [];
  const walk = (n: PlanNode) => {
    if (/Scan/.test(n['Node Type']) && !/Bitmap Index/.test(n['Node Type'])) scans.push(`${n['Node Type']} on ${n['Relation Name'] ?? '?'}`);
    n.Plans?.forEach(walk);
  };
  plans.forEach((p) => walk(p.Plan));
  const seq = scans.some((x) => x.startsWith('Seq Scan')) ? '  SEQ SCAN' : '';
  return `${plans.map((p) => p['Execution Time'].toFixed(2)).join('+')} ms: ${scans.join(', ')}${seq}`;
}

const rankBody = (rows: number, player: string) =>
  JSON.stringify({ query: `{ leaderboardRank(board: BET, coinType: "${coinFor(rows)}", player: "${player}") { rank player score count } }` });

export async function benchLeaderboardRank(opts: RankBenchOptions): Promise<string[]> {
  const db = new pg.Pool({ connectionString: opts.databaseUrl, max: 2 });
  const logger = pino({ level: 'warn' });
  const serviceDb = await createDb({ databaseUrl: opts.databaseUrl, dataDir: '/nonexistent', logger });
  const store = await createSharedStore({ cacheStore: 'memory', logger });
  const service: LeaderboardService = await createLeaderboardService({ db: serviceDb, store, ttlMs: 0 });
  const sizes = opts.sizes ?? [100_000, 1_000_000];
  const lines: string[] = [];
  const load = (path: string, body?: string, durationMs = opts.durationMs) =>
    runLoad({ url: opts.url, path, method: body ? 'POST' : 'GET', body, headers: body ? { 'content-type': 'application/json' } : undefined, connections: opts.connections, durationMs, warmupMs: opts.warmupMs });
  try {
    for (const rows of sizes) {
      const seeded = performance.now();
      await seed(db, rows);
      lines.push(`board of ${rows.toLocaleString('en')} rows seeded in ${((performance.now() - seeded) / 1000).toFixed(1)} s`);
      const positions = [10, Math.floor(rows / 2), rows];
      const players = await Promise.all(positions.map((p) => playerAt(db, rows, p)));
      const check = await fetch(`${opts.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: rankBody(rows, players[1]!) }).then((r) => r.json());
      const got = (check as { data?: { leaderboardRank?: { rank: number } } }).data?.leaderboardRank?.rank;
      if (got !== positions[1]) throw new Error(`rank check failed: expected ${positions[1]}, got ${JSON.stringify(check)}`);
      const base = await load('/bench/raw/leaderboard');
      lines.push(opts.row(`  top 100: raw SQL handler (baseline)`, base));
      for (const [i, rank] of positions.entries()) {
        const r = await load('/graphql', rankBody(rows, players[i]!), rank === positions[1] ? opts.durationMs : Math.min(opts.durationMs, 5_000));
        const verdict = r.errors === 0 && r.p99Ms < 50 ? 'ok' : 'MISSES p99 < 50 ms / no errors';
        lines.push(`${opts.row(`  leaderboardRank, player ranked ${rank.toLocaleString('en')}`, r, base)}  ${verdict}`);
      }
      const coinType = coinFor(rows);
      for (const [i, rank] of positions.entries()) {
        lines.push(`  EXPLAIN ANALYZE rank of player ranked ${rank.toLocaleString('en')}: ${await explainRank(serviceDb, { board: 'bet', coinType, player: players[i]! })}`);
      }
      const topSql = await loop(() => service.top({ board: 'bet', coinType, limit: 100 }), opts.connections, Math.min(opts.durationMs, 5_000), opts.warmupMs);
      lines.push(opts.row('  service only: top 100, uncached (baseline)', topSql));
      for (const [i, rank] of positions.entries()) {
        const r = await loop(() => service.rankOf({ board: 'bet', coinType, player: players[i]! }), opts.connections, Math.min(opts.durationMs, 5_000), opts.warmupMs);
        lines.push(opts.row(`  service only: rank of player ranked ${rank.toLocaleString('en')}`, r, topSql));
      }
      if (rows <= 100_000) {
        const [jitOn, jitOff] = [await timeOldCte(opts.databaseUrl, rows, players[1]!, true), await timeOldCte(opts.databaseUrl, rows, players[1]!, false)];
        lines.push(`  old whole-board CTE, one call (median player): ${jitOn.toFixed(0)} ms with JIT, ${jitOff.toFixed(0)} ms without`);
      }
      await db.query('DELETE FROM bet_leaderboard WHERE coin_type = $1', [coinFor(rows)]);
    }
  } finally {
    await db.end();
    await store.close();
    await serviceDb.close();
  }
  return lines;
}
