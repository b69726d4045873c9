import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClaimQuestDocument, LeaderboardRankDocument, QuestBatchStatusDocument, QuestCampaignsDocument, QuestStatusDocument } from '../../src/generated/graphql';
import { startApi, type TestApi } from '../helpers/api';
import { loginWithKeypair, type LoggedIn } from '../helpers/auth';
import { gql } from '../helpers/client';
import { betEvent, claimFootprint, indexBets, rest } from './quests-helpers';

// The issue's end-to-end path over real HTTP (PostgreSQL when DATABASE_URL is set, else embedded):
// a wallet logs in, one bet_result_event row is stored the way the indexer stores it, daily-bet
// moves from incomplete to claimable, the claim succeeds once and the XP board shows it once.
let api: TestApi;
let player: LoggedIn;
const auth = () => ({ authorization: `Bearer ${player.accessToken}` });

beforeAll(async () => {
  api = await startApi();
  player = await loginWithKeypair(api.url);
}, 120_000);
afterAll(async () => {
  await api?.close();
});

describe('quests over HTTP', () => {
  it('a fresh start seeded the default catalogue: GET /api/quests/list shows it at once', async () => {
    const list = await rest(api.url, 'GET', '/quests/list');
    expect(list.status).toBe(200);
    const platform = list.body.campaigns.find((c: { slug: string }) => c.slug === 'platform');
    expect(platform).toMatchObject({ type: 'platform', managesClaims: false });
    const dailyBet = platform.quests.find((q: { key: string }) => q.key === 'daily-bet');
    expect(dailyBet).toMatchObject({ timePeriod: 'daily', target: '1', xpReward: 50, lifecycle: 'active', modes: ['indexed', 'live'] });
    expect(platform.quests.map((q: { timePeriod: string }) => q.timePeriod)).toEqual(expect.arrayContaining(['daily', 'weekly', 'once']));
    // the same catalogue over GraphQL
    const { body } = await gql(api.url, QuestCampaignsDocument);
    expect(body.data?.questCampaigns.find((c) => c.slug === 'platform')?.quests.map((q) => q.key)).toEqual(platform.quests.map((q: { key: string }) => q.key));
    expect(api.logs.lines.some((l) => l.msg === 'quests: the catalogue was empty; seeded the default campaigns')).toBe(true);
    const lifecycle = api.logs.lines.find((l) => l.quest === 'daily-bet' && l.lifecycle === 'active');
    expect(lifecycle?.campaign).toMatchObject({ slug: 'platform', managesClaims: false });
  });

  it('daily-bet: incomplete, then claimable after a bet is indexed; the claim pays once and the XP board shows it once', async () => {
    const status = () => rest(api.url, 'GET', '/quests/campaigns/platform/indexed/daily-bet/status', { token: player.accessToken });
    const before = await status();
    expect(before.status).toBe(200);
    expect(before.body.status).toMatchObject({ player: player.address, progress: '0', target: '1', completed: false, claimable: false, reason: 'incomplete', lifecycle: 'active' });

    const early = await rest(api.url, 'POST', '/quests/campaigns/platform/daily-bet/claim', { token: player.accessToken, body: {} });
    expect(early.status).toBe(422);
    expect(early.body.error.code).toBe('QUEST_INCOMPLETE');
    expect(await claimFootprint(api.db)).toMatchObject({ claims: 0, xpRows: 0 });

    expect(await indexBets(api.db, api.services.quests, [betEvent(player.address, new Date())])).toBe(1);

    const after = await status();
    expect(after.body.status).toMatchObject({ progress: '1', completed: true, claimed: false, claimable: true, reason: null });
    // live mode agrees with the indexed progress
    const live = await rest(api.url, 'GET', `/quests/campaigns/platform/live/daily-bet/status?player=${player.address}`);
    expect(live.body.status).toMatchObject({ mode: 'live', progress: '1', claimable: true });

    const claim = await rest(api.url, 'POST', '/quests/campaigns/platform/daily-bet/claim', { token: player.accessToken, body: {} });
    expect(claim.status).toBe(200);
    expect(claim.body.claim).toMatchObject({ campaignSlug: 'platform', questKey: 'daily-bet', player: player.address, xpReward: 50, totalXp: '50', timePeriod: 'daily' });

    const again = await rest(api.url, 'POST', '/quests/campaigns/platform/daily-bet/claim', { token: player.accessToken, body: {} });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('DUPLICATE_CLAIM');
    const viaGraphql = await gql(api.url, ClaimQuestDocument, { campaignSlug: 'platform', questKey: 'daily-bet' }, auth());
    expect(viaGraphql.body.errors?.[0].extensions?.code).toBe('DUPLICATE_CLAIM');

    const board = await rest(api.url, 'GET', '/analytics/leaderboards/xp?limit=100');
    const mine = board.body.entries.filter((e: { player: string }) => e.player === player.address);
    expect(mine).toEqual([expect.objectContaining({ score: '50', rank: 1 })]);
    const rank = await gql(api.url, LeaderboardRankDocument, { board: 'XP', player: player.address });
    expect(rank.body).toMatchObject({ data: { leaderboardRank: { rank: 1, score: '50' } } });
    expect(await claimFootprint(api.db)).toEqual({ claims: 1, xpRows: 1, questXp: '50', buckets: 1 });

    const claimed = await status();
    expect(claimed.body.status).toMatchObject({ claimed: true, claimable: false, reason: 'claimed' });
    expect(claimed.body.status.claimedAt).toBe(claim.body.claim.claimedAt);
  });

  it('GraphQL statuses match REST; the batch and the performance_daily route answer', async () => {
    const rq = await rest(api.url, 'GET', `/quests/campaigns/platform/indexed/daily-bet/status?player=${player.address}`);
    const gq = await gql(api.url, QuestStatusDocument, { campaignSlug: 'platform', questKey: 'daily-bet', player: player.address });
    expect(gq.body.data?.questStatus).toEqual(rq.body.status);

    const checks = [{ questKey: 'daily-bet' }, { questKey: 'weekly-bets', mode: 'live' }, { questKey: 'vip-level-5' }];
    const batch = await rest(api.url, 'POST', '/quests/campaigns/platform/status', { token: player.accessToken, body: { checks } });
    expect(batch.status).toBe(200);
    expect(batch.body.statuses.map((s: { questKey: string; progress: string }) => [s.questKey, s.progress])).toEqual([['daily-bet', '1'], ['weekly-bets', '1'], ['vip-level-5', '0']]);
    const gBatch = await gql(api.url, QuestBatchStatusDocument, { campaignSlug: 'platform', checks }, auth());
    expect(gBatch.body.data?.questBatchStatus).toEqual(batch.body.statuses);

    const perf = await rest(api.url, 'GET', `/quests/campaigns/platform/performance_daily/status?player=${player.address}`);
    expect(perf.body.status).toMatchObject({ questKey: 'daily-wins', progress: '0', target: '3', reason: 'incomplete' });
    const all = await rest(api.url, 'GET', '/quests/status', { token: player.accessToken });
    expect(all.body.statuses.length).toBe(8);
    expect(all.body.statuses.find((s: { questKey: string }) => s.questKey === 'daily-bet')).toMatchObject({ claimed: true });
  });

  it('GET /api/quests/campaigns/{slug}/status (the README table): every quest of the campaign, the same statuses as one-quest reads', async () => {
    const campaign = await rest(api.url, 'GET', '/quests/campaigns/platform/status', { token: player.accessToken });
    expect(campaign.status).toBe(200);
    const all = await rest(api.url, 'GET', '/quests/status', { token: player.accessToken });
    const platformStatuses = all.body.statuses.filter((s: { campaignSlug: string }) => s.campaignSlug === 'platform');
    expect(campaign.body.statuses).toEqual(platformStatuses);
    expect(campaign.body.statuses.find((s: { questKey: string }) => s.questKey === 'daily-bet')).toMatchObject({ player: player.address, mode: 'indexed', claimed: true });
    const live = await rest(api.url, 'GET', `/quests/campaigns/platform/status?mode=live&player=${player.address}`);
    expect(live.body.statuses.map((s: { mode: string }) => s.mode)).toEqual(platformStatuses.map(() => 'live'));
    const one = await rest(api.url, 'GET', `/quests/campaigns/platform/live/weekly-bets/status?player=${player.address}`);
    expect(live.body.statuses.find((s: { questKey: string }) => s.questKey === 'weekly-bets')).toEqual(one.body.status);

    const unknown = await rest(api.url, 'GET', '/quests/campaigns/nope/status', { token: player.accessToken });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('NOT_FOUND');
    const badMode = await rest(api.url, 'GET', '/quests/campaigns/platform/status?mode=soon', { token: player.accessToken });
    expect(badMode.status).toBe(400);
    expect(badMode.body.error.code).toBe('VALIDATION_FAILED');
    const anonymous = await rest(api.url, 'GET', '/quests/campaigns/platform/status');
    expect(anonymous.status).toBe(400);
    expect(anonymous.body.error.details.issues).toEqual([{ path: '/player', message: 'required without an access token' }]);
  });

  it('claims need the access token; bad inputs are refused the same way over REST and GraphQL', async () => {
    const anonymous = await rest(api.url, 'POST', '/quests/campaigns/platform/daily-bet/claim', { body: {} });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.error.code).toBe('UNAUTHENTICATED');
    const gAnon = await gql(api.url, ClaimQuestDocument, { campaignSlug: 'platform', questKey: 'daily-bet' });
    expect(gAnon.body.errors?.[0].extensions?.code).toBe('UNAUTHENTICATED');

    const badMode = await rest(api.url, 'GET', `/quests/campaigns/platform/fast/daily-bet/status?player=${player.address}`);
    expect(badMode.status).toBe(400);
    expect(badMode.body.error.code).toBe('VALIDATION_FAILED');
    const gBadMode = await gql(api.url, QuestStatusDocument, { campaignSlug: 'platform', questKey: 'daily-bet', mode: 'fast', player: player.address });
    expect(gBadMode.body.errors?.[0].extensions?.code).toBe('VALIDATION_FAILED');

    const tooMany = await rest(api.url, 'POST', '/quests/campaigns/platform/status', { token: player.accessToken, body: { checks: Array.from({ length: 51 }, () => ({ questKey: 'daily-bet' })) } });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.error.details.issues[0].path).toBe('/checks');
    const noPlayer = await rest(api.url, 'GET', '/quests/campaigns/platform/indexed/daily-bet/status');
    expect(noPlayer.body.error.code).toBe('VALIDATION_FAILED');
    const badHash = await rest(api.url, 'POST', '/quests/campaigns/platform/daily-streak/claim', { token: player.accessToken, body: { txHash: 'not base58 0OIl' } });
    expect(badHash.status).toBe(400);
    expect(badHash.body.error.details.issues[0].path).toBe('/txHash');
    // the service alone judges REST input: an unknown field is refused, not dropped
    const extra = await rest(api.url, 'POST', '/quests/campaigns/platform/daily-streak/claim', { token: player.accessToken, body: { bonus: 1000 } });
    expect(extra.status).toBe(400);
    expect(extra.body.error.code).toBe('VALIDATION_FAILED');
    expect(await claimFootprint(api.db)).toMatchObject({ claims: 1 });
  });

  it('/metrics counts claims, refusals by reason and evaluation time; the token never reaches the logs', async () => {
    const text = await (await fetch(`${api.url}/metrics`)).text();
    expect(text).toMatch(/quest_claims_total\{campaign="platform",quest="daily-bet"\} 1/);
    expect(text).toMatch(/quest_claim_refusals_total\{reason="duplicate"\} 2/);
    expect(text).toMatch(/quest_claim_refusals_total\{reason="incomplete"\} 1/);
    expect(text).toMatch(/quest_evaluation_duration_seconds_count\{operation="claim",mode="live"\} \d+/);
    // one upkeep pass for the login (daily-login-streak), one for the indexed bet
    expect(text).toMatch(/quest_progress_updates_total\{outcome="ok"\} 2/);
    expect(JSON.stringify(api.logs.lines)).not.toContain(player.accessToken);
    expect(api.logs.lines.some((l) => l.msg === 'quest claimed' && l.questKey === 'daily-bet')).toBe(true);
  });
});
