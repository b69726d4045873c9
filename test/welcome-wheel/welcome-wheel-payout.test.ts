/**
 * Welcome-wheel payouts through the chain writer, against the fixture chain (api + jobs in this
 * process, over real HTTP): a spin's payout goes pending → submitted → confirmed with the digest
 * of the one `welcome_wheel::payout` the chain executed, as the player sees it over REST and
 * GraphQL; an answer lost after the node executed it is found by digest and never sent twice; a
 * node outage shows as attempts and a next attempt time, then confirms; a payout that failed on
 * chain shows `failed` until an operator's retry pays it; parallel spins pay once.
 */
import { randomBytes } from 'node:crypto';
import { bcs } from '@mysten/sui/bcs';
import { Ed25519Keypair } from '@mysten/sui/keypairs/ed25519';
import { fromBase64 } from '@mysten/sui/utils';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MyWelcomeWheelSpinDocument, SpinWelcomeWheelDocument } from '../../src/generated/graphql';
import { payoutWriteKey } from '../../src/services/welcome-wheel';
import { startSuiChainFixture, type SuiChainFixture } from '../fixtures/sui-chain';
import { startApi, type TestApi } from '../helpers/api';
import { gql } from '../helpers/client';
import { until } from '../helpers/until';

const OPERATOR = `0x${randomBytes(32).toString('hex')}`;
const backend = new Ed25519Keypair();
let chain: SuiChainFixture;
let pool: string;
let api: TestApi;

beforeAll(async () => {
  chain = await startSuiChainFixture({ events: 10 });
  chain.writes.fund(backend.toSuiAddress());
  pool = chain.writes.addShared(`${chain.packageId}::welcome_wheel::WheelPool`).id;
  api = await startApi({
    roles: ['api', 'jobs'],
    env: {
      'CHAIN.SUI_URL': chain.graphqlUrl,
      'CHAIN.SUI_TRANSPORT': 'graphql',
      'CHAIN.BACKEND_WALLET_PRIVATE_KEY': backend.getSecretKey(),
      PLATFORM_PACKAGE_ID: chain.packageId,
      'CHAIN.WELCOME_WHEEL_POOL_ID': pool,
      'CHAIN.WRITE_TIMEOUT_MS': '2000',
      'CHAIN.WRITE_MAX_ATTEMPTS': '50',
      'CHAIN.WRITE_BACKOFF_BASE_MS': '50',
      'CHAIN.WRITE_BACKOFF_MAX_MS': '200',
      'CHAIN.GIVEAWAY_AUTO_SETTLEMENT_DISABLED': 'true',
      INDEXER_DISABLED: 'true',
      OPERATOR_WALLETS: OPERATOR,
    },
  });
}, 120_000);

afterEach(() => {
  chain.setOutage(null);
  Object.assign(chain.writes.switches, { delayMs: 0, dropResponses: 0, dropRequests: 0, failNext: 0, refuseNext: 0 });
});

afterAll(async () => {
  await api?.close();
  await chain?.close();
});

const newWallet = () => `0x${randomBytes(32).toString('hex')}`;
const bearer = (wallet: string) => ({ authorization: `Bearer ${api.services.tokens.signAccess(wallet)}` });

interface Payout {
  status: string;
  txDigest: string | null;
  attempts: number;
  nextAttemptAt: string | null;
}

async function spin(wallet: string): Promise<{ reward: number; payout: Payout }> {
  const res = await fetch(`${api.url}/api/welcome-wheel/spin`, { method: 'POST', headers: bearer(wallet) });
  expect(res.status).toBe(200);
  return res.json();
}

async function payoutOf(wallet: string): Promise<Payout> {
  const res = await fetch(`${api.url}/api/welcome-wheel/me`, { headers: bearer(wallet) });
  return ((await res.json()) as { spin: { payout: Payout } }).spin.payout;
}

const waitPayout = (wallet: string, done: (p: Payout) => boolean, what: string) =>
  until(async () => {
    const p = await payoutOf(wallet);
    return done(p) ? p : null;
  }, what, 20_000);

/** The executed payouts to `wallet`: digest, success, and the call's arguments decoded. */
function paidTo(wallet: string) {
  return chain.writes.executions.flatMap((e) =>
    e.calls
      .filter((c) => c.target === `${chain.packageId}::welcome_wheel::payout` && bcs.Address.parse(fromBase64(c.args[1])) === wallet)
      .map((c) => ({ digest: e.digest, success: e.success, pool: c.args[0], reward: Number(bcs.u64().parse(fromBase64(c.args[2]))) })),
  );
}

const writeOf = (wallet: string) => api.db.prisma.chainWrite.findUniqueOrThrow({ where: { idempotencyKey: payoutWriteKey(wallet) } });

describe('welcome-wheel payouts', () => {
  it('goes pending → submitted → confirmed with the digest of the one payout the chain executed, over REST and GraphQL', async () => {
    const wallet = newWallet();
    // The node takes its time: the payout is seen `submitted` in between.
    chain.writes.switches.delayMs = 1000;
    const spun = await spin(wallet);
    expect(['pending', 'submitted']).toContain(spun.payout.status);
    expect(spun.payout.txDigest).toBeNull();
    const submitted = await until(async () => {
      const mine = (await gql(api.url, MyWelcomeWheelSpinDocument, {}, bearer(wallet))).body.data?.myWelcomeWheelSpin;
      return mine?.payout.status === 'submitted' ? mine.payout : null;
    }, 'the payout to be submitted');
    expect(submitted).toEqual({ status: 'submitted', txDigest: null, attempts: 1, nextAttemptAt: null });
    const confirmed = await waitPayout(wallet, (p) => p.status === 'confirmed', 'the payout to be confirmed');
    const paid = paidTo(wallet);
    expect(paid).toEqual([{ digest: confirmed.txDigest, success: true, pool, reward: spun.reward }]);
    expect(confirmed).toEqual({ status: 'confirmed', txDigest: paid[0].digest, attempts: 1, nextAttemptAt: null });
    const viaGraphql = (await gql(api.url, SpinWelcomeWheelDocument, {}, bearer(wallet))).body.data?.spinWelcomeWheel;
    expect(viaGraphql?.payout).toEqual(confirmed);
    expect((await writeOf(wallet)).gasBudget?.toFixed(0)).toMatch(/^\d+$/);
  });

  it('finds a payout whose answer was lost after the node executed it by its digest, and never sends it again', async () => {
    const wallet = newWallet();
    const requests = chain.writes.executeRequests;
    chain.writes.switches.dropResponses = 1;
    await spin(wallet);
    const confirmed = await waitPayout(wallet, (p) => p.status === 'confirmed', 'the payout to be confirmed');
    expect(chain.writes.executeRequests - requests).toBe(1);
    expect(paidTo(wallet).map((p) => p.digest)).toEqual([confirmed.txDigest]);
    expect(await writeOf(wallet)).toMatchObject({ status: 'confirmed', resolvedByDigest: true, digest: confirmed.txDigest, attempts: 2 });
  });

  it('shows a payout retried through a node outage (attempts, next attempt), then confirmed', async () => {
    const wallet = newWallet();
    chain.setOutage('http-503');
    await spin(wallet);
    const waiting = await waitPayout(wallet, (p) => p.attempts >= 2, 'two failed attempts');
    expect(waiting.status).toBe('pending');
    expect(Date.parse(waiting.nextAttemptAt!)).toBeGreaterThan(0);
    chain.setOutage(null);
    const confirmed = await waitPayout(wallet, (p) => p.status === 'confirmed', 'the payout to be confirmed');
    expect(confirmed.attempts).toBeGreaterThan(2);
    expect(confirmed.nextAttemptAt).toBeNull();
    expect(paidTo(wallet)).toHaveLength(1);
  });

  it('shows a payout that failed on chain as failed until an operator retries it, then pays it once', async () => {
    const wallet = newWallet();
    chain.writes.switches.failNext = 1;
    await spin(wallet);
    const failed = await waitPayout(wallet, (p) => p.status === 'failed', 'the payout to fail');
    expect(paidTo(wallet)).toEqual([expect.objectContaining({ digest: failed.txDigest, success: false })]);
    const write = await writeOf(wallet);
    const retried = await fetch(`${api.url}/api/admin/chain-writes/${write.id}/retry`, { method: 'POST', headers: bearer(OPERATOR) });
    expect(retried.status).toBe(200);
    const confirmed = await waitPayout(wallet, (p) => p.status === 'confirmed', 'the retried payout to be confirmed');
    expect(confirmed.txDigest).not.toBe(failed.txDigest);
    expect(paidTo(wallet).map((p) => p.success)).toEqual([false, true]);
  });

  it('pays a wallet once for 50 parallel spins (one write, one transaction)', async () => {
    const wallet = newWallet();
    const answers = await Promise.all(Array.from({ length: 50 }, () => spin(wallet)));
    expect(new Set(answers.map((a) => a.reward)).size).toBe(1);
    await waitPayout(wallet, (p) => p.status === 'confirmed', 'the payout to be confirmed');
    expect(await api.db.prisma.chainWrite.count({ where: { idempotencyKey: payoutWriteKey(wallet) } })).toBe(1);
    expect(paidTo(wallet)).toHaveLength(1);
  });
});
