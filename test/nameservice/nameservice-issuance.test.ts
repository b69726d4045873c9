/**
 * Sub-name issuance through the chain writer against the fixture chain (real @mysten/sui client over
 * HTTP): a claim goes pending → issued with the digest the chain executed (or failed), and a writer
 * process killed with SIGKILL while the issuing transaction is in flight is restarted and the chain
 * has executed every claim's transaction exactly once.
 */
import { randomBytes } from 'node:crypto';
import { bcs } from '@mysten/sui/bcs';
import { Ed25519Keypair } from '@mysten/sui/keypairs/ed25519';
import { fromBase64 } from '@mysten/sui/utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClaimSubnameDocument, MySubnameDocument } from '../../src/generated/graphql';
import { createTokenService } from '../../src/services/auth/tokens';
import { startSuiChainFixture, subdomainsModules, type SuiChainFixture } from '../fixtures/sui-chain';
import { startApi, type TestApi } from '../helpers/api';
import { gql } from '../helpers/client';
import { migratedTarget, type MigratedTarget } from '../helpers/db';
import { waitUntil } from '../helpers/indexer';
import { spawnMain, type SpawnedApi } from '../helpers/process';

const PARENT = 'platform.sui';
const hex64 = () => `0x${randomBytes(32).toString('hex')}`;

let chain: SuiChainFixture;
const backend = new Ed25519Keypair();
const ids = { suins: '', parentNft: '', subdomains: hex64() };

const env = (): Record<string, string> => ({
  'CHAIN.SUI_URL': chain.graphqlUrl,
  'CHAIN.SUI_TRANSPORT': 'graphql',
  'CHAIN.BACKEND_WALLET_PRIVATE_KEY': backend.getSecretKey(),
  'CHAIN.WRITE_TIMEOUT_MS': '2000',
  'CHAIN.GIVEAWAY_AUTO_SETTLEMENT_DISABLED': 'true',
  'CHAIN.NAMESERVICE_PARENT_DOMAIN': PARENT,
  'CHAIN.NAMESERVICE_PARENT_NFT_ID': ids.parentNft,
  'CHAIN.NAMESERVICE_SUINS_OBJECT_ID': ids.suins,
  'CHAIN.NAMESERVICE_SUBDOMAINS_PACKAGE_ID': ids.subdomains,
  // Everyone is eligible here: eligibility has its own tests (nameservice-claims.test.ts).
  'CHAIN.NAMESERVICE_MIN_VIP_LEVEL': '0',
  INDEXER_DISABLED: 'true',
});

/** Executed `subdomains::new` transactions, in execution order (object arguments as ids). */
const executedIssues = () =>
  chain.writes.executions.flatMap((e) => e.calls.filter((c) => c.target === `${ids.subdomains}::subdomains::new`).map((c) => ({ digest: e.digest, objects: c.args.slice(0, 3), success: e.success })));

/** What a stored, signed write asks the chain to do: the call's pure arguments and the recipient. */
function decodeWrite(txBytes: string) {
  const ptb = bcs.TransactionData.fromBase64(txBytes).V1.kind.ProgrammableTransaction!;
  const pure = (arg: unknown) => fromBase64(ptb.inputs[(arg as { Input: number }).Input].Pure!.bytes);
  const [call, transfer] = ptb.commands;
  const args = call.MoveCall!.arguments;
  return {
    target: `${call.MoveCall!.package}::${call.MoveCall!.module}::${call.MoveCall!.function}`,
    name: bcs.string().parse(pure(args[3])),
    expirationMs: bcs.u64().parse(pure(args[4])),
    allow: [bcs.bool().parse(pure(args[5])), bcs.bool().parse(pure(args[6]))],
    recipient: bcs.Address.parse(pure(transfer.TransferObjects!.address)),
  };
}

beforeAll(async () => {
  chain = await startSuiChainFixture({ events: 10 });
  chain.writes.fund(backend.toSuiAddress());
  // The writer checks `subdomains::new` on the node before it issues anything.
  chain.packages.set(ids.subdomains, subdomainsModules(ids.subdomains));
  ids.suins = chain.writes.addShared('0x2::object::UID').id;
  ids.parentNft = chain.writes.addOwned(backend.toSuiAddress(), `${ids.subdomains}::suins_registration::SuinsRegistration`).id;
});
afterAll(async () => chain?.close());

describe('issuance through the chain writer (api + jobs in this process)', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startApi({ env: env(), roles: ['api', 'jobs'] });
  }, 180_000);
  afterAll(async () => api?.close());

  const bearer = (wallet: string) => ({ authorization: `Bearer ${api.services.tokens.signAccess(wallet)}` });

  it('goes pending → issued with the digest of the one transaction the chain executed', async () => {
    const wallet = hex64();
    const label = `ace${randomBytes(4).toString('hex')}`;
    const claimed = await gql(api.url, ClaimSubnameDocument, { label }, bearer(wallet));
    expect(claimed.body.data?.claimSubname).toMatchObject({ status: 'pending', txDigest: null, name: `${label}.${PARENT}` });
    const expiresAt = Date.parse(claimed.body.data!.claimSubname.expiresAt);

    let issued: { status: string; txDigest: string | null } | null | undefined;
    await waitUntil(async () => {
      issued = (await gql(api.url, MySubnameDocument, {}, bearer(wallet))).body.data?.mySubname;
      return issued?.status !== 'pending';
    }, 30_000, 'the sub-name to be issued');
    const write = await api.db.prisma.chainWrite.findUniqueOrThrow({ where: { idempotencyKey: `nameservice.subname:${wallet}` } });
    const executed = executedIssues().filter((e) => e.digest === write.digest);
    expect(executed).toHaveLength(1);
    expect(issued).toMatchObject({ status: 'issued', txDigest: executed[0].digest });
    expect(executed[0].objects[0]).toBe(ids.suins);
    expect(executed[0].objects[1]).toBe(ids.parentNft);
    expect(executed[0].objects[2]).toMatch(/^0x0*6$/);
    expect(decodeWrite(write.txBytes!)).toEqual({
      target: `${ids.subdomains}::subdomains::new`,
      name: `${label}.${PARENT}`,
      expirationMs: String(expiresAt),
      allow: [false, false],
      recipient: wallet,
    });
  });

  it('shows failed when the chain refuses the transaction, and the player keeps the one claim', async () => {
    const wallet = hex64();
    const label = `doomed${randomBytes(4).toString('hex')}`;
    chain.writes.switches.failNext = 1;
    const res = await fetch(`${api.url}/api/nameservice/subname`, { method: 'POST', headers: { 'content-type': 'application/json', ...bearer(wallet) }, body: JSON.stringify({ label }) });
    expect(res.status).toBe(201);
    let mine: { subname: { status: string; txDigest: string | null } } | undefined;
    await waitUntil(async () => {
      mine = await fetch(`${api.url}/api/nameservice/subname`, { headers: bearer(wallet) }).then((r) => r.json());
      return mine?.subname.status !== 'pending';
    }, 30_000, 'the write to finish');
    const write = await api.db.prisma.chainWrite.findUniqueOrThrow({ where: { idempotencyKey: `nameservice.subname:${wallet}` } });
    const executed = executedIssues().filter((e) => e.digest === write.digest);
    expect(executed.map((e) => e.success)).toEqual([false]);
    expect(mine!.subname).toMatchObject({ status: 'failed', txDigest: write.digest });
  });
});

describe('a writer process killed with SIGKILL mid-write', () => {
  let target: MigratedTarget;
  const children: SpawnedApi[] = [];
  const jwtSecret = randomBytes(24).toString('hex');
  const tokens = createTokenService({ secret: jwtSecret, issuer: 'platform-backend', accessTtlSeconds: 3600 });

  beforeAll(async () => {
    target = await migratedTarget('nameservice-kill-');
  });
  afterAll(async () => {
    // A killed child has exited already (stop() would wait for an exit that came).
    for (const c of children) if (c.child.exitCode === null && c.child.signalCode === null) await c.stop();
    await target?.cleanup();
  });

  const start = async () => {
    const child = await spawnMain(['--role', 'api,jobs'], { ...env(), ...target.env, JWT_SECRET: jwtSecret, CACHE_STORE: 'memory', LOG_LEVEL: 'info' }, 180_000);
    children.push(child);
    return child;
  };

  it('is restarted and every claim is issued by exactly one execution', async () => {
    const wallets = Array.from({ length: 3 }, hex64);
    const names = wallets.map((_, i) => `kill${i}${randomBytes(3).toString('hex')}`);
    let child = await start();
    const requestsBefore = chain.writes.executeRequests;
    // The first transaction stays in flight on the node long enough to kill the writer under it.
    chain.writes.switches.delayMs = 3000;
    for (const [i, wallet] of wallets.entries()) {
      const res = await fetch(`${child.url}/api/nameservice/subname`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${tokens.signAccess(wallet)}` },
        body: JSON.stringify({ label: names[i] }),
      });
      expect(res.status).toBe(201);
    }
    await waitUntil(() => chain.writes.executeRequests > requestsBefore, 60_000, 'the first issuing transaction to reach the chain');
    child.child.kill('SIGKILL');
    await new Promise((r) => (child.child.exitCode !== null || child.child.signalCode !== null ? r(null) : child.child.once('exit', r)));
    chain.writes.switches.delayMs = 0;

    // The write the dead process left behind is `submitted`: digest and signed bytes stored, no outcome.
    const db = await target.open();
    try {
      const rows = await db.query<{ status: string; digest: string | null }>("SELECT status, digest FROM chain_write WHERE kind = 'nameservice.subname' ORDER BY id");
      expect(rows.map((r) => r.status)).toEqual(['submitted', 'queued', 'queued']);
    } finally {
      await db.close();
    }

    child = await start();
    const statusOf = async (wallet: string) =>
      (await fetch(`${child.url}/api/nameservice/subname`, { headers: { authorization: `Bearer ${tokens.signAccess(wallet)}` } }).then((r) => r.json())).subname;
    await waitUntil(async () => (await Promise.all(wallets.map(statusOf))).every((s) => s.status === 'issued'), 60_000, 'every sub-name to be issued');

    const digests: string[] = [];
    for (const wallet of wallets) digests.push((await statusOf(wallet)).txDigest);
    await child.stop();

    // Each claim's stored, signed transaction is the one the chain executed, exactly once.
    const db2 = await target.open();
    try {
      const rows = await db2.query<{ idempotency_key: string; status: string; digest: string; tx_bytes: string; resolved_by_digest: boolean }>(
        "SELECT idempotency_key, status, digest, tx_bytes, resolved_by_digest FROM chain_write WHERE kind = 'nameservice.subname' ORDER BY id",
      );
      expect(rows.map((r) => [r.idempotency_key, r.status, r.resolved_by_digest])).toEqual([
        [`nameservice.subname:${wallets[0]}`, 'confirmed', true],
        [`nameservice.subname:${wallets[1]}`, 'confirmed', false],
        [`nameservice.subname:${wallets[2]}`, 'confirmed', false],
      ]);
      expect(rows.map((r) => r.digest)).toEqual(digests);
      expect(rows.map((r) => decodeWrite(r.tx_bytes).name)).toEqual(names.map((n) => `${n}.${PARENT}`));
      expect(rows.map((r) => decodeWrite(r.tx_bytes).recipient)).toEqual(wallets);
      const executions = executedIssues();
      for (const digest of digests) expect(executions.filter((e) => e.digest === digest)).toHaveLength(1);
    } finally {
      await db2.close();
    }
  }, 600_000);
});
