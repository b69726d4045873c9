/**
 * Quests as data (issue 25): operators create, edit, schedule and switch campaigns and quests on
 * and off through /api/admin/campaigns (and GraphQL); each edit names the version it is based on
 * (a stale one is 409 VERSION_CONFLICT, so of two parallel edits exactly one applies), is audited,
 * and reaches every replica within 5 s. Players' statuses and claims evaluate the stored quests;
 * the default catalogue only seeds what is missing and never overwrites an operator's edit.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AdminCampaignsDocument,
  CreateCampaignDocument,
  CreateCampaignQuestDocument,
  UpdateCampaignDocument,
  UpdateCampaignQuestDocument,
} from '../../src/generated/graphql';
import { needsService } from '../helpers/env';
import { startApi, type TestApi } from '../helpers/api';
import { gql } from '../helpers/client';
import { until } from '../helpers/until';
import { betEvent, indexBets } from './quests-helpers';

const newWallet = (): string => `0x${randomBytes(32).toString('hex')}`;
const ALICE = newWallet();
const BOB = newWallet();
const STORE_PREFIX = `quests-admin-${randomBytes(4).toString('hex')}`;
const HOUR = 3_600_000;
/** The tests poll and fire parallel edits: admission's per-IP budget would answer 429 first. */
const ENV = { OPERATOR_WALLETS: `${ALICE},${BOB}`, 'HTTP.RATE_LIMIT_MAX': '100000' };
let api: TestApi;

beforeAll(async () => {
  api = await startApi({ storePrefix: STORE_PREFIX, env: ENV });
}, 90_000);
afterAll(async () => api?.close());

const bearer = (wallet: string, on: TestApi = api) => ({ authorization: `Bearer ${on.services.tokens.signAccess(wallet)}` });

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- answers of several shapes, read field by field
type Answer = { status: number; body: Record<string, any>; headers: Headers };

async function call(method: string, path: string, headers: Record<string, string> = {}, body?: unknown, on: TestApi = api): Promise<Answer> {
  const res = await fetch(`${on.url}${path}`, {
    method,
    headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null, headers: res.headers };
}

const asAlice = (method: string, path: string, body?: unknown) => call(method, path, bearer(ALICE), body);
const slugOf = (name: string) => `${name}-${randomBytes(3).toString('hex')}`;
const auditRows = (action: string, target: string) => api.db.prisma.operatorAudit.findMany({ where: { action, target }, orderBy: { id: 'asc' } });

async function newCampaign(over: Record<string, unknown> = {}): Promise<Answer> {
  const created = await asAlice('POST', '/api/admin/campaigns', {
    slug: slugOf('launch'),
    type: 'partner',
    title: 'Launch week',
    startAt: new Date(Date.now() - HOUR).toISOString(),
    endAt: new Date(Date.now() + 48 * HOUR).toISOString(),
    ...over,
  });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  return created;
}

const betQuest = (over: Record<string, unknown> = {}) => ({ key: 'bet-once', title: 'Bet once', xpReward: 25, timePeriod: 'daily', evaluator: { kind: 'bets_placed' }, target: 1, ...over });

describe('operator access to /api/admin/campaigns', () => {
  it('refuses every route without a token (401), for a wallet without the role (403) and at once after revocation (403)', async () => {
    const routes: Array<[string, string, unknown?]> = [
      ['GET', '/api/admin/campaigns'],
      ['POST', '/api/admin/campaigns', { slug: 'x' }],
      ['PATCH', '/api/admin/campaigns/platform', { version: 1, title: 'x' }],
      ['POST', '/api/admin/campaigns/platform/quests', betQuest()],
      ['PATCH', '/api/admin/campaigns/platform/quests/daily-bet', { version: 1, title: 'x' }],
    ];
    const player = bearer(newWallet());
    const grantee = newWallet();
    expect((await asAlice('POST', '/api/admin/operators', { wallet: grantee })).status).toBe(200);
    expect((await call('GET', '/api/admin/campaigns', bearer(grantee))).status).toBe(200);
    expect((await asAlice('DELETE', `/api/admin/operators/${grantee}`)).status).toBe(200);
    for (const [method, path, body] of routes) {
      const anonymous = await call(method, path, {}, body);
      expect([anonymous.status, anonymous.body.error.code], `${method} ${path}`).toEqual([401, 'UNAUTHENTICATED']);
      const stranger = await call(method, path, player, body);
      expect([stranger.status, stranger.body.error.code], `${method} ${path}`).toEqual([403, 'FORBIDDEN']);
      const revoked = await call(method, path, bearer(grantee), body);
      expect([revoked.status, revoked.body.error.code], `${method} ${path}`).toEqual([403, 'FORBIDDEN']);
    }
    const listed = await gql(api.url, AdminCampaignsDocument, {}, player);
    expect(listed.body.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    const edited = await gql(api.url, UpdateCampaignDocument, { slug: 'platform', input: { version: 1, title: 'x' } }, player);
    expect(edited.body.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    expect(await api.db.prisma.operatorAudit.count({ where: { action: { startsWith: 'campaigns.' }, actor: { not: ALICE } } })).toBe(0);
  });

  it('lists the seeded default catalogue with versions, evaluators and whether each quest was claimed', async () => {
    const list = await asAlice('GET', '/api/admin/campaigns');
    expect(list.status).toBe(200);
    const platform = list.body.campaigns.find((c: { slug: string }) => c.slug === 'platform');
    expect(platform).toMatchObject({ type: 'platform', enabled: true, lifecycle: 'active', version: 1 });
    expect(platform.quests.find((q: { key: string }) => q.key === 'weekly-wager')).toMatchObject({
      evaluator: { kind: 'wagered', coinType: '0x0000000000000000000000000000000000000000000000000000000000000002::sui::SUI' },
      target: '100000000000',
      version: 1,
      hasClaims: false,
      startAt: null,
      lifecycle: 'active',
    });
    const viaGraphql = await gql(api.url, AdminCampaignsDocument, {}, bearer(BOB));
    expect(viaGraphql.body.data?.adminCampaigns.find((c) => c.slug === 'platform')?.quests.map((q) => q.key)).toEqual(platform.quests.map((q: { key: string }) => q.key));
  });
});

describe('a campaign made by an operator, played by a player', () => {
  it('is listed, completable and claimable once: the player bets, the status completes, the claim pays once', async () => {
    const campaign = (await newCampaign()).body;
    expect(campaign).toMatchObject({ enabled: true, lifecycle: 'active', version: 1, quests: [], managesClaims: false });
    const quest = await asAlice('POST', `/api/admin/campaigns/${campaign.slug}/quests`, betQuest());
    expect(quest.status, JSON.stringify(quest.body)).toBe(200);
    expect(quest.body).toMatchObject({ key: 'bet-once', target: '1', evaluator: { kind: 'bets_placed' }, modes: ['indexed', 'live'], lifecycle: 'active', version: 1, hasClaims: false });

    const listed = await call('GET', '/api/quests/list');
    expect(listed.body.campaigns.find((c: { slug: string }) => c.slug === campaign.slug)).toMatchObject({ title: 'Launch week', enabled: true, quests: [expect.objectContaining({ key: 'bet-once', lifecycle: 'active', target: '1' })] });

    const player = newWallet();
    const token = bearer(player);
    const statusPath = `/api/quests/campaigns/${campaign.slug}/indexed/bet-once/status`;
    expect((await call('GET', statusPath, token)).body.status).toMatchObject({ progress: '0', completed: false, reason: 'incomplete' });
    await indexBets(api.db, api.services.quests, [betEvent(player, new Date())]);
    expect((await call('GET', statusPath, token)).body.status).toMatchObject({ progress: '1', completed: true, claimable: true, reason: null });

    const claimPath = `/api/quests/campaigns/${campaign.slug}/bet-once/claim`;
    const claim = await call('POST', claimPath, token, {});
    expect(claim.status, JSON.stringify(claim.body)).toBe(200);
    expect(claim.body.claim).toMatchObject({ campaignSlug: campaign.slug, questKey: 'bet-once', player, xpReward: 25, totalXp: '25' });
    const again = await call('POST', claimPath, token, {});
    expect([again.status, again.body.error.code]).toEqual([409, 'DUPLICATE_CLAIM']);
    expect(await api.db.query('SELECT count(*)::int AS n FROM quest_claim WHERE player_address = $1', [player])).toEqual([{ n: 1 }]);

    // One audit row per action, before and after.
    const [createdRow] = await auditRows('campaigns.create', campaign.slug);
    expect(createdRow).toMatchObject({ actor: ALICE, before: null, after: expect.objectContaining({ slug: campaign.slug, version: 1 }) });
    const questRows = await auditRows('quests.create', `${campaign.slug}/bet-once`);
    expect(questRows).toHaveLength(1);
    expect(questRows[0]!.after).toMatchObject({ key: 'bet-once', evaluator: { kind: 'bets_placed' }, target: '1' });

    // Claimed: what it counts and its period are frozen; its copy and reward are not.
    const frozen = await asAlice('PATCH', `/api/admin/campaigns/${campaign.slug}/quests/bet-once`, { version: 1, evaluator: { kind: 'bets_won' } });
    expect([frozen.status, frozen.body.error.code, frozen.body.error.details.fields]).toEqual([409, 'CONFLICT', ['evaluator']]);
    const retitled = await asAlice('PATCH', `/api/admin/campaigns/${campaign.slug}/quests/bet-once`, { version: 1, title: 'Bet once today', xpReward: 30 });
    expect(retitled.body).toMatchObject({ title: 'Bet once today', xpReward: 30, version: 2, hasClaims: true });
  });

  it('a quest created after the player already played counts that play (its progress is recomputed)', async () => {
    const campaign = (await newCampaign()).body;
    const player = newWallet();
    await indexBets(api.db, api.services.quests, [betEvent(player, new Date()), betEvent(player, new Date(), { won: true })]);
    const quest = await asAlice('POST', `/api/admin/campaigns/${campaign.slug}/quests`, betQuest({ key: 'two-bets', target: '2' }));
    expect(quest.status).toBe(200);
    const status = () => call('GET', `/api/quests/campaigns/${campaign.slug}/indexed/two-bets/status?player=${player}`);
    await until(async () => (await status()).body.status.completed, 'the recomputed progress of the new quest');
    expect((await status()).body.status).toMatchObject({ progress: '2', claimable: true });
  });

  it('switches a campaign off and on, schedules a quest, and logs each lifecycle change', async () => {
    const campaign = (await newCampaign()).body;
    await asAlice('POST', `/api/admin/campaigns/${campaign.slug}/quests`, betQuest());
    const player = newWallet();
    const status = async () => (await call('GET', `/api/quests/campaigns/${campaign.slug}/indexed/bet-once/status?player=${player}`)).body.status;
    expect((await status()).lifecycle).toBe('active');

    const off = await asAlice('PATCH', `/api/admin/campaigns/${campaign.slug}`, { version: 1, enabled: false });
    expect(off.body).toMatchObject({ enabled: false, lifecycle: 'inactive', version: 2, quests: [expect.objectContaining({ lifecycle: 'inactive' })] });
    expect(await status()).toMatchObject({ lifecycle: 'inactive', reason: 'inactive' });
    const refused = await call('POST', `/api/quests/campaigns/${campaign.slug}/bet-once/claim`, bearer(player), {});
    expect([refused.status, refused.body.error.code, refused.body.error.details.reason]).toEqual([422, 'CLAIM_PERIOD_INVALID', 'inactive']);

    await asAlice('PATCH', `/api/admin/campaigns/${campaign.slug}`, { version: 2, enabled: true });
    const later = new Date(Date.now() + HOUR).toISOString();
    const scheduled = await asAlice('PATCH', `/api/admin/campaigns/${campaign.slug}/quests/bet-once`, { version: 1, startAt: later });
    expect(scheduled.body).toMatchObject({ startAt: later, lifecycle: 'upcoming', version: 2 });
    expect(await status()).toMatchObject({ lifecycle: 'upcoming', reason: 'upcoming' });
    const cleared = await asAlice('PATCH', `/api/admin/campaigns/${campaign.slug}/quests/bet-once`, { version: 2, startAt: null });
    expect(cleared.body).toMatchObject({ startAt: null, lifecycle: 'active', version: 3 });

    const changes = api.logs.lines.filter((l) => l.quest === 'bet-once' && (l.campaign as { slug?: string } | undefined)?.slug === campaign.slug).map((l) => [l.previous, l.lifecycle]);
    expect(changes).toEqual([[null, 'active'], ['active', 'inactive'], ['inactive', 'active'], ['active', 'upcoming'], ['upcoming', 'active']]);
    expect(await auditRows('campaigns.update', campaign.slug)).toHaveLength(2);
    const questEdits = await auditRows('quests.update', `${campaign.slug}/bet-once`);
    expect(questEdits.map((r) => [(r.before as { version: number }).version, (r.after as { version: number }).version])).toEqual([[1, 2], [2, 3]]);
  });

  it('derives a quest key from the title, refuses a taken key and a second daily performance quest (409 CONFLICT)', async () => {
    const campaign = (await newCampaign()).body;
    const base = { title: 'Win 3 bets today!', xpReward: 10, timePeriod: 'daily', evaluator: { kind: 'bets_won', coinType: '0x2::sui::SUI' }, target: '3', performanceDaily: true };
    const created = await asAlice('POST', `/api/admin/campaigns/${campaign.slug}/quests`, base);
    expect(created.body).toMatchObject({ key: 'win-3-bets-today', performanceDaily: true, evaluator: { coinType: expect.stringMatching(/^0x0{63}2::sui::SUI$/) } });
    const taken = await asAlice('POST', `/api/admin/campaigns/${campaign.slug}/quests`, base);
    expect([taken.status, taken.body.error.code, taken.body.error.details.reason]).toEqual([409, 'CONFLICT', 'quest_exists']);
    const second = await asAlice('POST', `/api/admin/campaigns/${campaign.slug}/quests`, { ...base, key: 'another' });
    expect([second.status, second.body.error.details.reason]).toEqual([409, 'performance_daily_taken']);
    const perf = await call('GET', `/api/quests/campaigns/${campaign.slug}/performance_daily/status?player=${newWallet()}`);
    expect(perf.body.status).toMatchObject({ questKey: 'win-3-bets-today', target: '3' });
    const sameSlug = await asAlice('POST', '/api/admin/campaigns', { slug: campaign.slug, type: 'partner', startAt: campaign.startAt, endAt: campaign.endAt });
    expect([sameSlug.status, sameSlug.body.error.code]).toEqual([409, 'CONFLICT']);
    expect(await auditRows('campaigns.create', campaign.slug)).toHaveLength(1);
  });

  it('refuses bad input with VALIDATION_FAILED and field details, writing nothing', async () => {
    const campaign = (await newCampaign()).body;
    const quests = `/api/admin/campaigns/${campaign.slug}/quests`;
    const cases: Array<[string, string, unknown, string[]]> = [
      ['POST', '/api/admin/campaigns', { slug: 'Bad Slug', type: 'partner', startAt: 'soon', endAt: new Date().toISOString() }, ['/slug', '/startAt']],
      ['POST', '/api/admin/campaigns', { slug: slugOf('x'), type: 'partner', startAt: new Date(Date.now() + HOUR).toISOString(), endAt: new Date().toISOString() }, ['/endAt']],
      ['PATCH', `/api/admin/campaigns/${campaign.slug}`, { title: 'no version' }, ['/version']],
      ['PATCH', `/api/admin/campaigns/${campaign.slug}`, { version: 1 }, ['']],
      ['PATCH', `/api/admin/campaigns/${campaign.slug}`, { version: 1, slug: 'renamed' }, ['']],
      ['PATCH', '/api/admin/campaigns/Not_A-Slug!', { version: 1, title: 'x' }, ['/slug']],
      ['POST', quests, betQuest({ evaluator: { kind: 'wagered' } }), ['/evaluator/coinType']],
      ['POST', quests, betQuest({ evaluator: { kind: 'bets_placed', coinType: 'SUI' } }), ['/evaluator/coinType']],
      ['POST', quests, betQuest({ evaluator: { kind: 'vip_level', coinType: '0x2::sui::SUI' } }), ['/evaluator']],
      ['POST', quests, betQuest({ evaluator: { kind: 'jackpots' } }), ['/evaluator/kind']],
      ['POST', quests, betQuest({ target: 0, xpReward: -1, timePeriod: 'monthly' }), ['/xpReward', '/timePeriod', '/target']],
      ['POST', quests, betQuest({ key: 'Bad Key' }), ['/key']],
      ['POST', quests, betQuest({ timePeriod: 'weekly', performanceDaily: true }), ['/performanceDaily']],
      ['POST', quests, betQuest({ title: '!!!', key: undefined }), ['/key']],
    ];
    for (const [method, path, body, paths] of cases) {
      const answer = await asAlice(method, path, body);
      const where = `${method} ${path} ${JSON.stringify(body)}`;
      expect([answer.status, answer.body.error.code], where).toEqual([400, 'VALIDATION_FAILED']);
      expect(answer.body.error.details.issues.map((i: { path: string }) => i.path).sort(), where).toEqual([...paths].sort());
    }
    const viaGraphql = await gql(api.url, CreateCampaignQuestDocument, { campaignSlug: campaign.slug, input: { title: 'x', xpReward: 1, timePeriod: 'daily', evaluator: { kind: 'wagered' }, target: '1' } }, bearer(ALICE));
    expect(viaGraphql.body.errors?.[0]?.extensions).toMatchObject({ code: 'VALIDATION_FAILED', details: { issues: [{ path: '/evaluator/coinType' }] } });
    const unknown = await asAlice('PATCH', `/api/admin/campaigns/${campaign.slug}/quests/nope`, { version: 1, title: 'x' });
    expect([unknown.status, unknown.body.error.code]).toEqual([404, 'NOT_FOUND']);
    expect((await asAlice('GET', '/api/admin/campaigns')).body.campaigns.find((c: { slug: string }) => c.slug === campaign.slug)).toMatchObject({ version: 1, quests: [] });
    expect(await auditRows('campaigns.update', campaign.slug)).toHaveLength(0);
  });
});

describe('versions: an edit based on a stale version is refused', () => {
  it('answers 409 VERSION_CONFLICT for a stale version, REST and GraphQL alike', async () => {
    const campaign = (await newCampaign()).body;
    expect((await asAlice('PATCH', `/api/admin/campaigns/${campaign.slug}`, { version: 1, title: 'First' })).body.version).toBe(2);
    const stale = await asAlice('PATCH', `/api/admin/campaigns/${campaign.slug}`, { version: 1, title: 'Second' });
    expect([stale.status, stale.body.error.code, stale.body.error.details]).toEqual([409, 'VERSION_CONFLICT', { currentVersion: 2, givenVersion: 1 }]);
    const viaGraphql = await gql(api.url, UpdateCampaignDocument, { slug: campaign.slug, input: { version: 1, title: 'Third' } }, bearer(BOB));
    expect(viaGraphql.body.errors?.[0]?.extensions?.code).toBe('VERSION_CONFLICT');
    const current = await gql(api.url, UpdateCampaignDocument, { slug: campaign.slug, input: { version: 2, title: 'Third' } }, bearer(BOB));
    expect(current.body.data?.updateCampaign).toMatchObject({ title: 'Third', version: 3 });
  });

  it('two operators editing one quest from the same version at once: exactly one 200 and one 409, again and again', async () => {
    const campaign = (await newCampaign()).body;
    await asAlice('POST', `/api/admin/campaigns/${campaign.slug}/quests`, betQuest());
    const path = `/api/admin/campaigns/${campaign.slug}/quests/bet-once`;
    for (let version = 1; version <= 5; version++) {
      const answers = await Promise.all([
        call('PATCH', path, bearer(ALICE), { version, title: `Alice ${version}` }),
        call('PATCH', path, bearer(BOB), { version, xpReward: 100 + version }),
      ]);
      expect(answers.map((a) => a.status).sort(), `round ${version}`).toEqual([200, 409]);
      expect(answers.find((a) => a.status === 409)!.body.error.code).toBe('VERSION_CONFLICT');
      expect(answers.find((a) => a.status === 200)!.body.version).toBe(version + 1);
    }
    // Ten at once from one version: one applies.
    const many = await Promise.all(Array.from({ length: 10 }, (_, i) => call('PATCH', path, bearer(i % 2 ? ALICE : BOB), { version: 6, description: `edit ${i}` })));
    expect(many.filter((a) => a.status === 200)).toHaveLength(1);
    expect(many.filter((a) => a.status === 409 && a.body.error.code === 'VERSION_CONFLICT')).toHaveLength(9);
    expect(await auditRows('quests.update', `${campaign.slug}/bet-once`)).toHaveLength(6);
    const viaGraphql = await gql(api.url, UpdateCampaignQuestDocument, { campaignSlug: campaign.slug, questKey: 'bet-once', input: { version: 7, enabled: false } }, bearer(ALICE));
    expect(viaGraphql.body.data?.updateCampaignQuest).toMatchObject({ enabled: false, version: 8, lifecycle: 'inactive' });
  });

  it('two operators editing one campaign from the same version at once: exactly one 200 and one 409', async () => {
    const campaign = (await newCampaign()).body;
    const path = `/api/admin/campaigns/${campaign.slug}`;
    for (let version = 1; version <= 5; version++) {
      const answers = await Promise.all([
        call('PATCH', path, bearer(ALICE), { version, title: `Alice ${version}` }),
        call('PATCH', path, bearer(BOB), { version, endAt: new Date(Date.now() + (72 + version) * HOUR).toISOString() }),
      ]);
      expect(answers.map((a) => a.status).sort(), `round ${version}`).toEqual([200, 409]);
      expect(answers.find((a) => a.status === 409)!.body.error.code).toBe('VERSION_CONFLICT');
    }
    expect(await auditRows('campaigns.update', campaign.slug)).toHaveLength(5);
  });
});

// Replicas share the data generations only through Redis (the embedded store is per process).
describe.runIf(needsService('SHARED_STORE_URL'))('every replica sees an edit within 5 s, without a restart', () => {
  it("an edit on A shows on B's GET /api/quests/list and B's cached GraphQL catalogue within 5 s", async () => {
    const b = await startApi({ db: api.db, storePrefix: STORE_PREFIX, env: ENV });
    try {
      const campaign = (await newCampaign()).body;
      await asAlice('POST', `/api/admin/campaigns/${campaign.slug}/quests`, betQuest());
      const onB = async () => (await call('GET', '/api/quests/list', {}, undefined, b)).body.campaigns.find((c: { slug: string }) => c.slug === campaign.slug);
      await until(onB, 'the new campaign on B', 5_000);
      // B's GraphQL catalogue answer is in the shared response cache...
      const query = 'query Catalogue { questCampaigns { slug title quests { key title } } }';
      const graphqlOnB = () => fetch(`${b.url}/graphql?${new URLSearchParams({ query })}`, { headers: { 'apollo-require-preflight': 'true' } });
      await until(async () => (await graphqlOnB()).headers.get('age') !== null, 'a cached catalogue answer on B');

      for (const [edit, seen] of [
        [() => asAlice('PATCH', `/api/admin/campaigns/${campaign.slug}/quests/bet-once`, { version: 1, title: 'Renamed on A' }), (c: { quests: Array<{ title: string }> }) => c?.quests[0]?.title === 'Renamed on A'],
        [() => asAlice('PATCH', `/api/admin/campaigns/${campaign.slug}`, { version: 1, title: 'Campaign renamed on A' }), (c: { title: string }) => c?.title === 'Campaign renamed on A'],
      ] as const) {
        expect((await edit()).status).toBe(200);
        const editedAt = Date.now();
        await until(async () => seen(await onB()), "the edit on B's list", 5_000, 50);
        await until(
          async () => {
            const body = (await (await graphqlOnB()).json()) as { data: { questCampaigns: Array<{ slug: string }> } };
            return seen(body.data.questCampaigns.find((c) => c.slug === campaign.slug) as never);
          },
          "the edit in B's GraphQL catalogue",
          5_000,
          50,
        );
        expect(Date.now() - editedAt).toBeLessThan(5_000);
      }
      // Players on B evaluate the edited definition: switched off on A, inactive on B.
      await asAlice('PATCH', `/api/admin/campaigns/${campaign.slug}/quests/bet-once`, { version: 2, enabled: false });
      await until(async () => (await call('GET', `/api/quests/campaigns/${campaign.slug}/indexed/bet-once/status?player=${newWallet()}`, {}, undefined, b)).body.status.lifecycle === 'inactive', 'the switch on B', 5_000);
    } finally {
      await b.close();
    }
  }, 90_000);
});

describe('the default catalogue seeds what is missing and never overwrites an edit', () => {
  it('keeps an operator edit of a seeded quest through the seed, and inserts a default quest missing from the database', async () => {
    const before = (await asAlice('GET', '/api/admin/campaigns')).body.campaigns.find((c: { slug: string }) => c.slug === 'platform');
    const dailyBet = before.quests.find((q: { key: string }) => q.key === 'daily-bet');
    const edited = await asAlice('PATCH', '/api/admin/campaigns/platform/quests/daily-bet', { version: dailyBet.version, title: 'Operator title', target: '2', xpReward: 75 });
    expect(edited.status).toBe(200);
    const campaignEdit = await asAlice('PATCH', '/api/admin/campaigns/platform', { version: before.version, title: 'Operator campaign title' });
    expect(campaignEdit.status).toBe(200);
    // A default quest the database lacks (as a new release's would be).
    await api.db.query(`DELETE FROM quest WHERE campaign_slug = 'platform' AND key = 'vip-level-5'`);

    expect(await api.services.quests.seed()).toEqual({ campaigns: [], quests: ['platform/vip-level-5'] });
    expect(await api.services.quests.seed()).toEqual({ campaigns: [], quests: [] });

    const after = (await asAlice('GET', '/api/admin/campaigns')).body.campaigns.find((c: { slug: string }) => c.slug === 'platform');
    expect(after).toMatchObject({ title: 'Operator campaign title', version: before.version + 1 });
    expect(after.quests.find((q: { key: string }) => q.key === 'daily-bet')).toMatchObject({ title: 'Operator title', target: '2', xpReward: 75, version: dailyBet.version + 1 });
    expect(after.quests.find((q: { key: string }) => q.key === 'vip-level-5')).toMatchObject({ title: 'Reach VIP level 5', version: 1 });
    expect(after.quests.map((q: { key: string }) => q.key)).toEqual(before.quests.map((q: { key: string }) => q.key));
  });

  it('creates campaigns and quests over GraphQL too', async () => {
    const slug = slugOf('gql');
    const created = await gql(
      api.url,
      CreateCampaignDocument,
      { input: { slug, type: 'partner', startAt: new Date().toISOString(), endAt: new Date(Date.now() + HOUR).toISOString(), managesClaims: true } },
      bearer(BOB),
    );
    expect(created.body.data?.createCampaign).toMatchObject({ slug, managesClaims: true, version: 1, quests: [] });
    const quest = await gql(api.url, CreateCampaignQuestDocument, { campaignSlug: slug, input: { title: 'Log in 2 days', xpReward: 5, timePeriod: 'weekly', evaluator: { kind: 'login_streak' }, target: '2' } }, bearer(BOB));
    expect(quest.body.data?.createCampaignQuest).toMatchObject({ key: 'log-in-2-days', evaluator: { kind: 'login_streak', coinType: null }, target: '2', timePeriod: 'weekly' });
    const [row] = await auditRows('quests.create', `${slug}/log-in-2-days`);
    expect(row).toMatchObject({ actor: BOB });
  });
});
