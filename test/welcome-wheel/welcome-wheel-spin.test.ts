/**
 * The welcome wheel over real HTTP (REST and GraphQL): 100 parallel spins for one wallet record
 * one result and all answer it; later spins return it unchanged; rewards never exceed
 * GENERAL.WELCOME_WHEEL_MAX_REWARD; the payout waits as pending; callers need an access token.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MyWelcomeWheelSpinDocument, SpinWelcomeWheelDocument, WelcomeWheelDocument } from '../../src/generated/graphql';
import { segmentAt, WHEEL_TABLE } from '../../src/services/welcome-wheel/service';
import { startApi, type TestApi } from '../helpers/api';
import { gql } from '../helpers/client';

const MAX_REWARD = 50;
let api: TestApi;

beforeAll(async () => {
  api = await startApi({ env: { 'GENERAL.WELCOME_WHEEL_MAX_REWARD': String(MAX_REWARD) } });
}, 60_000);
afterAll(async () => api?.close());

const newWallet = (): string => `0x${randomBytes(32).toString('hex')}`;
const bearer = (wallet: string) => ({ authorization: `Bearer ${api.services.tokens.signAccess(wallet)}` });

async function spin(headers: Record<string, string>) {
  const res = await fetch(`${api.url}/api/welcome-wheel/spin`, { method: 'POST', headers });
  return { status: res.status, body: await res.json() };
}

const rowsOf = (wallet: string) => api.db.prisma.welcomeWheelSpin.findMany({ where: { walletAddress: wallet } });

describe('the welcome wheel', () => {
  it('records one spin for 100 parallel calls of one wallet, and every call answers it', async () => {
    const wallet = newWallet();
    const headers = bearer(wallet);
    const answers = await Promise.all(Array.from({ length: 100 }, () => spin(headers)));
    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 200));
    expect(new Set(answers.map((a) => JSON.stringify(a.body))).size).toBe(1);
    const rows = await rowsOf(wallet);
    expect(rows).toHaveLength(1);
    const [only] = answers;
    expect(only.body).toEqual({
      wallet,
      segment: rows[0].segment,
      reward: rows[0].reward,
      payout: { status: 'pending', txDigest: null, attempts: 0, nextAttemptAt: null },
      spunAt: rows[0].spunAt.toISOString(),
    });
    expect(only.body.reward).toBeLessThanOrEqual(MAX_REWARD);
    expect(only.body.reward).toBe(Math.min(WHEEL_TABLE[only.body.segment].reward, MAX_REWARD));
  });

  it('records one spin when 100 parallel calls are split between two replicas of one database', async () => {
    const replica = await startApi({ db: api.db, env: { 'GENERAL.WELCOME_WHEEL_MAX_REWARD': String(MAX_REWARD) } });
    try {
      const wallet = newWallet();
      const headers = bearer(wallet);
      const answers = await Promise.all(
        Array.from({ length: 100 }, async (_, i) => {
          const res = await fetch(`${(i % 2 ? replica : api).url}/api/welcome-wheel/spin`, { method: 'POST', headers });
          return { status: res.status, body: await res.json() };
        }),
      );
      expect(answers.every((a) => a.status === 200)).toBe(true);
      expect(new Set(answers.map((a) => JSON.stringify(a.body))).size).toBe(1);
      expect(await rowsOf(wallet)).toHaveLength(1);
      expect(answers[0].body.reward).toBeLessThanOrEqual(MAX_REWARD);
    } finally {
      await replica.close();
    }
  });

  it('returns the first result to later spins, over REST and GraphQL', async () => {
    const wallet = newWallet();
    const first = await spin(bearer(wallet));
    const again = await gql(api.url, SpinWelcomeWheelDocument, {}, bearer(wallet));
    expect(again.body.data?.spinWelcomeWheel).toEqual(first.body);
    const mine = await gql(api.url, MyWelcomeWheelSpinDocument, {}, bearer(wallet));
    expect(mine.body.data?.myWelcomeWheelSpin).toEqual(first.body);
    const me = await fetch(`${api.url}/api/welcome-wheel/me`, { headers: bearer(wallet) }).then((r) => r.json());
    expect(me).toEqual({ spin: first.body });
    expect(await rowsOf(wallet)).toHaveLength(1);
  });

  it('shows no spin before the first one', async () => {
    const wallet = newWallet();
    const me = await fetch(`${api.url}/api/welcome-wheel/me`, { headers: bearer(wallet) }).then((r) => r.json());
    expect(me).toEqual({ spin: null });
    expect((await gql(api.url, MyWelcomeWheelSpinDocument, {}, bearer(wallet))).body.data?.myWelcomeWheelSpin).toBeNull();
  });

  it('never pays above the configured maximum, across many wallets', async () => {
    const answers = await Promise.all(Array.from({ length: 60 }, () => spin(bearer(newWallet()))));
    expect(answers.every((a) => a.status === 200 && a.body.reward <= MAX_REWARD && a.body.reward > 0)).toBe(true);
    const table = await fetch(`${api.url}/api/welcome-wheel`).then((r) => r.json());
    expect(table.maxReward).toBe(MAX_REWARD);
    expect(table.segments.map((s: { reward: number }) => s.reward)).toEqual(WHEEL_TABLE.map((s) => Math.min(s.reward, MAX_REWARD)));
    expect(table.segments.reduce((sum: number, s: { chancePercent: number }) => sum + s.chancePercent, 0)).toBeCloseTo(100);
    expect((await gql(api.url, WelcomeWheelDocument, {})).body.data?.welcomeWheel).toEqual(table);
  });

  it('maps every draw onto the documented weights', () => {
    const total = WHEEL_TABLE.reduce((sum, s) => sum + s.weight, 0);
    const counts = WHEEL_TABLE.map(() => 0);
    for (let ticket = 0; ticket < total; ticket++) counts[segmentAt(ticket)]++;
    expect(counts).toEqual(WHEEL_TABLE.map((s) => s.weight));
    expect(() => segmentAt(total)).toThrow(RangeError);
  });

  it('refuses callers without a valid access token and writes nothing', async () => {
    const before = await api.db.prisma.welcomeWheelSpin.count();
    expect((await spin({})).status).toBe(401);
    expect((await spin({ authorization: 'Bearer not-a-token' })).body.error.code).toBe('TOKEN_INVALID');
    const viaGraphql = await gql(api.url, SpinWelcomeWheelDocument, {});
    expect(viaGraphql.body.errors?.[0].extensions?.code).toBe('UNAUTHENTICATED');
    expect(await api.db.prisma.welcomeWheelSpin.count()).toBe(before);
  });
});
