/**
 * Name-service sub-name claims over real HTTP (REST and GraphQL, codegen'd documents): label rules,
 * VIP eligibility from indexed VIP events, one sub-name per player and per label even for racing
 * claims (REST and GraphQL mixed, two replicas of one database), the chain write each claim queues,
 * and the transaction its builder makes. Only the api role runs: writes stay pending here (the
 * issuance through the writer is in nameservice-issuance.test.ts).
 */
import { randomBytes } from 'node:crypto';
import { Ed25519Keypair } from '@mysten/sui/keypairs/ed25519';
import { Transaction } from '@mysten/sui/transactions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClaimSubnameDocument, MySubnameDocument, SubnameEligibilityDocument } from '../../src/generated/graphql';
import { NAMESERVICE_SUBNAME_KIND } from '../../src/services/nameservice/subname';
import { startApi, type TestApi } from '../helpers/api';
import { gql } from '../helpers/client';

const PARENT = 'platform.sui';
const MIN_VIP = 3;
const DAYS = 30;
const hex64 = () => `0x${randomBytes(32).toString('hex')}`;
const ids = { parentNft: hex64(), suins: hex64(), subdomains: hex64() };

const nameserviceEnv = (suiUrl: string): Record<string, string> => ({
  'CHAIN.SUI_URL': suiUrl,
  'CHAIN.BACKEND_WALLET_PRIVATE_KEY': new Ed25519Keypair().getSecretKey(),
  'CHAIN.NAMESERVICE_PARENT_DOMAIN': PARENT,
  'CHAIN.NAMESERVICE_PARENT_NFT_ID': ids.parentNft,
  'CHAIN.NAMESERVICE_SUINS_OBJECT_ID': ids.suins,
  'CHAIN.NAMESERVICE_SUBDOMAINS_PACKAGE_ID': ids.subdomains,
  'CHAIN.NAMESERVICE_MIN_VIP_LEVEL': String(MIN_VIP),
  'CHAIN.NAMESERVICE_SUBNAME_EXPIRATION_DAYS': String(DAYS),
});

let api: TestApi;
let eventSeq = 0;

beforeAll(async () => {
  // Nothing listens there: the api role never calls the node (no writer loop in this process).
  api = await startApi({ env: nameserviceEnv('http://127.0.0.1:9/graphql') });
}, 180_000);
afterAll(async () => api?.close());

const bearer = (wallet: string) => ({ authorization: `Bearer ${api.services.tokens.signAccess(wallet)}` });
const uniqueLabel = (prefix = 'p') => `${prefix}${randomBytes(6).toString('hex')}`;

/** Indexed VIP progress for the player, as the indexer stores it. */
async function vipEvent(player: string, totalExp: number, vipLevel: number) {
  eventSeq++;
  await api.db.query(
    `INSERT INTO vip_exp_progress_event (tx_digest, event_seq, checkpoint, timestamp_ms, sender, player, exp_gained, total_exp, vip_level)
     VALUES ($1, $2, 1, now(), $3, $3, 1, $4, $5)`,
    [`digest-${eventSeq}`, eventSeq, player, totalExp, vipLevel],
  );
}

async function vipPlayer(level = MIN_VIP): Promise<string> {
  const wallet = hex64();
  await vipEvent(wallet, 1000 * level, level);
  return wallet;
}

async function claimRest(wallet: string | null, body: unknown) {
  const res = await fetch(`${api.url}/api/nameservice/subname`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(wallet ? bearer(wallet) : {}) },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

async function claimGraphql(wallet: string, label: string) {
  const res = await gql(api.url, ClaimSubnameDocument, { label }, bearer(wallet));
  const error = res.body.errors?.[0];
  return { data: res.body.data?.claimSubname ?? null, code: error?.extensions?.code as string | undefined, details: error?.extensions?.details };
}

describe('sub-name labels', () => {
  it('are refused with VALIDATION_FAILED and the same reason over REST and GraphQL', async () => {
    const wallet = await vipPlayer();
    for (const [label, reason] of [
      ['ab', 'must be at least 3 characters'],
      ['x'.repeat(64), 'must be at most 63 characters'],
      ['bad_label', 'may contain only a-z, 0-9 and hyphens'],
      ['-abc', 'must not start or end with a hyphen'],
      ['Admin', 'is reserved'],
    ]) {
      const rest = await claimRest(wallet, { label });
      expect(rest.status, label).toBe(400);
      expect(rest.body.error).toMatchObject({ code: 'VALIDATION_FAILED', details: { issues: [{ path: '/label', message: reason }] } });
      const viaGraphql = await claimGraphql(wallet, label);
      expect(viaGraphql.code, label).toBe('VALIDATION_FAILED');
    }
    expect((await claimRest(wallet, {})).body.error.code).toBe('VALIDATION_FAILED');
    expect((await claimRest(wallet, { label: 'fine', extra: 1 })).body.error.code).toBe('VALIDATION_FAILED');
    expect(await api.db.prisma.nameserviceSubname.count({ where: { walletAddress: wallet } })).toBe(0);
  });
});

describe('eligibility', () => {
  it('needs an access token', async () => {
    const rest = await claimRest(null, { label: uniqueLabel() });
    expect(rest.status).toBe(401);
    expect(rest.body.error.code).toBe('UNAUTHENTICATED');
    const viaGraphql = await gql(api.url, MySubnameDocument, {});
    expect(viaGraphql.body.errors?.[0].extensions?.code).toBe('UNAUTHENTICATED');
  });

  it('follows the VIP level of the highest-experience indexed event', async () => {
    const none = hex64();
    const below = await vipPlayer(MIN_VIP - 1);
    for (const wallet of [none, below]) {
      const rest = await claimRest(wallet, { label: uniqueLabel() });
      expect(rest.status).toBe(403);
      expect(rest.body.error).toMatchObject({ code: 'NOT_ELIGIBLE', details: { vipLevel: wallet === none ? 0 : MIN_VIP - 1, minVipLevel: MIN_VIP } });
    }
    expect((await claimGraphql(below, uniqueLabel())).code).toBe('NOT_ELIGIBLE');

    const eligibility = await gql(api.url, SubnameEligibilityDocument, {}, bearer(below));
    expect(eligibility.body.data?.subnameEligibility).toEqual({ vipLevel: MIN_VIP - 1, minVipLevel: MIN_VIP, eligible: false, parentDomain: PARENT });

    // A later event with more experience raises the level; an older, lower one changes nothing.
    await vipEvent(below, 999_999, MIN_VIP);
    await vipEvent(below, 10, 0);
    const mine = await fetch(`${api.url}/api/nameservice/subname`, { headers: bearer(below) }).then((r) => r.json());
    expect(mine).toEqual({ subname: null, eligibility: { vipLevel: MIN_VIP, minVipLevel: MIN_VIP, eligible: true, parentDomain: PARENT } });
    expect((await claimRest(below, { label: uniqueLabel() })).status).toBe(201);
  });
});

describe('a claim', () => {
  it('stores the sub-name, queues one chain write and reads back the same over REST and GraphQL', async () => {
    const wallet = await vipPlayer(MIN_VIP + 2);
    const label = uniqueLabel('Ace');
    const before = Date.now();
    const rest = await claimRest(wallet, { label });
    expect(rest.status).toBe(201);
    const lower = label.toLowerCase();
    expect(rest.body).toMatchObject({ wallet, label: lower, name: `${lower}.${PARENT}`, parentDomain: PARENT, status: 'pending', txDigest: null });
    const expiresIn = Date.parse(rest.body.expiresAt) - Date.parse(rest.body.claimedAt);
    expect(Math.abs(expiresIn - DAYS * 86_400_000)).toBeLessThan(Date.now() - before + 1000);

    const write = await api.services.chainWriter.getByKey(`nameservice.subname:${wallet}`);
    expect(write).toMatchObject({ kind: NAMESERVICE_SUBNAME_KIND, status: 'queued' });
    expect(write!.payload).toEqual({
      recipient: wallet,
      name: `${lower}.${PARENT}`,
      expirationTimestampMs: String(Date.parse(rest.body.expiresAt)),
      parentNftId: ids.parentNft,
      suinsObjectId: ids.suins,
      subdomainsPackageId: ids.subdomains,
    });

    const mine = await gql(api.url, MySubnameDocument, {}, bearer(wallet));
    expect(mine.body.data?.mySubname).toEqual(rest.body);
    const viaRest = await fetch(`${api.url}/api/nameservice/subname`, { headers: bearer(wallet) }).then((r) => r.json());
    expect(viaRest.subname).toEqual(rest.body);

    const again = await claimGraphql(wallet, uniqueLabel());
    expect(again).toMatchObject({ code: 'ALREADY_CLAIMED', details: { name: `${lower}.${PARENT}` } });
    const taken = await claimRest(await vipPlayer(), { label: lower.toUpperCase() });
    expect(taken.status).toBe(409);
    expect(taken.body.error).toMatchObject({ code: 'NAME_TAKEN', details: { name: `${lower}.${PARENT}` } });
  });

  it('builds SuiNS subdomains::new on the parent NFT and sends the new NFT to the player', async () => {
    const wallet = await vipPlayer();
    const { body } = await claimRest(wallet, { label: uniqueLabel() });
    const write = await api.services.chainWriter.getByKey(`nameservice.subname:${wallet}`);
    const tx = new Transaction();
    await api.services.chainWriter.builderOf(NAMESERVICE_SUBNAME_KIND)!(tx, write!.payload, { sender: hex64(), packageId: hex64() });
    const data = tx.getData();
    expect(data.commands.map((c) => c.$kind)).toEqual(['MoveCall', 'TransferObjects']);
    const call = data.commands[0].MoveCall!;
    expect(`${call.package}::${call.module}::${call.function}`).toBe(`${ids.subdomains}::subdomains::new`);
    const input = (i: number) => data.inputs[(call.arguments[i] as { Input: number }).Input];
    expect(input(0).UnresolvedObject?.objectId).toBe(ids.suins);
    expect(input(1).UnresolvedObject?.objectId).toBe(ids.parentNft);
    expect(input(2).Object?.SharedObject?.objectId ?? input(2).UnresolvedObject?.objectId).toMatch(/^0x0*6$/);
    const { bcs } = await import('@mysten/sui/bcs');
    expect(bcs.string().fromBase64(input(3).Pure!.bytes)).toBe(body.name);
    expect(bcs.u64().fromBase64(input(4).Pure!.bytes)).toBe(String(Date.parse(body.expiresAt)));
    expect([5, 6].map((i) => bcs.bool().fromBase64(input(i).Pure!.bytes))).toEqual([false, false]);
    const transfer = data.commands[1].TransferObjects!;
    expect(bcs.Address.fromBase64(data.inputs[(transfer.address as { Input: number }).Input].Pure!.bytes)).toBe(wallet);
  });

  it('a claim stored without its chain write (a crash in between) is handed to the writer on the next read', async () => {
    const wallet = await vipPlayer();
    await api.db.query(
      `INSERT INTO nameservice_subname (wallet_address, parent_domain, label, expires_at, chain_write_key) VALUES ($1, $2, $3, now() + interval '1 day', $4)`,
      [wallet, PARENT, uniqueLabel(), `nameservice.subname:${wallet}`],
    );
    expect(await api.services.chainWriter.getByKey(`nameservice.subname:${wallet}`)).toBeNull();
    const mine = await gql(api.url, MySubnameDocument, {}, bearer(wallet));
    expect(mine.body.data?.mySubname?.status).toBe('pending');
    expect(await api.services.chainWriter.getByKey(`nameservice.subname:${wallet}`)).toMatchObject({ kind: NAMESERVICE_SUBNAME_KIND, status: 'queued' });
  });
});

describe('racing claims', () => {
  it('one player, 20 parallel claims of different labels over REST and GraphQL on two replicas: one succeeds', async () => {
    const replica = await startApi({ db: api.db, env: nameserviceEnv('http://127.0.0.1:9/graphql') });
    try {
      const wallet = await vipPlayer();
      const labels = Array.from({ length: 20 }, () => uniqueLabel());
      const outcomes = await Promise.all(
        labels.map(async (label, i) => {
          if (i % 2) {
            const r = await gql((i % 4 === 1 ? replica : api).url, ClaimSubnameDocument, { label }, bearer(wallet));
            return r.body.data?.claimSubname ? 'ok' : (r.body.errors?.[0].extensions?.code as string);
          }
          const r = await fetch(`${(i % 4 === 0 ? replica : api).url}/api/nameservice/subname`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', ...bearer(wallet) },
            body: JSON.stringify({ label }),
          });
          return r.status === 201 ? 'ok' : ((await r.json()).error.code as string);
        }),
      );
      expect(outcomes.filter((o) => o === 'ok')).toHaveLength(1);
      expect(outcomes.filter((o) => o !== 'ok')).toEqual(Array(19).fill('ALREADY_CLAIMED'));
      const rows = await api.db.prisma.nameserviceSubname.findMany({ where: { walletAddress: wallet } });
      expect(rows).toHaveLength(1);
      expect(rows[0].label).toBe(labels[outcomes.indexOf('ok')]);
      expect(await api.db.prisma.chainWrite.count({ where: { idempotencyKey: `nameservice.subname:${wallet}` } })).toBe(1);
    } finally {
      await replica.close();
    }
  }, 120_000);

  it('20 players, one label, in parallel: one player gets it, the others NAME_TAKEN', async () => {
    const label = uniqueLabel('race');
    const wallets = await Promise.all(Array.from({ length: 20 }, () => vipPlayer()));
    const outcomes = await Promise.all(
      wallets.map(async (wallet, i) => {
        if (i % 2) {
          const r = await claimGraphql(wallet, label);
          return r.data ? 'ok' : r.code;
        }
        const r = await claimRest(wallet, { label });
        return r.status === 201 ? 'ok' : (r.body.error.code as string);
      }),
    );
    expect(outcomes.filter((o) => o === 'ok')).toHaveLength(1);
    expect(outcomes.filter((o) => o !== 'ok')).toEqual(Array(19).fill('NAME_TAKEN'));
    const rows = await api.db.prisma.nameserviceSubname.findMany({ where: { label } });
    expect(rows.map((r) => r.walletAddress)).toEqual([wallets[outcomes.indexOf('ok')]]);
    const writes = await api.db.prisma.chainWrite.count({ where: { idempotencyKey: { in: wallets.map((w) => `nameservice.subname:${w}`) } } });
    expect(writes).toBe(1);
  });
});

describe('without configuration', () => {
  it('claims answer SERVICE_UNAVAILABLE and eligibility names no parent domain', async () => {
    const bare = await startApi();
    try {
      const wallet = hex64();
      const headers = { authorization: `Bearer ${bare.services.tokens.signAccess(wallet)}` };
      const res = await fetch(`${bare.url}/api/nameservice/subname`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ label: 'valid' }) });
      expect(res.status).toBe(503);
      expect((await res.json()).error.code).toBe('SERVICE_UNAVAILABLE');
      const mine = await fetch(`${bare.url}/api/nameservice/subname`, { headers }).then((r) => r.json());
      expect(mine).toEqual({ subname: null, eligibility: { vipLevel: 0, minVipLevel: 1, eligible: false, parentDomain: null } });
    } finally {
      await bare.close();
    }
  }, 120_000);
});
