// npm run bench [-- --only <names> --duration <s> --warmup <s> --connections <n> --rounds <n>]
// Sections (all by default; --only takes scenario names, groups or sections, comma-separated):
//   reference   every scenario against our API and the reference servers (bench/reference/run.ts):
//               trivial, top100 (top100-xp, top100-bet, top100-weekly-bet, top100-referral), rank,
//               quests (quest-list, quest-status), nested, blog (blog-list: the blog's CMS on its own database)
//   growth      rank and top-100 at 10,000 / 100,000 / 1,000,000 rows (bench/growth.ts)
//   admission   the admission layer on vs off (raw trivial route on our API)
//   fanout      realtime fan-out to 10,000 graphql-ws subscribers (bench/fanout.ts)
//   fanout50k   50,000 subscribers, half graphql-ws and half Socket.IO, against socket.io + its Redis adapter (bench/fanout-mix.ts; not in the default run)
//   ingest      indexer ingest vs COPY (bench/ingest.ts)
//   idle        the API's idle RSS on PostgreSQL + Redis after one warm-up request per operation, 3 starts (bench/api-idle.ts)
//   soak        the mixed workload at 70 % of capacity on two replicas, jobs and indexer (bench/soak.ts;
//               --minutes <n> (default 60), --window <n> minutes per report (default 5); only with --only;
//               --soak-warmup <n> minutes before the judged windows (default 10, or one window in a run of 10 minutes or less);
//               --leak-check: exit 1 unless the RSS (the Next server aside) and error goals are met (CI's 5-minute form, .ci/run))
// reference, growth and admission need PostgreSQL (DATABASE_URL): they run on their own database
// beside it (platform_bench, seeded once with plain SQL by bench/seed.ts and reused).
import { parseArgs } from 'node:util';
import { benchIdle } from './api-idle';
import { buildBenchServers } from './built';
import { benchFanout } from './fanout';
import { benchFanoutMix } from './fanout-mix';
import { GROWTH_SIZES, benchGrowth } from './growth';
import { benchIngest } from './ingest';
import { runLoad, type LoadResult } from './load';
import { benchReference, startChild, stopChild } from './reference/run';
import { prepareBenchDatabase, prepareBlogDatabase } from './seed';
import { benchSoak } from './soak';

const { values: args } = parseArgs({
  options: { only: { type: 'string' }, duration: { type: 'string' }, warmup: { type: 'string' }, connections: { type: 'string' }, rounds: { type: 'string' }, minutes: { type: 'string' }, window: { type: 'string' }, 'leak-check': { type: 'boolean' }, 'soak-warmup': { type: 'string' } },
});
const durationMs = args.duration ? Number(args.duration) * 1000 : Number(process.env.BENCH_DURATION_MS ?? 10_000);
const warmupMs = args.warmup ? Number(args.warmup) * 1000 : Number(process.env.BENCH_WARMUP_MS ?? 2000);
const connections = Number(args.connections ?? process.env.BENCH_CONNECTIONS ?? 50);
const rounds = Number(args.rounds ?? process.env.BENCH_ROUNDS ?? 1);
const only = args.only ? new Set(args.only.split(',').map((s) => s.trim())) : null;
const wants = (...names: string[]) => !only || names.some((n) => only.has(n));
/** Sections that start their own servers on their own data: with only these, the bench database is not prepared. */
const SELF_CONTAINED = new Set(['idle', 'fanout', 'fanout50k', 'ingest', 'soak']);
const needsBenchDatabase = !only || [...only].some((n) => !SELF_CONTAINED.has(n));
const growthSizes = process.env.BENCH_GROWTH_SIZES?.split(',').map(Number) ?? GROWTH_SIZES;
const print = (lines: string[]) => lines.length && process.stdout.write(`\n${lines.join('\n')}\n`);

await buildBenchServers();
const started = performance.now();
const databaseUrl = process.env.DATABASE_URL;
process.stdout.write(`bench: ${connections} connections, ${durationMs} ms per measurement after ${warmupMs} ms warm-up${only ? `, only ${[...only].join(',')}` : ''}\n`);
if (databaseUrl && needsBenchDatabase) {
  const benchDatabaseUrl = await prepareBenchDatabase(databaseUrl, { growthSizes: wants('growth') ? growthSizes : [], log: (l) => process.stdout.write(`${l}\n`) });
  const blogDatabaseUrl = wants('reference', 'blog', 'blog-list') ? await prepareBlogDatabase(databaseUrl, { log: (l) => process.stdout.write(`${l}\n`) }) : undefined;
  print(await benchReference({ benchDatabaseUrl, blogDatabaseUrl, selected: (s) => wants('reference', s.name, s.group), connections, durationMs, warmupMs, rounds }));
  if (wants('growth')) print(await benchGrowth({ benchDatabaseUrl, sizes: growthSizes, connections, durationMs, warmupMs }));
  if (wants('admission')) print(await benchAdmission(benchDatabaseUrl));
} else if (needsBenchDatabase) {
  process.stdout.write('\nreference, growth, admission: skipped (they need DATABASE_URL: PostgreSQL)\n');
}
if (wants('fanout')) print(await benchFanout({ subscribers: Number(process.env.BENCH_FANOUT_SUBSCRIBERS ?? 10_000), messages: Number(process.env.BENCH_FANOUT_MESSAGES ?? 20), client: process.env.BENCH_FANOUT_CLIENT }));
if (wants('idle')) {
  const storeUrl = process.env.SHARED_STORE_URL;
  if (databaseUrl && storeUrl) print(await benchIdle({ databaseUrl, storeUrl, runs: 3 }));
  else process.stdout.write('\nidle: skipped (it needs DATABASE_URL: PostgreSQL and SHARED_STORE_URL: Redis)\n');
}
// only when named: it holds 100,000 sockets on this machine for a few minutes
if (only?.has('fanout50k'))
  print(await benchFanoutMix({ subscribers: Number(process.env.BENCH_FANOUT_MIX_SUBSCRIBERS ?? 50_000), messages: Number(process.env.BENCH_FANOUT_MIX_MESSAGES ?? 10), processes: Number(process.env.BENCH_FANOUT_MIX_PROCESSES ?? 2) }));
if (wants('ingest')) print(await benchIngest({ databaseUrl: databaseUrl || undefined, events: Number(process.env.BENCH_INGEST_EVENTS ?? 20_000) }));
// An hour by default: run only when asked for by name.
if (only?.has('soak')) {
  if (!databaseUrl) {
    process.stdout.write(`\nsoak: skipped (it needs DATABASE_URL: PostgreSQL)${args['leak-check'] ? '; soak leak check: FAILED (not run)' : ''}\n`);
    if (args['leak-check']) process.exitCode = 1;
  } else {
    const minutes = Number(args.minutes ?? 60);
    const windowMinutes = Number(args.window ?? 5);
    const redisUrl = process.env.BENCH_SOAK_REDIS_URL ?? 'redis://127.0.0.1:6379/8';
    const warmupMinutes = args['soak-warmup'] === undefined ? undefined : Number(args['soak-warmup']);
    const soak = await benchSoak({ serverUrl: databaseUrl, redisUrl, minutes, windowMinutes, warmupMinutes, log: (l) => process.stdout.write(`${l}\n`) });
    print(soak.lines);
    // The leak check judges what a short run can show on a shared machine: memory growth and errors (p99 is printed, not judged: docs/decisions.md).
    if (args['leak-check']) {
      const passed = soak.met.rssLeakCheck && soak.met.errors;
      process.stdout.write(`\nsoak leak check: ${passed ? 'passed' : 'FAILED'} (growth of RSS less V8's young generation in the API replicas, jobs, indexer and blog supervisor; errors; bench/soak/report.ts says why)\n`);
      if (!passed) process.exitCode = 1;
    }
  }
}
process.stdout.write(`\nbench took ${((performance.now() - started) / 1000).toFixed(0)} s\n`);

/** The admission layer on and off, each on a fresh API process with the same warm-up, so only the layer differs. */
async function benchAdmission(benchDatabaseUrl: string): Promise<string[]> {
  const results: LoadResult[] = [];
  for (const mode of ['off', 'on']) {
    const { url, child } = await startChild('bench/reference/servers/api.ts', [`--admission=${mode}`], { ...process.env, BENCH_DATABASE_URL: benchDatabaseUrl });
    try {
      results.push(await runLoad({ url, path: '/bench/raw/trivial', connections, durationMs, warmupMs }));
    } finally {
      await stopChild(child);
    }
  }
  const [off, on] = results;
  const row = (name: string, r: LoadResult) => `${name.padEnd(30)} ${r.rps.toFixed(0).padStart(8)} req/s  p50 ${r.p50Ms.toFixed(2).padStart(6)} ms  p99 ${r.p99Ms.toFixed(2).padStart(6)} ms  errors ${r.errors}`;
  return ['admission (raw trivial route on our API)', row('  admission off', off), `${row('  admission on', on)}  ${(on.rps / off.rps).toFixed(2)}x`];
}
