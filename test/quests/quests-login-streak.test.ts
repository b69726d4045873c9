import { Ed25519Keypair } from '@mysten/sui/keypairs/ed25519';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClaimQuestDocument, QuestStatusDocument } from '../../src/generated/graphql';
import { startApi, type TestApi } from '../helpers/api';
import { loginWithKeypair } from '../helpers/auth';
import { gql } from '../helpers/client';
import { until } from '../helpers/until';
import { rest } from './quests-helpers';

// The off-chain quest: daily-login-streak counts logins on consecutive UTC days (auth's
// walletLoggedIn hook feeds it, no indexer involved). A fake clock moves the API across days.
const DAY_MS = 86_400_000;
const day1 = new Date('2031-03-03T09:30:00.000Z');
let clock = day1;
const onDay = (n: number) => (clock = new Date(day1.getTime() + (n - 1) * DAY_MS));

let api: TestApi;
const keypair = new Ed25519Keypair();
const wallet = keypair.toSuiAddress();

beforeAll(async () => {
  api = await startApi({ now: () => clock });
}, 120_000);
afterAll(async () => {
  await api?.close();
});

/** Logs in over REST on the clock's day and waits until the indexed status shows the expected streak. */
async function loginAndWait(progress: string) {
  const { accessToken } = await loginWithKeypair(api.url, keypair);
  const status = await until(async () => {
    const r = await rest(api.url, 'GET', '/quests/campaigns/platform/indexed/daily-login-streak/status', { token: accessToken });
    return r.body.status?.progress === progress && r.body.status;
  }, `streak ${progress} on ${clock.toISOString()}`);
  return { accessToken, status };
}

describe('daily-login-streak over three UTC days', () => {
  it('is claimable on the third consecutive day, and a missed day starts the count over', async () => {
    onDay(1);
    const first = await loginAndWait('1');
    expect(first.status).toMatchObject({ player: wallet, target: '3', timePeriod: 'daily', periodStart: '2031-03-03T00:00:00.000Z', claimable: false, reason: 'incomplete' });

    // Day 2, late in the UTC day: two in a row, still short of three.
    clock = new Date(day1.getTime() + DAY_MS + 14 * 3_600_000);
    const second = await loginAndWait('2');
    const early = await rest(api.url, 'POST', '/quests/campaigns/platform/daily-login-streak/claim', { token: second.accessToken, body: {} });
    expect(early.status).toBe(422);
    expect(early.body.error.code).toBe('QUEST_INCOMPLETE');

    onDay(3);
    const third = await loginAndWait('3');
    expect(third.status).toMatchObject({ completed: true, claimable: true, reason: null, periodStart: '2031-03-05T00:00:00.000Z' });
    // live mode (computed from the login days at request time) agrees; so does GraphQL
    const live = await rest(api.url, 'GET', `/quests/campaigns/platform/live/daily-login-streak/status?player=${wallet}`);
    expect(live.body.status).toMatchObject({ mode: 'live', progress: '3', claimable: true });
    const bearer = { authorization: `Bearer ${third.accessToken}` };
    const g = await gql(api.url, QuestStatusDocument, { campaignSlug: 'platform', questKey: 'daily-login-streak', player: wallet });
    expect(g.body.data?.questStatus).toMatchObject({ progress: '3', claimable: true });
    const claim = await gql(api.url, ClaimQuestDocument, { campaignSlug: 'platform', questKey: 'daily-login-streak' }, bearer);
    expect(claim.body.errors).toBeUndefined();
    expect(claim.body.data?.claimQuest).toMatchObject({ player: wallet, xpReward: 40, periodStart: '2031-03-05T00:00:00.000Z', totalXp: '40' });
    const again = await rest(api.url, 'POST', '/quests/campaigns/platform/daily-login-streak/claim', { token: third.accessToken, body: {} });
    expect(again.body.error.code).toBe('DUPLICATE_CLAIM');

    // Day 4 has no login: on day 5 the streak is back to one.
    onDay(5);
    const fifth = await loginAndWait('1');
    expect(fifth.status).toMatchObject({ completed: false, claimable: false, reason: 'incomplete', periodStart: '2031-03-07T00:00:00.000Z' });
    const live5 = await rest(api.url, 'GET', `/quests/campaigns/platform/live/daily-login-streak/status?player=${wallet}`);
    expect(live5.body.status).toMatchObject({ progress: '1', claimable: false });
    const late = await rest(api.url, 'POST', '/quests/campaigns/platform/daily-login-streak/claim', { token: fifth.accessToken, body: {} });
    expect(late.body.error.code).toBe('QUEST_INCOMPLETE');
  });
});
