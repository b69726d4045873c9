/** The caller's claims history over real HTTP (REST and GraphQL): newest first, keyset pages that claims made meanwhile never shift. */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MyQuestClaimsDocument } from '../../src/generated/graphql';
import { startApi, type TestApi } from '../helpers/api';
import { gql } from '../helpers/client';
import { betEvent, indexBets, rest } from './quests-helpers';

const wallet = () => `0x${randomUUID().replace(/-/g, '').padEnd(64, '0')}`;
const HOUR = 3_600_000;
/** 45 claims: one per hour going back from a fixed instant, except claims 20–24 which share one instant (a tie across a page edge). */
const SEEDED = 45;
const BASE = Date.UTC(2026, 9, 1);
const claimedAt = (i: number) => new Date(BASE - (i >= 20 && i <= 24 ? 20 : i) * HOUR).toISOString();

interface Claim {
  questKey: string;
  claimedAt: string;
  player: string;
}

describe('claims history (GET /api/quests/claims, myQuestClaims)', () => {
  let api: TestApi;
  const player = wallet();
  let token: string;

  const insertClaim = (who: string, questKey: string, at: string) =>
    api.db.query(
      `INSERT INTO quest_claim (quest_key, campaign_slug, player_address, time_period, period_start, xp_reward, claimed_at) VALUES ($1, 'platform', $2, 'once', $3, 10, $3)`,
      [questKey, who, at],
    );

  beforeAll(async () => {
    api = await startApi();
    token = api.services.tokens.signAccess(player);
    for (let i = 0; i < SEEDED; i++) await insertClaim(player, `seeded-${i}`, claimedAt(i));
    await insertClaim(wallet(), 'someone-else', claimedAt(0));
  }, 120_000);
  afterAll(async () => api?.close());

  /** Every page over REST, following nextCursor; the claims and the page sizes. */
  async function readAll(limit: number): Promise<{ claims: Claim[]; sizes: number[] }> {
    const claims: Claim[] = [];
    const sizes: number[] = [];
    let after: string | null = null;
    do {
      const query: string = `?limit=${limit}${after ? `&after=${encodeURIComponent(after)}` : ''}`;
      const answer = await rest(api.url, 'GET', `/quests/claims${query}`, { token });
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      claims.push(...answer.body.claims);
      sizes.push(answer.body.claims.length);
      after = answer.body.nextCursor;
    } while (after);
    return { claims, sizes };
  }

  it('REST: every claim of the caller once, newest first, ties in one order', async () => {
    // Pages of 7 end at claims 7, 14, 21…: the tied claims 20–24 straddle an edge.
    const { claims, sizes } = await readAll(7);
    expect(sizes).toEqual([7, 7, 7, 7, 7, 7, 3]);
    expect(new Set(claims.map((c) => c.questKey)).size).toBe(SEEDED);
    expect(claims.every((c) => c.player === player)).toBe(true);
    const times = claims.map((c) => Date.parse(c.claimedAt));
    expect(times.every((t, i) => i === 0 || times[i - 1]! >= t)).toBe(true);
    expect(claims[0]).toMatchObject({ campaignSlug: 'platform', questKey: 'seeded-0', timePeriod: 'once', xpReward: 10, txHash: null, claimedAt: claimedAt(0) });
    // The same pages read again: the order of tied claims does not change between reads.
    expect((await readAll(7)).claims.map((c) => c.questKey)).toEqual(claims.map((c) => c.questKey));
  });

  it('GraphQL: the same pages; a claim made while paging appears on a new first page, never on a later one', async () => {
    const auth = { authorization: `Bearer ${token}` };
    const first = await gql(api.url, MyQuestClaimsDocument, { limit: 22 }, auth);
    expect(first.body.errors).toBeUndefined();
    const page1 = first.body.data!.myQuestClaims;
    expect(page1.claims).toHaveLength(22);

    // A real claim through the API meanwhile: today's daily bet.
    await indexBets(api.db, api.services.quests, [betEvent(player, new Date())]);
    const claimed = await rest(api.url, 'POST', '/quests/campaigns/platform/daily-bet/claim', { token, body: {} });
    expect(claimed.status, JSON.stringify(claimed.body)).toBe(200);

    const rest2 = await gql(api.url, MyQuestClaimsDocument, { limit: 22, after: page1.nextCursor }, auth);
    const rest3 = await gql(api.url, MyQuestClaimsDocument, { limit: 22, after: rest2.body.data!.myQuestClaims.nextCursor }, auth);
    const later = [...rest2.body.data!.myQuestClaims.claims, ...rest3.body.data!.myQuestClaims.claims];
    expect(rest3.body.data!.myQuestClaims.nextCursor).toBeNull();
    const restOrder = (await readAll(10)).claims.map((c) => c.questKey);
    expect([...page1.claims, ...later].map((c) => c.questKey)).toEqual(restOrder.filter((k) => k !== 'daily-bet'));

    const fresh = await gql(api.url, MyQuestClaimsDocument, { limit: 1 }, auth);
    expect(fresh.body.data!.myQuestClaims.claims[0]).toMatchObject({ questKey: 'daily-bet', player, claimedAt: claimed.body.claim.claimedAt });
  });

  it('refuses a missing token, a bad limit and a forged cursor', async () => {
    expect((await rest(api.url, 'GET', '/quests/claims')).status).toBe(401);
    const anonymous = await gql(api.url, MyQuestClaimsDocument, {});
    expect(anonymous.body.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    for (const query of ['?limit=0', '?limit=101', '?limit=ten', '?after=bm90LWEtY3Vyc29y']) {
      const answer = await rest(api.url, 'GET', `/quests/claims${query}`, { token });
      expect({ query, status: answer.status, code: answer.body.error.code }).toEqual({ query, status: 400, code: 'VALIDATION_FAILED' });
    }
    const forged = await gql(api.url, MyQuestClaimsDocument, { after: 'x' }, { authorization: `Bearer ${token}` });
    expect(forged.body.errors?.[0]?.extensions?.code).toBe('VALIDATION_FAILED');
  });
});
