// Benchmark target: the real API app plus raw Fastify handlers over the same database.
// Run as a child of bench/run.ts; prints "READY <port>" when listening.
import 'reflect-metadata';
import { loadConfig } from '../src/config';
import { createDb } from '../src/db/client';
import { createLogger } from '../src/observability/logger';
import { createMetrics } from '../src/observability/metrics';
import { createSharedStore, createPubSub } from '../src/store';
import { createServices } from '../src/services';
import { buildGraphqlSchema } from '../src/resolvers';
import { buildHttpApp } from '../src/http/app';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const admission = process.argv.includes('--admission=off') ? false : true;
const cacheTtl = Number(/--cache-ttl=(\d+)/.exec(process.argv.join(' '))?.[1] ?? 30_000);
const config = loadConfig({ envDir: '/nonexistent', env: { ...process.env, NODE_ENV: 'production', JWT_SECRET: 'x'.repeat(32), PAYLOAD_SECRET: 'y'.repeat(32), LOG_LEVEL: 'warn', 'HTTP.RATE_LIMIT_MAX': '1000000000' } });
const logger = createLogger({ level: 'warn' });
const db = await createDb({ databaseUrl: process.env.BENCH_DATABASE_URL, dataDir: mkdtempSync(join(tmpdir(), 'bench-')), logger });
const rows = Array.from({ length: 1000 }, (_, i) => `('0x${i.toString(16).padStart(64, '0')}', ${1_000_000 + ((i * 7919) % 100_000)}, ${i % 10})`).join(',');
await db.query('DELETE FROM xp_leaderboard');
await db.query(`INSERT INTO xp_leaderboard (player, total_xp, vip_level) VALUES ${rows}`);
const store = await createSharedStore({ ...config.store, logger });
const pubSub = createPubSub(store, { logger });
const services = await createServices({ config, logger, db, store, pubSub, version: 'bench', leaderboardCacheTtlMs: cacheTtl });
const schema = await buildGraphqlSchema({ services, pubSub });
const app = await buildHttpApp({
  config,
  logger,
  metrics: createMetrics(),
  store,
  services,
  schema,
  admission,
  extraRoutes: (a) => {
    a.get('/bench/raw/trivial', async () => ({ data: { serverStatus: { status: 'ok' } } }));
    a.get('/bench/raw/leaderboard', async () => {
      const result = await db.query<{ player: string; score: string; vip_level: number }>(
        'SELECT player, total_xp::text AS score, vip_level FROM xp_leaderboard ORDER BY total_xp DESC, player ASC LIMIT 100',
      );
      return { data: { leaderboard: result.map((r, i) => ({ rank: i + 1, player: r.player, score: r.score, vipLevel: r.vip_level })) } };
    });
  },
});
await app.listen({ port: 0, host: '127.0.0.1' });
process.stdout.write(`READY ${(app.server.address() as { port: number }).port}\n`);
process.on('SIGTERM', async () => {
  await app.close();
  await store.close();
  await db.close();
  process.exit(0);
});
