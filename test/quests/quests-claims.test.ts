import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClaimQuestDocument } from '../../src/generated/graphql';
import { createLeaderboardService } from '../../src/services/leaderboards/service';
import { DEFAULT_CATALOGUE, type Catalogue } from '../../src/services/quests/catalogue';
import { createQuestService, type QuestService } from '../../src/services/quests/service';
import { createReadCacheService } from '../../src/services/read-cache';
import { createSharedStore, type SharedStore } from '../../src/store';
import { startApi, type TestApi } from '../helpers/api';
import { createTestDb, type TestDb } from '../helpers/db';
import { gql } from '../helpers/client';
import { captureLogger } from '../helpers/logs';
import { betEvent, claimFootprint, indexBets, rest } from './quests-helpers';

const wallet = () => `0x${randomUUID().replace(/-/g, '').padEnd(64, '0')}`;
const DAY = 86_400_000;
const utcMidnight = (d: Date) => new Date(Math.floor(d.getTime() / DAY) * DAY);

/** Runs `fn` and returns the AppError it threw (code, details). */
async function refusal(fn: () => Promise<unknown>): Promise<{ code: string; details?: Record<string, unknown> }> {
  try {
    await fn();
  } catch (err) {
    return err as { code: string; details?: Record<string, unknown> };
  }
  throw new Error('expected a refusal');
}

describe('claim refusals over HTTP write nothing', () => {
  let api: TestApi;
  let token: string;
  const player = wallet();
  beforeAll(async () => {
    api = await startApi();
    token = api.services.tokens.signAccess(player);
    // yesterday's daily-bet is complete, today's is not
    await indexBets(api.db, api.services.quests, [betEvent(player, new Date(utcMidnight(new Date()).getTime() - 60_000))]);
  }, 120_000);
  afterAll(async () => {
    await api?.close();
  });

  const claim = (path: string, body: unknown = {}) => rest(api.url, 'POST', path, { token, body });

  it('unknown campaign, unknown quest, incomplete quest, closed period, period not started, misaligned period', async () => {
    const today = utcMidnight(new Date());
    const cases: Array<[string, unknown, number, string, string | undefined]> = [
      ['/quests/campaigns/no-such-campaign/daily-bet/claim', {}, 404, 'NOT_FOUND', 'unknown_campaign'],
      ['/quests/campaigns/platform/no-such-quest/claim', {}, 404, 'NOT_FOUND', 'unknown_quest'],
      ['/quests/campaigns/platform/daily-bet/claim', {}, 422, 'QUEST_INCOMPLETE', 'incomplete'],
      ['/quests/campaigns/platform/daily-bet/claim', { periodStart: new Date(today.getTime() - DAY).toISOString() }, 422, 'CLAIM_PERIOD_INVALID', 'closed'],
      ['/quests/campaigns/platform/daily-bet/claim', { periodStart: new Date(today.getTime() + DAY).toISOString() }, 422, 'CLAIM_PERIOD_INVALID', 'not_started'],
      ['/quests/campaigns/platform/daily-bet/claim', { periodStart: new Date(today.getTime() + 1).toISOString() }, 400, 'VALIDATION_FAILED', 'invalid_input'],
      ['/quests/campaigns/platform/daily-bet/claim', { periodStart: 'yesterday' }, 400, 'VALIDATION_FAILED', undefined],
      ['/quests/campaigns/Platform!/daily-bet/claim', {}, 400, 'VALIDATION_FAILED', undefined],
    ];
    for (const [path, body, status, code, reason] of cases) {
      const answer = await claim(path, body);
      expect({ path, body, status: answer.status, code: answer.body.error.code }).toEqual({ path, body, status, code });
      if (reason) expect(answer.body.error.details.reason).toBe(reason);
      expect(answer.body.error.requestId).toEqual(expect.any(String));
    }
    expect(await claimFootprint(api.db)).toEqual({ claims: 0, xpRows: 0, questXp: '0', buckets: 0 });
    const metrics = await (await fetch(`${api.url}/metrics`)).text();
    for (const reason of ['unknown_campaign', 'unknown_quest', 'incomplete', 'closed', 'not_started', 'invalid_input']) {
      expect(metrics).toMatch(new RegExp(`quest_claim_refusals_total\\{reason="${reason}"\\} [1-9]`));
    }
  });

  it('the claim bucket: the 11th claim of a wallet within a minute is 429 with Retry-After, REST and GraphQL alike', async () => {
    const other = api.services.tokens.signAccess(wallet());
    const answers = [];
    for (let i = 0; i < 11; i++) answers.push(await rest(api.url, 'POST', '/quests/campaigns/platform/daily-bet/claim', { token: other, body: {} }));
    expect(answers.slice(0, 10).map((a) => a.body.error.code)).toEqual(Array(10).fill('QUEST_INCOMPLETE'));
    expect(answers[10].status).toBe(429);
    expect(answers[10].body.error).toMatchObject({ code: 'RATE_LIMITED', details: { scope: 'quest-claim' } });
    expect(Number(answers[10].headers.get('retry-after'))).toBeGreaterThan(0);
    expect(answers[10].headers.get('retry-after')).toBe(String(answers[10].body.error.details.retryAfterSeconds));
    // the bucket belongs to the wallet, not the transport
    const viaGraphql = await gql(api.url, ClaimQuestDocument, { campaignSlug: 'platform', questKey: 'daily-bet' }, { authorization: `Bearer ${other}` });
    expect(viaGraphql.body.errors?.[0].extensions?.code).toBe('RATE_LIMITED');
  });
});

describe('exact UTC period edges (injected clock)', () => {
  let t: TestDb;
  let store: SharedStore;
  let clock: Date;
  let quests: QuestService;
  const { logger, logs } = captureLogger({ level: 'debug' });
  // Monday 2026-03-02 .. the campaign below runs [Mon 12:00, Wed 00:00).
  const D = new Date('2026-03-02T00:00:00.000Z');
  const at = (iso: string) => new Date(iso);
  const catalogue: Catalogue = [
    ...DEFAULT_CATALOGUE,
    {
      campaign: { slug: 'launch', type: 'partner', startAt: at('2026-03-02T12:00:00.000Z'), endAt: at('2026-03-04T00:00:00.000Z'), managesClaims: false, title: 'Launch week' },
      quests: [
        { key: 'launch-bet', title: 'Bet during the launch', description: 'One bet a day during the launch.', xpReward: 70, timePeriod: 'daily', modes: ['indexed', 'live'], evaluator: { kind: 'bets_placed' }, target: 1n },
        { key: 'retired', title: 'Retired quest', description: 'Switched off.', xpReward: 10, timePeriod: 'once', modes: ['indexed'], evaluator: { kind: 'bets_placed' }, target: 1n, enabled: false },
      ],
    },
    {
      campaign: { slug: 'partner', type: 'partner', startAt: at('2026-01-01T00:00:00.000Z'), endAt: at('2027-01-01T00:00:00.000Z'), managesClaims: true },
      quests: [{ key: 'partner-bet', title: 'Bet once', description: 'Checked by the partner.', xpReward: 5, timePeriod: 'daily', modes: ['indexed'], evaluator: { kind: 'bets_placed' }, target: 1n }],
    },
  ];

  beforeAll(async () => {
    t = await createTestDb();
    store = await createSharedStore({ cacheStore: 'memory', logger });
    const readCache = await createReadCacheService({ store });
    const leaderboards = await createLeaderboardService({ db: t.db, store, readCache });
    quests = createQuestService({ db: t.db, store, logger, leaderboards, readCache, catalogue, now: () => clock, lifecycleIntervalMs: 0, claimLimit: { max: 1000, windowMs: 60_000 } });
    clock = at('2026-03-02T11:59:59.999Z');
    await quests.start();
  }, 120_000);
  afterAll(async () => {
    await quests?.close();
    await store?.close();
    await t?.cleanup();
  });

  it('a bet at 23:59:59.999 counts for its day, one at 00:00:00.000 for the next; the day closes at 00:00:00.000 exactly', async () => {
    const player = wallet();
    const claim = (periodStart?: string) => quests.claim(player, { campaignSlug: 'platform', questKey: 'daily-bet', ...(periodStart ? { periodStart } : {}) });
    await indexBets(t.db, quests, [betEvent(player, at('2026-03-02T23:59:59.999Z'))]);

    clock = at('2026-03-03T00:00:00.000Z');
    // the next day has begun: yesterday's period is closed, and the late bet does not count today
    expect(await refusal(() => claim(D.toISOString()))).toMatchObject({ code: 'CLAIM_PERIOD_INVALID', details: { reason: 'closed', periodEnd: '2026-03-03T00:00:00.000Z' } });
    expect(await refusal(() => claim())).toMatchObject({ code: 'QUEST_INCOMPLETE', details: { progress: '0' } });
    expect(await claimFootprint(t.db)).toMatchObject({ claims: 0, xpRows: 0 });

    clock = at('2026-03-02T23:59:59.999Z');
    expect(await refusal(() => claim('2026-03-03T00:00:00.000Z'))).toMatchObject({ code: 'CLAIM_PERIOD_INVALID', details: { reason: 'not_started' } });
    const status = await quests.status({ campaignSlug: 'platform', questKey: 'daily-bet', mode: 'live' }, player);
    expect(status).toMatchObject({ periodStart: '2026-03-02T00:00:00.000Z', periodEnd: '2026-03-03T00:00:00.000Z', progress: '1', claimable: true });
    const txHash = '9wZGSpVrBDYaKNWZKUzmYb7KR6tKh4XfBn1xqdYtMpvo';
    expect(await quests.claim(player, { campaignSlug: 'platform', questKey: 'daily-bet', txHash })).toMatchObject({ periodStart: '2026-03-02T00:00:00.000Z', xpReward: 50, totalXp: '50', txHash });
    expect(await t.db.query('SELECT time_period, period_start, xp_reward, tx_hash FROM quest_claim WHERE player_address = $1', [player])).toEqual([
      { time_period: 'daily', period_start: new Date('2026-03-02T00:00:00.000Z'), xp_reward: 50, tx_hash: txHash },
    ]);

    // a bet at 00:00:00.000 belongs to the new day
    await indexBets(t.db, quests, [betEvent(player, at('2026-03-03T00:00:00.000Z'))]);
    clock = at('2026-03-03T00:00:00.000Z');
    expect(await claim()).toMatchObject({ periodStart: '2026-03-03T00:00:00.000Z', totalXp: '100' });
    expect(await claimFootprint(t.db)).toMatchObject({ claims: 2, questXp: '100' });
  });

  it('weeks turn at Monday 00:00:00.000 UTC', async () => {
    const player = wallet();
    clock = at('2026-03-08T23:59:59.999Z'); // Sunday
    expect(await quests.status({ campaignSlug: 'platform', questKey: 'weekly-bets' }, player)).toMatchObject({ periodStart: '2026-03-02T00:00:00.000Z', periodEnd: '2026-03-09T00:00:00.000Z' });
    clock = at('2026-03-09T00:00:00.000Z'); // Monday
    expect(await quests.status({ campaignSlug: 'platform', questKey: 'weekly-bets' }, player)).toMatchObject({ periodStart: '2026-03-09T00:00:00.000Z' });
  });

  it('a campaign window: upcoming until its start, claimable from its first millisecond, expired at its end; each change logged with the campaign', async () => {
    const player = wallet();
    await indexBets(t.db, quests, [betEvent(player, at('2026-03-02T12:00:00.000Z')), betEvent(player, at('2026-03-03T23:00:00.000Z'))]);
    const claim = () => quests.claim(player, { campaignSlug: 'launch', questKey: 'launch-bet' });

    clock = at('2026-03-02T11:59:59.999Z');
    expect(await refusal(claim)).toMatchObject({ code: 'CLAIM_PERIOD_INVALID', details: { reason: 'not_started', startAt: '2026-03-02T12:00:00.000Z' } });
    clock = at('2026-03-02T12:00:00.000Z');
    expect(await claim()).toMatchObject({ campaignSlug: 'launch', xpReward: 70 });
    clock = at('2026-03-03T23:59:59.999Z');
    expect(await claim()).toMatchObject({ periodStart: '2026-03-03T00:00:00.000Z' });
    clock = at('2026-03-04T00:00:00.000Z');
    expect(await refusal(claim)).toMatchObject({ code: 'CLAIM_PERIOD_INVALID', details: { reason: 'closed', endAt: '2026-03-04T00:00:00.000Z' } });

    const changes = logs.lines.filter((l) => l.quest === 'launch-bet').map((l) => [l.previous, l.lifecycle]);
    expect(changes).toEqual([[null, 'upcoming'], ['upcoming', 'active'], ['active', 'expired']]);
    expect(logs.lines.find((l) => l.quest === 'launch-bet' && l.lifecycle === 'expired')?.campaign).toEqual({
      slug: 'launch',
      type: 'partner',
      startAt: '2026-03-02T12:00:00.000Z',
      endAt: '2026-03-04T00:00:00.000Z',
      managesClaims: false,
    });
  });

  it('an inactive quest and a partner-managed campaign are refused with their reasons and write nothing', async () => {
    const player = wallet();
    clock = at('2026-03-02T13:00:00.000Z');
    await indexBets(t.db, quests, [betEvent(player, at('2026-03-02T12:30:00.000Z'))]);
    const before = await claimFootprint(t.db);
    expect(await refusal(() => quests.claim(player, { campaignSlug: 'launch', questKey: 'retired' }))).toMatchObject({ code: 'CLAIM_PERIOD_INVALID', details: { reason: 'inactive' } });
    const partner = await quests.status({ campaignSlug: 'partner', questKey: 'partner-bet' }, player);
    expect(partner).toMatchObject({ completed: true, claimable: false, reason: 'managed_by_partner' });
    expect(await refusal(() => quests.claim(player, { campaignSlug: 'partner', questKey: 'partner-bet' }))).toMatchObject({ code: 'FORBIDDEN', details: { reason: 'managed_by_partner' } });
    expect(await claimFootprint(t.db)).toEqual(before);
    const list = await quests.list();
    expect(list.find((c) => c.slug === 'launch')?.quests.find((q) => q.key === 'retired')?.lifecycle).toBe('inactive');
  });
});
