// Benchmark target: the real API (built by createRuntime, as main.ts does) plus raw Fastify
// handlers over the same database. Run as a child of bench/run.ts; prints "READY <port>" when listening.
import 'reflect-metadata';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../src/config';
import { createDb } from '../src/db/client';
import { createLogger } from '../src/observability/logger';
import { createRuntime } from '../src/runtime';
import { questRawRoutes, seedQuestProgress } from './quests';

const admission = process.argv.includes('--admission=off') ? false : true;
const cacheTtl = Number(/--cache-ttl=(\d+)/.exec(process.argv.join(' '))?.[1] ?? 30_000);
const config = loadConfig({ envDir: '/nonexistent', env: { ...process.env, NODE_ENV: 'production', JWT_SECRET: 'x'.repeat(32), PAYLOAD_SECRET: 'y'.repeat(32), LOG_LEVEL: 'warn', 'HTTP.RATE_LIMIT_MAX': '1000000000' } });
const logger = createLogger({ level: 'warn' });
// The database is the benchmark's own (seeded before the API starts); the runtime borrows it.
const db = await createDb({ databaseUrl: process.env.BENCH_DATABASE_URL || undefined, dataDir: mkdtempSync(join(tmpdir(), 'bench-')), logger });
const rows = Array.from({ length: 1000 }, (_, i) => `('0x${i.toString(16).padStart(64, '0')}', ${1_000_000 + ((i * 7919) % 100_000)}, ${i % 10})`).join(',');
await db.query('DELETE FROM xp_leaderboard');
await db.query(`INSERT INTO xp_leaderboard (player, total_xp, vip_level) VALUES ${rows}`);
await seedQuestProgress(db);
const runtime = await createRuntime(config, {
  roles: new Set(['api']),
  logger,
  version: 'bench',
  db,
  admission,
  leaderboardCacheTtlMs: cacheTtl,
  listen: { port: 0, host: '127.0.0.1' },
  extraRoutes: (a) => {
    questRawRoutes(a, db);
    a.get('/bench/raw/trivial', async () => ({ data: { serverStatus: { status: 'ok' } } }));
    a.get('/bench/raw/leaderboard', async () => {
      const result = await db.query<{ player: string; score: string; vip_level: number }>(
        'SELECT player, total_xp::text AS score, vip_level FROM xp_leaderboard ORDER BY total_xp DESC, player ASC LIMIT 100',
      );
      return { data: { leaderboard: result.map((r, i) => ({ rank: i + 1, player: r.player, score: r.score, vipLevel: r.vip_level })) } };
    });
  },
});
process.stdout.write(`READY ${new URL(runtime.url!).port}\n`);
process.once('SIGTERM', async () => {
  await runtime.close();
  await db.close();
  process.exit(0);
});
