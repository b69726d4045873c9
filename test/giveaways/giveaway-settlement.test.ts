import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { Ed25519Keypair } from '@mysten/sui/keypairs/ed25519';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, type Db } from '../../src/db/client';
import { createChainWriterService } from '../../src/services/chain-writes/service';
import { startChainWriterLoop } from '../../src/services/chain-writes/loop';
import { createGiveawayService, registerGiveawaySettle } from '../../src/services/giveaways/service';
import { createSuiWriter } from '../../src/providers/sui-writer';
import { loadConfig } from '../../src/config';
import { jobDefinitions } from '../../src/jobs';
import { createServices } from '../../src/services';
import { createBus, createSharedStore } from '../../src/store';
import { createTestDb, testLogger, type TestDb } from '../helpers/db';
import { waitUntil } from '../helpers/indexer';
import { startSuiChainFixture, type SuiChainFixture } from '../fixtures/sui-chain';
import { BUILT_MAIN_ARGS } from '../helpers/built-main';

// Giveaway auto-settlement through the chain writer against the fixture chain: due giveaways
// (ended more than the grace period ago) are settled in batches, each exactly once, also when the
// jobs process is killed with SIGKILL in the middle of a batch and a new one takes over.

let chain: SuiChainFixture;
const wallet = new Ed25519Keypair();

const settleTarget = () => `${chain.packageId}::giveaway::settle`;
const settlements = (id: string) => chain.writes.executions.filter((e) => e.calls.some((c) => c.target === settleTarget() && c.args[0] === id));

async function createGiveaways(db: Pick<Db, 'query'>, endsAt: Date[]): Promise<string[]> {
  const ids: string[] = [];
  for (const [i, end] of endsAt.entries()) {
    const id = chain.writes.addShared(`${chain.packageId}::giveaway::Giveaway`).id;
    ids.push(id);
    await db.query(
      `INSERT INTO giveaway_created_event (tx_digest, event_seq, checkpoint, timestamp_ms, sender, giveaway_id, ends_at) VALUES ($1, $2, 1, now(), $3, $4, $5)`,
      [`tx-${randomBytes(6).toString('hex')}`, i, wallet.toSuiAddress(), id, end],
    );
  }
  return ids;
}

beforeAll(async () => {
  chain = await startSuiChainFixture({ events: 10 });
  chain.writes.fund(wallet.toSuiAddress());
  chain.writes.abortWhen((call, history) =>
    call.target.endsWith('::giveaway::settle') && history.some((h) => h.success && h.calls.some((c) => c.target === call.target && c.args[0] === call.args[0])) ? 'EAlreadySettled' : null,
  );
});

afterAll(async () => {
  await chain?.close();
});

describe('giveaway settlement', () => {
  let test: TestDb;
  beforeAll(async () => {
    test = await createTestDb();
  }, 120_000);
  afterAll(async () => test?.cleanup());

  it('settles only giveaways past their grace period, in batches, and never enqueues one twice', async () => {
    const service = createChainWriterService({ db: test.db, packageId: chain.packageId, awaitPollMs: 50, writer: createSuiWriter({ url: chain.graphqlUrl, transport: 'graphql', network: 'testnet', privateKey: wallet.getSecretKey(), gasCeiling: 50_000_000n, gasMarginPercent: 20 }) });
    registerGiveawaySettle(service);
    const loop = startChainWriterLoop({ db: test.db, service, logger: testLogger }, { pollMs: 50, backoffBaseMs: 50 });
    try {
      const now = Date.now();
      const graceMs = 60_000;
      const due = await createGiveaways(test.db, Array.from({ length: 7 }, (_, i) => new Date(now - graceMs - 1000 * (i + 1))));
      const inGrace = await createGiveaways(test.db, [new Date(now - 1000), new Date(now + 3_600_000)]);
      const giveaways = createGiveawayService({ db: test.db, chainWriter: service, graceMs, batchSize: 3 });

      const first = await giveaways.settleDue({ now: new Date(now) });
      expect(first).toEqual({ batches: 3, enqueued: 7, settled: 7, failed: 0, unfinished: 0 });
      for (const id of due) expect(settlements(id)).toHaveLength(1);
      for (const id of inGrace) expect(settlements(id)).toHaveLength(0);
      expect(await giveaways.settleDue({ now: new Date(now) })).toEqual({ batches: 0, enqueued: 0, settled: 0, failed: 0, unfinished: 0 });
      const rows = await test.prisma.chainWrite.findMany({ where: { kind: 'giveaway.settle' } });
      expect(rows.map((r) => r.status)).toEqual(due.map(() => 'confirmed'));
    } finally {
      await loop.stop();
    }
  }, 120_000);

  it('schedules the settlement job only with a writer and without CHAIN.GIVEAWAY_AUTO_SETTLEMENT_DISABLED', async () => {
    const keys = async (env: Record<string, string>) => {
      const config = loadConfig({ envDir: '/nonexistent', env: { NODE_ENV: 'test', CACHE_STORE: 'memory', 'CHAIN.SUI_URL': chain.graphqlUrl, PLATFORM_PACKAGE_ID: chain.packageId, ...env } });
      const store = await createSharedStore({ ...config.store, logger: testLogger });
      try {
        const services = await createServices({ config, logger: testLogger, db: test.db, store, bus: createBus(store, { logger: testLogger }), version: 'test' });
        return jobDefinitions({ config, services, logger: testLogger }).map((j) => j.key);
      } finally {
        await store.close();
      }
    };
    const key = wallet.getSecretKey();
    expect(await keys({ 'CHAIN.BACKEND_WALLET_PRIVATE_KEY': key })).toContain('giveaway-settlement');
    expect(await keys({ 'CHAIN.BACKEND_WALLET_PRIVATE_KEY': key, 'CHAIN.GIVEAWAY_AUTO_SETTLEMENT_DISABLED': 'true' })).not.toContain('giveaway-settlement');
    expect(await keys({})).not.toContain('giveaway-settlement');
  }, 60_000);
});

/** `src/main.ts --role jobs` as its own OS process, as `npm start -- --role jobs` runs it. */
function spawnJobs(env: Record<string, string>) {
  const child = spawn(process.execPath, [...BUILT_MAIN_ARGS, '--role', 'jobs'], {
    env: { ...process.env, NODE_ENV: 'test', LOG_LEVEL: 'info', CACHE_STORE: 'memory', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (c) => (out += c));
  child.stderr!.on('data', (c) => (out += c));
  const exited = new Promise((r) => child.once('exit', r));
  return {
    output: () => out,
    alive: () => child.exitCode === null && child.signalCode === null,
    async stop(signal: NodeJS.Signals) {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
  };
}

describe('giveaway settlement across a SIGKILL', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterAll(async () => {
    for (const c of cleanups.reverse()) await c();
  });

  it('settles every giveaway exactly once when the jobs process is killed mid-batch and another finishes', async () => {
    // PostgreSQL: a database both processes share; embedded: a PGlite directory one process at a time.
    const test = await createTestDb({ onDisk: true });
    const count = 12;
    const ids = await createGiveaways(test.db, Array.from({ length: count }, (_, i) => new Date(Date.now() - 10_000 - i)));
    const dbEnv: Record<string, string> = test.url ? { DATABASE_URL: test.url } : { DATA_DIR: test.dataDir! };
    if (test.url) cleanups.push(() => test.cleanup());
    else {
      await test.db.close();
      cleanups.push(() => rm(test.dataDir!, { recursive: true, force: true }));
    }
    const env = {
      ...dbEnv,
      'CHAIN.SUI_URL': chain.graphqlUrl,
      'CHAIN.SUI_TRANSPORT': 'graphql',
      PLATFORM_PACKAGE_ID: chain.packageId,
      'CHAIN.BACKEND_WALLET_PRIVATE_KEY': wallet.getSecretKey(),
      'CHAIN.GIVEAWAY_SETTLEMENT_GRACE_MS': '0',
      'CHAIN.GIVEAWAY_SETTLEMENT_BATCH_SIZE': '4',
      'JOBS.GIVEAWAY_SETTLEMENT_CRON': '* * * * * *',
      INDEXER_DISABLED: 'true',
    };
    const settledCount = () => ids.filter((id) => settlements(id).length > 0).length;
    chain.writes.switches.delayMs = 150;

    const first = spawnJobs(env);
    cleanups.push(() => first.stop('SIGKILL'));
    await waitUntil(() => {
      if (!first.alive()) throw new Error(`jobs process exited early:\n${first.output()}`);
      return settledCount() >= 5;
    }, 90_000, 'the first jobs process to settle part of the second batch');
    await first.stop('SIGKILL');
    const atKill = settledCount();
    expect(atKill).toBeLessThan(count);

    const second = spawnJobs(env);
    cleanups.push(() => second.stop('SIGKILL'));
    await waitUntil(() => {
      if (!second.alive()) throw new Error(`jobs process exited early:\n${second.output()}`);
      return settledCount() === count;
    }, 150_000, 'the second jobs process to settle the rest').catch((err: Error) => {
      throw new Error(`${err.message} (${settledCount()}/${count} settled); its output:\n${second.output().slice(-4000)}`);
    });
    await second.stop('SIGTERM');
    chain.writes.switches.delayMs = 0;

    for (const id of ids) expect(settlements(id).map((e) => e.success)).toEqual([true]);
    expect(second.output()).not.toContain(wallet.getSecretKey());
    const db = test.url ? test.db : await createDb({ dataDir: test.dataDir!, logger: testLogger });
    try {
      const rows = await db.prisma.chainWrite.findMany({ where: { kind: 'giveaway.settle' } });
      expect(rows).toHaveLength(count);
      expect(rows.every((r) => r.status === 'confirmed' && r.digest)).toBe(true);
    } finally {
      if (!test.url) await db.close();
    }
  }, 360_000);
});
