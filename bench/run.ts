// npm run bench: starts the API in child processes and measures, in this run:
//  1. a trivial query through Apollo vs a raw Fastify handler (same process, same hooks);
//  2. a 100-row leaderboard query through Apollo (cached service, and uncached) vs a raw handler over the same database;
//  3. the admission layer on vs off;
//  4. the quest list and a 20-check batch status (REST) vs raw handlers doing the same reads;
//  5. (PostgreSQL) one wallet's leaderboardRank on 100,000- and 1,000,000-row boards at 50 connections;
//  6. realtime fan-out: 10,000 graphql-ws subscribers of one chat room on one process, and on two on Redis (bench/fanout.ts).
// Each figure is printed with its ratio to the baseline measured alongside it.
import { spawn, type ChildProcess } from 'node:child_process';
import { runLoad, type LoadResult } from './load';
import { benchFanout } from './fanout';
import { benchIngest } from './ingest';
import { benchLeaderboardRank } from './leaderboard-rank';
import { BATCH_BODY, benchQuests } from './quests';

const DURATION_MS = Number(process.env.BENCH_DURATION_MS ?? 4000);
const WARMUP_MS = Number(process.env.BENCH_WARMUP_MS ?? 1000);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);

async function startServer(args: string[]): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/server.ts', ...args], { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, BENCH_DATABASE_URL: process.env.DATABASE_URL ?? '' } });
  const port = await new Promise<number>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (c) => {
      out += c;
      const m = /READY (\d+)/.exec(out);
      if (m) resolve(Number(m[1]));
    });
    child.once('exit', (code) => reject(new Error(`bench server exited with ${code}`)));
  });
  return { url: `http://127.0.0.1:${port}`, child };
}

const gqlBody = (query: string) => JSON.stringify({ query });
const json = { 'content-type': 'application/json' };
const TRIVIAL = gqlBody('{ serverStatus { status } }');
const LEADERBOARD = gqlBody('{ leaderboard(board: XP, limit: 100) { rank player score vipLevel } }');

function row(name: string, r: LoadResult, base?: LoadResult): string {
  const ratio = base ? `${(r.rps / base.rps).toFixed(2)}x` : 'baseline';
  return `${name.padEnd(44)} ${r.rps.toFixed(0).padStart(8)} req/s  p50 ${r.p50Ms.toFixed(2).padStart(6)} ms  p99 ${r.p99Ms.toFixed(2).padStart(6)} ms  errors ${r.errors}  ${ratio}`;
}

async function measure(url: string, path: string, body?: string) {
  return runLoad({ url, path, method: body ? 'POST' : 'GET', body, headers: body ? json : undefined, connections: CONNECTIONS, durationMs: DURATION_MS, warmupMs: WARMUP_MS });
}

/** Brings each endpoint's code paths to a steady JIT state before anything is measured. */
async function warm(url: string, targets: Array<[string, string?]>) {
  for (const [path, body] of targets) {
    await runLoad({ url, path, method: body ? 'POST' : 'GET', body, headers: body ? json : undefined, connections: CONNECTIONS, durationMs: 1, warmupMs: WARMUP_MS });
  }
}

const servers: ChildProcess[] = [];
try {
  const lines: string[] = [];
  const cached = await startServer(['--admission=on']);
  servers.push(cached.child);
  await warm(cached.url, [['/bench/raw/trivial'], ['/graphql', TRIVIAL], ['/bench/raw/leaderboard'], ['/graphql', LEADERBOARD]]);
  const rawTrivial = await measure(cached.url, '/bench/raw/trivial');
  lines.push(row('trivial: raw Fastify handler', rawTrivial));
  lines.push(row('trivial: Apollo query', await measure(cached.url, '/graphql', TRIVIAL), rawTrivial));
  const rawBoard = await measure(cached.url, '/bench/raw/leaderboard');
  lines.push(row('leaderboard top 100: raw SQL handler', rawBoard));
  lines.push(row('leaderboard top 100: Apollo (cached service)', await measure(cached.url, '/graphql', LEADERBOARD), rawBoard));
  const questTargets: Array<[string, string?]> = [['/bench/raw/quests/list'], ['/api/quests/list'], ['/bench/raw/quests/status', BATCH_BODY], ['/api/quests/campaigns/platform/status', BATCH_BODY]];
  await warm(cached.url, questTargets);
  lines.push(...(await benchQuests((path, body) => measure(cached.url, path, body), row)));
  cached.child.kill('SIGTERM');

  const uncached = await startServer(['--admission=on', '--cache-ttl=0']);
  servers.push(uncached.child);
  await warm(uncached.url, [['/bench/raw/trivial'], ['/bench/raw/leaderboard'], ['/graphql', LEADERBOARD]]);
  const rawBoard2 = await measure(uncached.url, '/bench/raw/leaderboard');
  lines.push(row('leaderboard top 100: raw SQL handler (2nd run)', rawBoard2));
  lines.push(row('leaderboard top 100: Apollo (no cache)', await measure(uncached.url, '/graphql', LEADERBOARD), rawBoard2));
  uncached.child.kill('SIGTERM');

  // admission on and off each on a fresh server with the same warm-up, so only the layer differs
  const on = await startServer(['--admission=on']);
  servers.push(on.child);
  await warm(on.url, [['/bench/raw/trivial']]);
  const admissionOn = await measure(on.url, '/bench/raw/trivial');
  on.child.kill('SIGTERM');

  const off = await startServer(['--admission=off']);
  servers.push(off.child);
  await warm(off.url, [['/bench/raw/trivial']]);
  const admissionOff = await measure(off.url, '/bench/raw/trivial');
  lines.push(row('admission off: raw trivial', admissionOff));
  lines.push(row('admission on: raw trivial', admissionOn, admissionOff));

  // Same rule as src/config: an address selects Redis unless CACHE_STORE=memory forces the per-process store.
  const store = process.env.CACHE_STORE !== 'memory' && (process.env.SHARED_STORE_URL || process.env.REDIS_URL || process.env.SHARED_STORE_HOST) ? 'Redis' : 'memory';
  process.stdout.write(`\nbench (${CONNECTIONS} connections, ${DURATION_MS} ms each, database: ${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'}, store: ${store})\n${lines.join('\n')}\n`);
  if (process.env.DATABASE_URL) {
    const rank = await startServer(['--admission=on']);
    servers.push(rank.child);
    await warm(rank.url, [['/bench/raw/leaderboard']]);
    const rankConnections = Number(process.env.BENCH_RANK_CONNECTIONS ?? 50);
    const rankLines = await benchLeaderboardRank({
      url: rank.url,
      databaseUrl: process.env.DATABASE_URL,
      connections: rankConnections,
      durationMs: Number(process.env.BENCH_RANK_DURATION_MS ?? 10_000),
      warmupMs: WARMUP_MS,
      sizes: process.env.BENCH_RANK_SIZES?.split(',').map(Number),
      row,
    });
    rank.child.kill('SIGTERM');
    process.stdout.write(`\nleaderboardRank (${rankConnections} connections, PostgreSQL)\n${rankLines.join('\n')}\n`);
  } else {
    process.stdout.write('\nleaderboardRank: skipped (needs DATABASE_URL; the boards are seeded with plain SQL)\n');
  }
  const fanoutSubscribers = Number(process.env.BENCH_FANOUT_SUBSCRIBERS ?? 10_000);
  process.stdout.write(`\n${(await benchFanout({ subscribers: fanoutSubscribers, messages: Number(process.env.BENCH_FANOUT_MESSAGES ?? 20) })).join('\n')}\n`);
  process.stdout.write(`\n${(await benchIngest({ databaseUrl: process.env.DATABASE_URL || undefined, events: Number(process.env.BENCH_INGEST_EVENTS ?? 20_000) })).join('\n')}\n`);
} finally {
  for (const s of servers) if (s.exitCode === null) s.kill('SIGTERM');
}
