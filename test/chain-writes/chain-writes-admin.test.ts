/**
 * The operators' chain-write routes (/api/admin/chain-writes and their GraphQL twins) against the
 * fixture chain, api + jobs in this process: 401 without a token, 403 for a wallet without the
 * role and after revocation, VALIDATION_FAILED with field details, 404 for an unknown write; 100
 * parallel retries of one failed write (REST and GraphQL, two replicas) queue it once: one 200,
 * 99 × 409, one audit row, one transaction sent; a queued write is cancelled and never sent, a
 * submitted one cannot be (409); a write failed past its retries is in the list and in /metrics,
 * as is the oldest pending write.
 */
import { randomBytes } from 'node:crypto';
import { Ed25519Keypair } from '@mysten/sui/keypairs/ed25519';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CancelChainWriteDocument, ChainWriteDocument, ChainWritesDocument, RetryChainWriteDocument } from '../../src/generated/graphql';
import { giveawaySettleKey, GIVEAWAY_SETTLE_KIND } from '../../src/services/giveaways/service';
import { startSuiChainFixture, type SuiChainFixture } from '../fixtures/sui-chain';
import { startApi, type TestApi } from '../helpers/api';
import { gql } from '../helpers/client';
import { until } from '../helpers/until';

const OPERATOR = `0x${randomBytes(32).toString('hex')}`;
const OPERATOR_TOKEN = randomBytes(24).toString('hex');
const STORE_PREFIX = `chain-writes-${randomBytes(4).toString('hex')}`;
const backend = new Ed25519Keypair();
let chain: SuiChainFixture;
let api: TestApi;
/** A second API replica on the same database (no writer): parallel retries reach both. */
let replica: TestApi;

const env = (): Record<string, string> => ({
  'CHAIN.SUI_URL': chain.graphqlUrl,
  'CHAIN.SUI_TRANSPORT': 'graphql',
  'CHAIN.BACKEND_WALLET_PRIVATE_KEY': backend.getSecretKey(),
  PLATFORM_PACKAGE_ID: chain.packageId,
  'CHAIN.WRITE_TIMEOUT_MS': '5000',
  'CHAIN.WRITE_MAX_ATTEMPTS': '2',
  'CHAIN.WRITE_BACKOFF_BASE_MS': '20',
  'CHAIN.WRITE_BACKOFF_MAX_MS': '50',
  'CHAIN.GIVEAWAY_AUTO_SETTLEMENT_DISABLED': 'true',
  'HTTP.RATE_LIMIT_MAX': '10000',
  INDEXER_DISABLED: 'true',
  OPERATOR_WALLETS: OPERATOR,
  OPERATOR_TOKEN,
});

beforeAll(async () => {
  chain = await startSuiChainFixture({ events: 10 });
  chain.writes.fund(backend.toSuiAddress());
  api = await startApi({ roles: ['api', 'jobs'], storePrefix: STORE_PREFIX, env: env() });
  replica = await startApi({ db: api.db, storePrefix: STORE_PREFIX, env: env() });
}, 120_000);

afterEach(() => {
  chain.setOutage(null);
  Object.assign(chain.writes.switches, { delayMs: 0, dropResponses: 0, dropRequests: 0, failNext: 0, refuseNext: 0 });
});

afterAll(async () => {
  await replica?.close();
  await api?.close();
  await chain?.close();
});

const newWallet = () => `0x${randomBytes(32).toString('hex')}`;
const bearer = (wallet: string) => ({ authorization: `Bearer ${api.services.tokens.signAccess(wallet)}` });
const operator = () => bearer(OPERATOR);

async function call(method: string, path: string, headers: Record<string, string> = {}) {
  const res = await fetch(`${api.url}${path}`, { method, headers });
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- answers of several shapes, read field by field
  return { status: res.status, body: (await res.json()) as Record<string, any> };
}

/** A giveaway-settlement write of a fresh giveaway on the fixture chain (any kind will do). */
async function write() {
  const giveawayId = chain.writes.addShared(`${chain.packageId}::giveaway::Giveaway`).id;
  const record = await api.services.chainWriter.enqueue({ kind: GIVEAWAY_SETTLE_KIND, key: giveawaySettleKey(giveawayId), payload: { giveawayId } });
  return { giveawayId, id: record.id };
}

const settlements = (giveawayId: string) => chain.writes.executions.filter((e) => e.calls.some((c) => c.args[0] === giveawayId));
const auditRows = (action: string, target: string) => api.db.prisma.operatorAudit.findMany({ where: { action, target }, orderBy: { id: 'asc' } });
const finished = (id: string) => api.services.chainWriter.awaitOutcome(id, { timeoutMs: 20_000 });

async function metric(name: string): Promise<number> {
  const text = await (await fetch(`${api.url}/metrics`)).text();
  const line = new RegExp(`^${name} (\\S+)$`, 'm').exec(text);
  if (!line) throw new Error(`${name} is not in /metrics`);
  return Number(line[1]);
}

describe('operator access and input', () => {
  it('refuses each route without a token (401) and for a wallet without the role (403), over REST and GraphQL', async () => {
    const { id } = await write();
    const player = bearer(newWallet());
    for (const [method, path] of [
      ['GET', '/api/admin/chain-writes'],
      ['GET', `/api/admin/chain-writes/${id}`],
      ['POST', `/api/admin/chain-writes/${id}/retry`],
      ['POST', `/api/admin/chain-writes/${id}/cancel`],
    ] as const) {
      const anonymous = await call(method, path);
      expect(anonymous.status, `${method} ${path}`).toBe(401);
      expect(anonymous.body.error.code).toBe('UNAUTHENTICATED');
      const stranger = await call(method, path, player);
      expect(stranger.status, `${method} ${path}`).toBe(403);
      expect(stranger.body.error.code).toBe('FORBIDDEN');
    }
    const operations = [
      gql(api.url, ChainWritesDocument, {}, player),
      gql(api.url, ChainWriteDocument, { id }, player),
      gql(api.url, RetryChainWriteDocument, { id }, player),
      gql(api.url, CancelChainWriteDocument, { id }, player),
      gql(api.url, ChainWritesDocument, {}),
      gql(api.url, CancelChainWriteDocument, { id }),
    ];
    expect((await Promise.all(operations)).map((r) => r.body.errors?.[0]?.extensions?.code)).toEqual(['FORBIDDEN', 'FORBIDDEN', 'FORBIDDEN', 'FORBIDDEN', 'UNAUTHENTICATED', 'UNAUTHENTICATED']);
    expect(await api.db.prisma.operatorAudit.count({ where: { target: id } })).toBe(0);
    await finished(id);
  });

  it('admits a granted operator wallet and refuses it (403) at once after revocation', async () => {
    const grantee = newWallet();
    expect((await fetch(`${api.url}/api/admin/operators`, { method: 'POST', headers: { ...operator(), 'content-type': 'application/json' }, body: JSON.stringify({ wallet: grantee }) })).status).toBe(200);
    expect((await call('GET', '/api/admin/chain-writes', bearer(grantee))).status).toBe(200);
    expect((await call('DELETE', `/api/admin/operators/${grantee}`, operator())).status).toBe(200);
    const { id } = await write();
    for (const [method, path] of [
      ['GET', '/api/admin/chain-writes'],
      ['GET', `/api/admin/chain-writes/${id}`],
      ['POST', `/api/admin/chain-writes/${id}/retry`],
      ['POST', `/api/admin/chain-writes/${id}/cancel`],
    ] as const) {
      const revoked = await call(method, path, bearer(grantee));
      expect(revoked.status, `${method} ${path}`).toBe(403);
      expect(revoked.body.error.code).toBe('FORBIDDEN');
    }
    expect((await gql(api.url, RetryChainWriteDocument, { id }, bearer(grantee))).body.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    await finished(id);
  });

  it('refuses bad input with field details (400) and an unknown write (404), on REST and GraphQL', async () => {
    const bad = [
      ['GET', '/api/admin/chain-writes?status=pending', '/status'],
      ['GET', '/api/admin/chain-writes?limit=0', '/limit'],
      ['GET', '/api/admin/chain-writes?cursor=abc', '/cursor'],
      ['GET', '/api/admin/chain-writes/abc', '/id'],
      ['POST', '/api/admin/chain-writes/-1/retry', '/id'],
      ['POST', '/api/admin/chain-writes/1.5/cancel', '/id'],
    ] as const;
    for (const [method, path, field] of bad) {
      const res = await call(method, path, operator());
      expect(res.status, `${method} ${path}`).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_FAILED');
      expect(res.body.error.details.issues).toEqual([expect.objectContaining({ path: field })]);
    }
    for (const [method, path] of [
      ['GET', '/api/admin/chain-writes/999999999'],
      ['POST', '/api/admin/chain-writes/999999999/retry'],
      ['POST', '/api/admin/chain-writes/999999999/cancel'],
    ] as const) {
      const res = await call(method, path, operator());
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.body.error.code).toBe('NOT_FOUND');
    }
    const viaGraphql = await gql(api.url, ChainWritesDocument, { status: 'nope' }, operator());
    expect(viaGraphql.body.errors?.[0]?.extensions?.code).toBe('VALIDATION_FAILED');
    expect((await gql(api.url, RetryChainWriteDocument, { id: 'x' }, operator())).body.errors?.[0]?.extensions?.code).toBe('VALIDATION_FAILED');
  });
});

describe('retry', () => {
  it('queues a failed write once for 100 parallel retries (REST and GraphQL, two replicas): one 200, 409 for the rest, one audit row, one transaction sent', async () => {
    const { id, giveawayId } = await write();
    chain.writes.switches.failNext = 1;
    const failed = await finished(id);
    expect(failed).toMatchObject({ status: 'failed', effectsStatus: 'failure' });
    const requests = chain.writes.executeRequests;

    const answers = await Promise.all(
      Array.from({ length: 100 }, async (_, i) => {
        const url = i % 4 < 2 ? api.url : replica.url;
        if (i % 2) {
          const res = await fetch(`${url}/api/admin/chain-writes/${id}/retry`, { method: 'POST', headers: operator() });
          // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a write or an error
          const body = (await res.json()) as Record<string, any>;
          return { ok: res.status === 200, status: res.status, code: body.error?.code, writeStatus: body.status ?? body.error?.details?.status };
        }
        const res = await gql(url, RetryChainWriteDocument, { id }, operator());
        const error = res.body.errors?.[0];
        return { ok: !error, status: error ? 409 : 200, code: error?.extensions?.code, writeStatus: res.body.data?.retryChainWrite.status ?? (error?.extensions?.details as { status?: string })?.status };
      }),
    );
    const won = answers.filter((a) => a.ok);
    expect(won).toEqual([expect.objectContaining({ status: 200, writeStatus: 'queued' })]);
    const refused = answers.filter((a) => !a.ok);
    expect(refused).toHaveLength(99);
    expect(new Set(refused.map((a) => a.code))).toEqual(new Set(['CONFLICT']));
    expect(refused.every((a) => ['queued', 'submitted', 'confirmed'].includes(a.writeStatus))).toBe(true);

    const done = await finished(id);
    expect(done.status).toBe('confirmed');
    expect(done.digest).not.toBe(failed.digest);
    expect(chain.writes.executeRequests - requests).toBe(1);
    expect(settlements(giveawayId).map((e) => e.success)).toEqual([false, true]);
    const audit = await auditRows('chain-writes.retry', id);
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ actor: OPERATOR, before: expect.objectContaining({ status: 'failed', digest: failed.digest }), after: expect.objectContaining({ status: 'queued', attempts: 0 }) });
    expect(audit[0].requestId).toBeTruthy();
    // A confirmed write is not retried.
    const again = await call('POST', `/api/admin/chain-writes/${id}/retry`, operator());
    expect(again.status).toBe(409);
    expect(again.body.error.details).toEqual({ id, status: 'confirmed' });
  });
});

describe('cancel', () => {
  it('cancels a queued write (never sent) and refuses a submitted one (409), each effective action audited once', async () => {
    chain.writes.switches.delayMs = 1500;
    const held = await write();
    const waiting = await write();
    await until(async () => (await api.services.chainWriter.get(held.id))?.status === 'submitted', 'the first write to be submitted');
    expect(await metric('chain_write_oldest_pending_seconds')).toBeGreaterThan(0);

    const submitted = await call('POST', `/api/admin/chain-writes/${held.id}/cancel`, operator());
    expect(submitted.status).toBe(409);
    expect(submitted.body.error).toMatchObject({ code: 'CONFLICT', details: { id: held.id, status: 'submitted' } });
    const cancelled = await gql(api.url, CancelChainWriteDocument, { id: waiting.id }, { authorization: `Bearer ${OPERATOR_TOKEN}` });
    expect(cancelled.body.data?.cancelChainWrite).toMatchObject({ id: waiting.id, status: 'cancelled', digest: null });

    expect((await finished(held.id)).status).toBe('confirmed');
    // The queue moved on without the cancelled write: nothing of it reached the chain.
    const next = await write();
    expect((await finished(next.id)).status).toBe('confirmed');
    expect(settlements(waiting.giveawayId)).toHaveLength(0);
    expect(await api.services.chainWriter.get(waiting.id)).toMatchObject({ status: 'cancelled', digest: null });

    const twice = await call('POST', `/api/admin/chain-writes/${waiting.id}/cancel`, operator());
    expect(twice.status).toBe(409);
    expect(twice.body.error.details.status).toBe('cancelled');
    expect(await auditRows('chain-writes.cancel', held.id)).toHaveLength(0);
    const audit = await auditRows('chain-writes.cancel', waiting.id);
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ actor: 'operator-token', before: expect.objectContaining({ status: 'queued' }), after: expect.objectContaining({ status: 'cancelled' }) });
    expect(await metric('chain_write_oldest_pending_seconds')).toBe(0);
  });
});

describe('failures past their retries', () => {
  it('shows a write that failed past CHAIN.WRITE_MAX_ATTEMPTS in the list (by status, paged) and in chain_write_failed_total', async () => {
    const failedBefore = await metric('chain_write_failed_total');
    chain.setOutage('http-503');
    const { id, giveawayId } = await write();
    const done = await finished(id);
    chain.setOutage(null);
    expect(done).toMatchObject({ status: 'failed', attempts: 2 });
    expect(await metric('chain_write_failed_total')).toBe(failedBefore + 1);

    const list = await call('GET', '/api/admin/chain-writes?status=failed&limit=200', operator());
    expect(list.status).toBe(200);
    const shown = list.body.items.find((w: { id: string }) => w.id === id);
    expect(shown).toMatchObject({ id, kind: GIVEAWAY_SETTLE_KIND, key: giveawaySettleKey(giveawayId), status: 'failed', attempts: 2, digest: null, nextAttemptAt: null, payload: { giveawayId } });
    expect(shown.lastError).toMatch(/^gave up after 2 attempts: build: .*503/);
    expect(list.body.items.every((w: { status: string }) => w.status === 'failed')).toBe(true);
    const one = await call('GET', `/api/admin/chain-writes/${id}`, operator());
    expect(one.body).toEqual(shown);
    const viaGraphql = (await gql(api.url, ChainWriteDocument, { id }, operator())).body.data?.chainWrite;
    expect({ ...viaGraphql, payload: JSON.parse(viaGraphql!.payload) }).toEqual(shown);

    // Newest first, one page at a time.
    const first = await call('GET', '/api/admin/chain-writes?limit=2', operator());
    expect(first.body.items).toHaveLength(2);
    expect(Number(first.body.items[0].id)).toBeGreaterThan(Number(first.body.items[1].id));
    const second = (await gql(api.url, ChainWritesDocument, { limit: 2, cursor: first.body.nextCursor }, operator())).body.data!.chainWrites;
    expect(Number(second.items[0].id)).toBeLessThan(Number(first.body.items[1].id));
  });
});
