/**
 * Chain writes that recover, against the fixture chain over real HTTP with a fake clock (no wall
 * time waited): transient failures (node 5xx, dropped connections) are retried with bounded
 * exponential backoff and then confirmed; a queued write gives up after CHAIN.WRITE_MAX_ATTEMPTS
 * (visible in the metrics); a definite failure (the dry run aborts) and a budget above the gas
 * ceiling fail at once and are never sent; the budget is the dry run's gas plus the margin; a
 * submitted write whose answer was lost is looked up by digest for as long as the node is down
 * and never sent twice; a transaction that can no longer run (its gas coin moved on) fails, and
 * an operator's retry builds a new one only after checking the old one.
 */
import { Ed25519Keypair } from '@mysten/sui/keypairs/ed25519';
import { bcs } from '@mysten/sui/bcs';
import { Registry } from 'prom-client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, testLogger, type TestDb } from '../helpers/db';
import { until } from '../helpers/until';
import { startSuiChainFixture, type SuiChainFixture } from '../fixtures/sui-chain';
import { REFERENCE_GAS_PRICE } from '../fixtures/sui-chain/graphql-writes';
import { giveawaySettleKey, GIVEAWAY_SETTLE_KIND, registerGiveawaySettle } from '../../src/services/giveaways/service';
import { createChainWriterService, type ChainWriteRecord, type ChainWriterService } from '../../src/services/chain-writes/service';
import { startChainWriterLoop, type ChainWriterLoop, type ChainWriterLoopOptions } from '../../src/services/chain-writes/loop';
import { createChainWriteAdmin } from '../../src/services/chain-writes/admin';
import { registerChainWriteMetrics } from '../../src/services/chain-writes/metrics';
import { createAuditLog } from '../../src/services/operators/audit';
import { createSuiWriter, Transaction } from '../../src/providers/sui-writer';
import { isTransientNodeError, NodeRefusedError, objectInput } from '../../src/providers/sui-write-inputs';

const BASE_MS = 100_000;
const CAP_MS = 300_000;
const CEILING = 50_000_000n;
const STORAGE_COST = 2_000_000n;

let chain: SuiChainFixture;
let t: TestDb;
const wallet = new Ed25519Keypair();
let nowMs = Date.now();
const clock = () => new Date(nowMs);
const advance = (ms: number) => {
  nowMs += ms;
};

let service: ChainWriterService;
/** The outbox's series (registered once) and the running loop's own (a registry per loop). */
let registry: Registry;
let loopRegistry = new Registry();
let loop: ChainWriterLoop | null = null;

const newWriter = () => createSuiWriter({ url: chain.graphqlUrl, transport: 'graphql', network: 'testnet', privateKey: wallet.getSecretKey(), gasCeiling: CEILING, gasMarginPercent: 20 });

function start(opts: ChainWriterLoopOptions = {}): ChainWriterLoop {
  loopRegistry = new Registry();
  loop = startChainWriterLoop({ db: t.db, service, logger: testLogger, registry: loopRegistry }, { pollMs: 20, leaseRetryMs: 50, executeTimeoutMs: 2000, backoffBaseMs: BASE_MS, backoffMaxMs: CAP_MS, maxAttempts: 8, now: clock, ...opts });
  return loop;
}

beforeAll(async () => {
  chain = await startSuiChainFixture({ events: 10 });
  chain.writes.fund(wallet.toSuiAddress());
  t = await createTestDb();
  service = createChainWriterService({ db: t.db, writer: newWriter(), packageId: chain.packageId, awaitPollMs: 20 });
  registerGiveawaySettle(service);
  registry = new Registry();
  registerChainWriteMetrics({ registry, db: t.db, logger: testLogger, now: clock });
}, 60_000);

afterEach(async () => {
  chain.setOutage(null);
  Object.assign(chain.writes.switches, { delayMs: 0, dropResponses: 0, dropRequests: 0, failNext: 0, refuseNext: 0, computationUnits: 1000 });
  chain.writes.abortWhen(null);
  await loop?.stop();
  loop = null;
});

afterAll(async () => {
  await t?.cleanup();
  await chain?.close();
});

const giveaway = () => chain.writes.addShared(`${chain.packageId}::giveaway::Giveaway`).id;
const enqueue = (id: string) => service.enqueue({ kind: GIVEAWAY_SETTLE_KIND, key: giveawaySettleKey(id), payload: { giveawayId: id } });
const read = async (id: string): Promise<ChainWriteRecord> => (await service.get(id))!;
const settledTimes = (id: string) => chain.writes.executions.filter((e) => e.calls.some((c) => c.args[0] === id)).length;
const metric = async (name: string) => Number(new RegExp(`^${name}(?:\\{[^}]*\\})? (\\S+)$`, 'm').exec((await registry.metrics()) + (await loopRegistry.metrics()))?.[1] ?? NaN);

/** Waits until the write's attempt `n` is over (a due time set, or finished), with the clock standing still. */
const attemptDone = (id: string, n: number) =>
  until(async () => {
    const r = await read(id);
    return r.attempts >= n && (r.nextAttemptAt !== null || ['confirmed', 'failed', 'cancelled'].includes(r.status)) ? r : null;
  }, `attempt ${n} of write ${id}`);

describe('transient failures', () => {
  it('retries a write through a node outage (HTTP 503) with exponential backoff up to the cap, then confirms it', async () => {
    start();
    const id = giveaway();
    chain.setOutage('http-503');
    const record = await enqueue(id);
    const delays: number[] = [];
    for (let n = 1; n <= 4; n++) {
      const failedAt = nowMs;
      const r = await attemptDone(record.id, n);
      expect(r).toMatchObject({ status: 'queued', attempts: n, digest: null });
      expect(r.error).toMatch(/^build: .*503/);
      delays.push(r.nextAttemptAt!.getTime() - failedAt);
      // Not due yet: nothing happens while the clock stands still.
      expect((await read(record.id)).attempts).toBe(n);
      advance(delays[n - 1]);
    }
    expect(delays).toEqual([BASE_MS, 2 * BASE_MS, CAP_MS, CAP_MS]);
    chain.setOutage(null);
    const done = await service.awaitOutcome(record.id, { timeoutMs: 20_000 });
    expect(done).toMatchObject({ status: 'confirmed', attempts: 5, error: null, nextAttemptAt: null, effectsStatus: 'success' });
    expect(settledTimes(id)).toBe(1);
    expect(await metric('chain_write_retries_total')).toBeGreaterThanOrEqual(4);
  });

  it('retries dropped connections too, and other due writes go on while one waits for its next attempt', async () => {
    start();
    const first = giveaway();
    chain.setOutage('reset');
    const waiting = await enqueue(first);
    const r = await attemptDone(waiting.id, 1);
    expect(r.status).toBe('queued');
    expect(r.error).toMatch(/^build: /);
    chain.setOutage(null);
    // The next write is due now; the first one waits for its backoff.
    const second = giveaway();
    const next = await service.awaitOutcome((await enqueue(second)).id, { timeoutMs: 20_000 });
    expect(next.status).toBe('confirmed');
    expect((await read(waiting.id)).status).toBe('queued');
    advance(BASE_MS);
    expect((await service.awaitOutcome(waiting.id, { timeoutMs: 20_000 })).status).toBe('confirmed');
    expect([settledTimes(first), settledTimes(second)]).toEqual([1, 1]);
  });

  it('fails a queued write after CHAIN.WRITE_MAX_ATTEMPTS transient failures, counted in chain_write_failed_total', async () => {
    start({ maxAttempts: 3 });
    const failedBefore = await metric('chain_write_failed_total');
    const id = giveaway();
    chain.setOutage('http-503');
    const record = await enqueue(id);
    await attemptDone(record.id, 1);
    advance(BASE_MS);
    await attemptDone(record.id, 2);
    advance(2 * BASE_MS);
    const done = await service.awaitOutcome(record.id, { timeoutMs: 20_000 });
    expect(done).toMatchObject({ status: 'failed', attempts: 3, nextAttemptAt: null, digest: null });
    expect(done.error).toMatch(/^gave up after 3 attempts: build: .*503/);
    expect(await metric('chain_write_failed_total')).toBe(failedBefore + 1);
    chain.setOutage(null);
    advance(CAP_MS);
    expect((await read(record.id)).status).toBe('failed');
    expect(settledTimes(id)).toBe(0);
  });

  it('keeps looking up a submitted write whose answer was lost while the node is down (never failing it), and never sends it twice', async () => {
    start({ maxAttempts: 2 });
    const id = giveaway();
    const requestsBefore = chain.writes.executeRequests;
    chain.writes.switches.dropResponses = 1;
    const record = await enqueue(id);
    const lost = await attemptDone(record.id, 1);
    expect(lost.status).toBe('submitted');
    expect(lost.error).toMatch(/^outcome unknown: /);
    // A later write waits behind it: the wallet's gas coin depends on the first one's outcome.
    const behind = await enqueue(giveaway());
    chain.setOutage('http-503');
    for (let n = 2; n <= 4; n++) {
      advance(CAP_MS);
      const r = await attemptDone(record.id, n);
      expect(r.status).toBe('submitted');
      expect(r.error).toMatch(/^look-up: .*503/);
    }
    expect(await read(behind.id)).toMatchObject({ status: 'queued', attempts: 0 });
    chain.setOutage(null);
    advance(CAP_MS);
    const done = await service.awaitOutcome(record.id, { timeoutMs: 20_000 });
    expect(done).toMatchObject({ status: 'confirmed', resolvedByDigest: true, digest: lost.digest });
    expect((await service.awaitOutcome(behind.id, { timeoutMs: 20_000 })).status).toBe('confirmed');
    expect(chain.writes.executeRequests - requestsBefore).toBe(2);
    expect(settledTimes(id)).toBe(1);
  });
});

describe('definite failures and gas', () => {
  it('fails a write whose dry run aborts at once: no retry, nothing sent', async () => {
    start();
    const id = giveaway();
    chain.writes.abortWhen((call) => (call.args[0] === id ? 'EGiveawayNotEnded' : null));
    const [simulations, requests] = [chain.writes.simulations, chain.writes.executeRequests];
    const done = await service.awaitOutcome((await enqueue(id)).id, { timeoutMs: 20_000 });
    expect(done).toMatchObject({ status: 'failed', attempts: 1, digest: null, nextAttemptAt: null, effectsStatus: null });
    expect(done.error).toMatch(/^dry run: .*EGiveawayNotEnded/);
    expect(chain.writes.simulations - simulations).toBe(1);
    expect(chain.writes.executeRequests).toBe(requests);
  });

  it('budgets gas from the dry run plus the margin, and refuses a write above the ceiling without sending it', async () => {
    start();
    const id = giveaway();
    const done = await service.awaitOutcome((await enqueue(id)).id, { timeoutMs: 20_000 });
    const dryRun = BigInt(REFERENCE_GAS_PRICE) * 1000n + STORAGE_COST;
    expect(done.gasBudget).toBe(((dryRun * 120n + 99n) / 100n).toString());
    const row = await t.prisma.chainWrite.findUniqueOrThrow({ where: { id: BigInt(done.id) } });
    expect(bcs.TransactionData.fromBase64(row.txBytes!).V1.gasData.budget).toBe(done.gasBudget);

    // 43 000 units: the dry run (45 M MIST) fits the 50 M ceiling, its budget with 20 % (54 M) does not.
    const requests = chain.writes.executeRequests;
    chain.writes.switches.computationUnits = 43_000;
    const over = await service.awaitOutcome((await enqueue(giveaway())).id, { timeoutMs: 20_000 });
    expect(over).toMatchObject({ status: 'failed', attempts: 1, digest: null });
    expect(over.error).toBe(`gas ceiling: the write needs a budget of 54000000 MIST (dry run plus margin), above CHAIN.WRITE_GAS_CEILING ${CEILING}`);
    // More than the ceiling even for the dry run.
    chain.writes.switches.computationUnits = 100_000;
    const far = await service.awaitOutcome((await enqueue(giveaway())).id, { timeoutMs: 20_000 });
    expect(far.error).toMatch(/^gas ceiling: the dry run ran out of gas/);
    expect(chain.writes.executeRequests).toBe(requests);
  });

  it('classifies node failures: no answer is transient, a definite answer is not', () => {
    class SuiGraphQLRequestError extends Error {}
    class GraphQLResponseError extends Error {}
    class RpcError extends Error {
      constructor(
        message: string,
        readonly code: string,
      ) {
        super(message);
      }
    }
    const socket = Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' });
    const transient = [
      new TypeError('fetch failed', { cause: socket }),
      new SuiGraphQLRequestError('GraphQL request failed: Service Unavailable (503)'),
      new SuiGraphQLRequestError('GraphQL request failed: Too Many Requests (429)'),
      new GraphQLResponseError('Request timed out. Limit: 40s'),
      new RpcError('unavailable', 'UNAVAILABLE'),
      new RpcError('deadline', 'DEADLINE_EXCEEDED'),
      new DOMException('The operation timed out', 'TimeoutError'),
      new NodeRefusedError('refused', { cause: new GraphQLResponseError('Internal error occurred while processing request') }),
      new AggregateError([new Error('x'), socket]),
    ];
    const definite = [
      new SuiGraphQLRequestError('GraphQL request failed: Bad Request (400)'),
      new GraphQLResponseError('Object 0x1 Version 3 Digest x is not available for consumption, current version: 4'),
      new NodeRefusedError('invalid signature', { cause: new GraphQLResponseError('invalid signature') }),
      new RpcError('bad', 'INVALID_ARGUMENT'),
      new Error('Object 0xab not found'),
      'a string',
    ];
    expect(transient.map((e) => isTransientNodeError(e))).toEqual(transient.map(() => true));
    expect(definite.map((e) => isTransientNodeError(e))).toEqual(definite.map(() => false));
  });
});

describe('a transaction that can no longer run', () => {
  it('fails a submitted write whose gas coin moved on without it; an operator retry checks it, then signs a new one, executed once', async () => {
    start();
    const id = giveaway();
    chain.writes.switches.dropRequests = 1;
    const record = await enqueue(id);
    const unsent = await attemptDone(record.id, 1);
    expect(unsent.status).toBe('submitted');
    // Another transaction of the same wallet spends the gas coin the stored bytes pay with.
    const other = newWriter();
    const spent = await other.build((tx: Transaction) => {
      tx.moveCall({ target: `${chain.packageId}::giveaway::settle`, arguments: [tx.object(objectInput(giveaway(), true)), tx.object.clock()] });
    });
    expect((await other.execute(spent)).success).toBe(true);
    advance(BASE_MS);
    const dead = await service.awaitOutcome(record.id, { timeoutMs: 20_000 });
    expect(dead).toMatchObject({ status: 'failed', digest: unsent.digest });
    expect(dead.error).toMatch(/^never executed: a gas coin of .* moved on/);

    const admin = createChainWriteAdmin({ db: t.db, audit: createAuditLog({ db: t.db }), wake: service.wake, now: clock });
    const queued = await admin.retry({ token: true }, { id: record.id }, 'req-1');
    expect(queued).toMatchObject({ status: 'queued', attempts: 0, digest: unsent.digest, lastError: null });
    const done = await service.awaitOutcome(record.id, { timeoutMs: 20_000 });
    expect(done.status).toBe('confirmed');
    expect(done.digest).not.toBe(unsent.digest);
    expect(chain.writes.executions.filter((e) => e.digest === unsent.digest)).toHaveLength(0);
    expect(settledTimes(id)).toBe(1);
    const audit = await t.prisma.operatorAudit.findMany({ where: { action: 'chain-writes.retry', target: record.id } });
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ actor: 'operator-token', requestId: 'req-1' });
  });
});
