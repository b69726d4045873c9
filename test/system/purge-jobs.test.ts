import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi, type TestApi } from '../helpers/api';
import { loginWithKeypair, postJson } from '../helpers/auth';
import { testLogger } from '../helpers/db';
import { startJobsRole, type JobsRunner } from '../../src/jobs';

// The purge jobs keep their tables bounded: expired rows go, live ones stay, each run on its
// heartbeat and in the sampled run log like every other job.

const OPERATOR_TOKEN = 'operator-token-for-the-purge-jobs-test-0123456789';
const DAY = 86_400_000;
let api: TestApi;
let runner: JobsRunner;

beforeAll(async () => {
  api = await startApi({ env: { OPERATOR_TOKEN, CHAT_HISTORY_RETENTION_DAYS: '7', PRICES_SNAPSHOT_RETENTION_DAYS: '3' } });
  runner = startJobsRole({ config: api.config, db: api.db, logger: testLogger, services: api.services });
  await runner.settled(); // the schedules are on the heartbeats
}, 60_000);
afterAll(async () => {
  await runner?.stop();
  await api?.close();
});

const address = () => `0x${randomBytes(32).toString('hex')}`;
const ago = (ms: number) => new Date(Date.now() - ms);

/** The jobs' heartbeats as an operator reads them over GraphQL. */
async function heartbeats(): Promise<Map<string, Record<string, unknown>>> {
  const res = await fetch(`${api.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${OPERATOR_TOKEN}` },
    body: JSON.stringify({ query: '{ jobs { key schedule status lastOutcome lastSuccessAt } }' }),
  });
  const body = (await res.json()) as { data: { jobs: Array<Record<string, unknown>> } };
  return new Map(body.data.jobs.map((j) => [String(j.key), j]));
}

async function runLog(jobKey: string) {
  return api.db.prisma.opsJobRun.findMany({ where: { jobKey }, orderBy: { startedAt: 'asc' } });
}

describe('purge jobs', () => {
  it('are scheduled by JOBS.PURGE_CRON, one job per table family', async () => {
    expect(runner.jobs).toEqual(expect.arrayContaining(['auth-purge', 'chat-purge', 'price-purge']));
    const jobs = await heartbeats();
    for (const key of ['auth-purge', 'chat-purge', 'price-purge']) expect(jobs.get(key)).toMatchObject({ schedule: api.config.jobs.purgeCron, status: 'idle' });
  });

  it('auth-purge deletes expired challenges and refresh tokens of every address and keeps live ones', async () => {
    // Live: a challenge and a login, through the real interface.
    const session = await loginWithKeypair(api.url);
    const pending = await postJson(`${api.url}/api/auth/challenge`, { address: address() });
    expect(pending.status).toBe(200);
    // Expired, of addresses that never ask again (today nothing would ever remove these).
    await api.db.prisma.loginChallenge.createMany({
      data: Array.from({ length: 30 }, (_, i) => ({ address: address(), nonce: randomBytes(16).toString('hex'), message: `old ${i}`, expiresAt: ago(60_000 + i) })),
    });
    await api.db.prisma.refreshToken.createMany({
      data: Array.from({ length: 20 }, () => ({ subject: address(), tokenHash: randomBytes(32).toString('hex'), familyId: randomUUID(), expiresAt: ago(DAY) })),
    });
    expect(await api.db.prisma.loginChallenge.count()).toBe(32);
    expect(await api.db.prisma.refreshToken.count()).toBe(21);

    const tick = new Date(Math.ceil(Date.now() / 3600_000) * 3600_000);
    expect(await runner.tick('auth-purge', tick)).toBe('ran');

    const challenges = await api.db.prisma.loginChallenge.findMany();
    // The pending challenge and the login's own one, both unexpired.
    expect(challenges).toHaveLength(2);
    expect(challenges.map((c) => c.nonce)).toContain(pending.body!.nonce);
    expect(challenges.every((c) => c.expiresAt > new Date())).toBe(true);
    expect(await api.db.prisma.refreshToken.count()).toBe(1);
    // The live session still refreshes.
    const refreshed = await postJson(`${api.url}/api/auth/refresh`, { refreshToken: session.refreshToken });
    expect(refreshed.status).toBe(200);

    expect(await runLog('auth-purge')).toMatchObject([{ status: 'ok', sampled: true, detail: { tick: tick.toISOString(), reason: 'manual', challenges: 30, refreshTokens: 20 } }]);
    expect((await heartbeats()).get('auth-purge')).toMatchObject({ status: 'ok', lastOutcome: 'ok', lastSuccessAt: expect.any(String) });

    // A second run in the same sampling window: on the heartbeat, not a second run-log row.
    expect(await runner.tick('auth-purge', new Date(tick.getTime() + 1000))).toBe('ran');
    expect(await runLog('auth-purge')).toHaveLength(1);
  });

  it('chat-purge deletes messages past CHAT.HISTORY_RETENTION_DAYS with their reactions and keeps the rest', async () => {
    const old = await api.db.prisma.chatMessage.create({ data: { room: 'global', author: address(), text: 'from last month', createdAt: ago(30 * DAY) } });
    await api.db.prisma.chatReaction.create({ data: { messageId: old.id, wallet: address(), emoji: '🔥' } });
    const recent = await api.db.prisma.chatMessage.create({ data: { room: 'global', author: address(), text: 'from yesterday', createdAt: ago(DAY) } });
    const history = async () => ((await (await fetch(`${api.url}/api/chat/message?room=global`)).json()) as { items: Array<{ id: string }> }).items.map((m) => m.id);
    expect(await history()).toEqual([String(recent.id), String(old.id)]);

    expect(await runner.tick('chat-purge', new Date(Math.ceil(Date.now() / 3600_000) * 3600_000))).toBe('ran');

    expect(await history()).toEqual([String(recent.id)]);
    expect(await api.db.prisma.chatReaction.count()).toBe(0);
    expect(await runLog('chat-purge')).toMatchObject([{ status: 'ok', detail: { messages: 1 } }]);
    expect((await heartbeats()).get('chat-purge')).toMatchObject({ status: 'ok', lastOutcome: 'ok' });
  });

  it('price-purge deletes snapshots past PRICES.SNAPSHOT_RETENTION_DAYS but never the newest of an asset', async () => {
    const snapshot = (asset: string, age: number) => ({ asset, usdPrice: '1.5', source: 'test', fetchedAt: ago(age) });
    // SUI polled recently; USDC's last poll is old (its newest must stay, however old).
    await api.db.prisma.priceSnapshot.createMany({
      data: [snapshot('SUI', 10 * DAY), snapshot('SUI', 5 * DAY), snapshot('SUI', DAY), snapshot('SUI', 60_000), snapshot('USDC', 20 * DAY), snapshot('USDC', 9 * DAY)],
    });

    expect(await runner.tick('price-purge', new Date(Math.ceil(Date.now() / 3600_000) * 3600_000))).toBe('ran');

    const left = await api.db.prisma.priceSnapshot.findMany({ orderBy: [{ asset: 'asc' }, { fetchedAt: 'asc' }] });
    expect(left.map((s) => [s.asset, Math.round((Date.now() - s.fetchedAt.getTime()) / DAY)])).toEqual([
      ['SUI', 1],
      ['SUI', 0],
      ['USDC', 9],
    ]);
    expect(await runLog('price-purge')).toMatchObject([{ status: 'ok', detail: { snapshots: 3 } }]);
    expect((await heartbeats()).get('price-purge')).toMatchObject({ status: 'ok', lastOutcome: 'ok' });
  });
});
