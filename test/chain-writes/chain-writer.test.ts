import { Ed25519Keypair } from '@mysten/sui/keypairs/ed25519';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Registry } from 'prom-client';
import { createTestDb, testLogger, type TestDb } from '../helpers/db';
import { captureLogger } from '../helpers/logs';
import { waitUntil } from '../helpers/indexer';
import { startSuiChainFixture, type SuiChainFixture } from '../fixtures/sui-chain';
import { giveawaySettleKey, GIVEAWAY_SETTLE_KIND } from '../../src/services/giveaways/service';
import { createChainWriterService, type ChainWriteRecord, type ChainWriterService } from '../../src/services/chain-writes/service';
import { startChainWriterLoop, type ChainWriterLoop } from '../../src/services/chain-writes/loop';
import { registerGiveawaySettle } from '../../src/services/giveaways/service';
import { createSuiWriter } from '../../src/providers/sui-writer';
import { createDb, type Db } from '../../src/db/client';

// The chain writer against the fixture chain over real HTTP (Sui GraphQL, @mysten/sui's client):
// three service instances (each with its own database client on PostgreSQL; one shared PGlite
// otherwise) each run a writer loop as the jobs role does; one leads, all three enqueue.

interface Instance {
  db: Db;
  service: ChainWriterService;
  loop: ChainWriterLoop;
  registry: Registry;
}

let chain: SuiChainFixture;
let shared: TestDb;
const apis: Instance[] = [];
const wallet = new Ed25519Keypair();
const { logger, logs } = captureLogger({ level: 'info', secretValues: [wallet.getSecretKey()] });

async function instance(): Promise<Instance> {
  const db = shared.url ? await createDb({ databaseUrl: shared.url, dataDir: '/nonexistent', logger: testLogger, poolMax: 3 }) : shared.db;
  const writer = createSuiWriter({ url: chain.graphqlUrl, transport: 'graphql', network: 'testnet', privateKey: wallet.getSecretKey(), gasCeiling: 50_000_000n, gasMarginPercent: 20 });
  const service = createChainWriterService({ db, writer, packageId: chain.packageId, awaitPollMs: 50 });
  registerGiveawaySettle(service);
  const registry = new Registry();
  const loop = startChainWriterLoop({ db, service, logger, registry }, { pollMs: 50, leaseRetryMs: 500, executeTimeoutMs: 2000, backoffBaseMs: 50 });
  return { db, service, loop, registry };
}

const settleTarget = () => `${chain.packageId}::giveaway::settle`;
const settledIds = () => chain.writes.executions.flatMap((e) => e.calls.filter((c) => c.target === settleTarget()).map((c) => c.args[0]));

async function rows(): Promise<ChainWriteRecord[]> {
  const all = await shared.prisma.chainWrite.findMany({ orderBy: { id: 'asc' } });
  return all.map((r) => ({ id: r.id.toString(), status: r.status, digest: r.digest, resolvedByDigest: r.resolvedByDigest, gasUsed: r.gasUsed?.toFixed(0) ?? null, effectsStatus: r.effectsStatus, error: r.error, attempts: r.attempts }) as ChainWriteRecord);
}

beforeAll(async () => {
  chain = await startSuiChainFixture({ events: 10 });
  chain.writes.fund(wallet.toSuiAddress());
  // Settling a giveaway twice aborts on chain, as the Move code would.
  chain.writes.abortWhen((call, history) =>
    call.target.endsWith('::giveaway::settle') && history.some((h) => h.success && h.calls.some((c) => c.target === call.target && c.args[0] === call.args[0])) ? 'EAlreadySettled' : null,
  );
  shared = await createTestDb();
  for (let i = 0; i < 3; i++) apis.push(await instance());
}, 60_000);

afterEach(async () => {
  Object.assign(chain.writes.switches, { delayMs: 0, dropResponses: 0, dropRequests: 0, failNext: 0, refuseNext: 0 });
  // Every test leaves the queue drained.
  await waitUntil(async () => (await rows()).every((r) => ['confirmed', 'failed', 'cancelled'].includes(r.status)), 20_000, 'the queue to drain');
});

afterAll(async () => {
  for (const api of apis) {
    await api.loop.stop();
    if (api.db !== shared.db) await api.db.close();
  }
  await shared?.cleanup();
  await chain?.close();
});

const enqueueSettle = (api: Instance, giveawayId: string) => api.service.enqueue({ kind: GIVEAWAY_SETTLE_KIND, key: giveawaySettleKey(giveawayId), payload: { giveawayId } });

describe('chain writer', () => {
  it('runs 50 concurrent writes from 3 callers strictly one after another, each with its digest and gas', async () => {
    const ids = Array.from({ length: 50 }, () => chain.writes.addShared(`${chain.packageId}::giveaway::Giveaway`).id);
    const before = chain.writes.executions.length;
    chain.writes.switches.delayMs = 5;
    const records = await Promise.all(ids.map((id, i) => enqueueSettle(apis[i % 3], id)));
    const done = await Promise.all(records.map((r, i) => apis[(i + 1) % 3].service.awaitOutcome(r.id, { timeoutMs: 30_000 })));

    expect(done.map((r) => r.status)).toEqual(ids.map(() => 'confirmed'));
    const executed = chain.writes.executions.slice(before);
    expect(executed).toHaveLength(50);
    expect(chain.writes.maxInFlight).toBe(1);
    for (let i = 1; i < executed.length; i++) expect(executed[i].arrivedAt).toBeGreaterThanOrEqual(executed[i - 1].finishedAt);
    // The chain saw them in the outbox's id order, each row carrying the digest the chain executed.
    const byId = [...done].sort((a, b) => Number(BigInt(a.id) - BigInt(b.id)));
    expect(executed.map((e) => e.digest)).toEqual(byId.map((r) => r.digest));
    for (const r of done) {
      expect(r.effectsStatus).toBe('success');
      expect(BigInt(r.gasUsed!)).toBeGreaterThan(0n);
    }
    // One instance led; the others stood by.
    expect(apis.filter((a) => a.loop.leading)).toHaveLength(1);
  }, 90_000);

  it('resolves a write whose answer was lost by its digest and never sends it again', async () => {
    const id = chain.writes.addShared(`${chain.packageId}::giveaway::Giveaway`).id;
    const requestsBefore = chain.writes.executeRequests;
    chain.writes.switches.dropResponses = 1;
    const record = await enqueueSettle(apis[0], id);
    const done = await apis[1].service.awaitOutcome(record.id, { timeoutMs: 20_000 });
    expect(done).toMatchObject({ status: 'confirmed', resolvedByDigest: true, effectsStatus: 'success' });
    expect(chain.writes.executeRequests - requestsBefore).toBe(1);
    expect(settledIds().filter((x) => x === id)).toHaveLength(1);
  });

  it('executes once a write that timed out while the node was still executing it', async () => {
    const id = chain.writes.addShared(`${chain.packageId}::giveaway::Giveaway`).id;
    // Longer than the writer's 2 s execute budget: the writer gives up, looks the digest up, and sends the same bytes again.
    chain.writes.switches.delayMs = 2500;
    const record = await enqueueSettle(apis[1], id);
    const done = await apis[2].service.awaitOutcome(record.id, { timeoutMs: 20_000 });
    expect(done).toMatchObject({ status: 'confirmed', resolvedByDigest: true });
    expect(chain.writes.executions.filter((e) => e.calls.some((c) => c.args[0] === id)).map((e) => e.digest)).toEqual([done.digest]);
  });

  it('sends the same signed bytes again when the node never saw them (same digest, executed once)', async () => {
    const id = chain.writes.addShared(`${chain.packageId}::giveaway::Giveaway`).id;
    chain.writes.switches.dropRequests = 1;
    const record = await enqueueSettle(apis[2], id);
    const done = await apis[0].service.awaitOutcome(record.id, { timeoutMs: 20_000 });
    expect(done).toMatchObject({ status: 'confirmed', resolvedByDigest: true, attempts: 2 });
    const executed = chain.writes.executions.filter((e) => e.calls.some((c) => c.args[0] === id));
    expect(executed.map((e) => e.digest)).toEqual([done.digest]);
  });

  it('records a failed execution with its error and gas, and an enqueue is idempotent by key', async () => {
    const id = chain.writes.addShared(`${chain.packageId}::giveaway::Giveaway`).id;
    chain.writes.switches.failNext = 1;
    const [a, b] = await Promise.all([enqueueSettle(apis[0], id), enqueueSettle(apis[1], id)]);
    expect(a.id).toBe(b.id);
    const done = await apis[2].service.awaitOutcome(a.id, { timeoutMs: 20_000 });
    expect(done).toMatchObject({ status: 'failed', effectsStatus: 'failure' });
    expect(done.error).toMatch(/injected execution failure/);
    expect(BigInt(done.gasUsed!)).toBeGreaterThan(0n);
    expect((await enqueueSettle(apis[0], id)).id).toBe(a.id);
  });

  it('fails a write the node refuses twice (before and after the digest lookup) and moves on', async () => {
    const id = chain.writes.addShared(`${chain.packageId}::giveaway::Giveaway`).id;
    chain.writes.switches.refuseNext = 2;
    const refused = await enqueueSettle(apis[0], id);
    const next = await enqueueSettle(apis[1], chain.writes.addShared(`${chain.packageId}::giveaway::Giveaway`).id);
    const [refusedDone, nextDone] = await Promise.all([refused, next].map((r) => apis[2].service.awaitOutcome(r.id, { timeoutMs: 20_000 })));
    expect(refusedDone).toMatchObject({ status: 'failed', effectsStatus: null });
    expect(refusedDone.error).toMatch(/^refused by the node: .*injected refusal/);
    expect(chain.writes.executions.filter((e) => e.calls.some((c) => c.args[0] === id))).toHaveLength(0);
    expect(nextDone.status).toBe('confirmed');
  });

  it('fails a write the chain cannot build (unknown object) without blocking the next', async () => {
    const missing = `0x${'ab'.repeat(32)}`;
    const bad = await enqueueSettle(apis[0], missing);
    const good = await enqueueSettle(apis[1], chain.writes.addShared(`${chain.packageId}::giveaway::Giveaway`).id);
    const [badDone, goodDone] = await Promise.all([bad, good].map((r) => apis[2].service.awaitOutcome(r.id, { timeoutMs: 30_000 })));
    expect(badDone.status).toBe('failed');
    expect(badDone.error).toMatch(/^build: /);
    expect(badDone.digest).toBeNull();
    expect(goodDone.status).toBe('confirmed');
  });

  it('never logs or answers the backend key', async () => {
    const key = wallet.getSecretKey();
    expect(logs.lines.length).toBeGreaterThan(0);
    expect(logs.raw.join('\n')).not.toContain(key);
    const metrics = (await Promise.all(apis.map((api) => api.registry.metrics()))).join('\n');
    expect(metrics).not.toContain(key);
    expect(metrics).toMatch(/chain_writes_total\{kind="giveaway.settle",outcome="success"\} \d+/);
  });
});
