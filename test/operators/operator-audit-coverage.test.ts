/**
 * Every operator-only operation that changes something writes exactly one audit row. The operations
 * are read from the app, not listed by hand: REST routes whose OpenAPI security admits the operator
 * token, GraphQL fields whose `@Authorized` names 'operator' (the schema's `extensions.access`).
 * Reads need no row: on REST a GET, on GraphQL a Query field; everything else (POST, PUT, PATCH,
 * DELETE; Mutation fields) is a change and must be audited. A new operator change without an
 * example below fails this test until it has one.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessOf } from '../../src/graphql/authorized';
import { buildGraphqlSchema } from '../../src/resolvers';
import { startApi, type TestApi } from '../helpers/api';

const OPERATOR_TOKEN = randomBytes(24).toString('hex');
let api: TestApi;
beforeAll(async () => {
  api = await startApi({ env: { OPERATOR_TOKEN, 'HTTP.RATE_LIMIT_MAX': '10000' } });
}, 60_000);
afterAll(async () => api?.close());

const operator = { authorization: `Bearer ${OPERATOR_TOKEN}` };
const HOUR = 3_600_000;
const unique = () => randomBytes(4).toString('hex');
const newWallet = () => `0x${randomBytes(32).toString('hex')}`;

async function rest(method: string, path: string, body?: unknown, headers: Record<string, string> = operator) {
  const res = await api.app.inject({ method: method as 'GET', url: path, headers, ...(body === undefined ? {} : { payload: body as object }) });
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- answers of several shapes, read field by field
  return { status: res.statusCode, body: res.json() as Record<string, any> };
}
async function graphql(query: string, variables: Record<string, unknown>) {
  const res = await api.app.inject({ method: 'POST', url: '/graphql', headers: { ...operator, 'content-type': 'application/json' }, payload: { query, variables } });
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- answers of several shapes
  return res.json() as { data?: Record<string, any>; errors?: unknown[] };
}
const created = async (method: string, path: string, body?: unknown) => {
  const res = await rest(method, path, body);
  if (res.status !== 200) throw new Error(`setup ${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
};

// Things an operation acts on, made before its rows are counted.
const campaign = () => created('POST', '/api/admin/campaigns', { slug: `audit-${unique()}`, type: 'partner', title: 'Audit', startAt: new Date(Date.now() - HOUR).toISOString(), endAt: new Date(Date.now() + 48 * HOUR).toISOString() });
const questOf = async () => {
  const c = await campaign();
  const q = await created('POST', `/api/admin/campaigns/${c.slug}/quests`, { key: 'bet-once', title: 'Bet once', xpReward: 25, timePeriod: 'daily', evaluator: { kind: 'bets_placed' }, target: '1' });
  return { slug: c.slug as string, key: q.key as string, version: q.version as number };
};
const giftProject = async () => (await created('POST', '/api/admin/gifts/projects', { name: `audit-${unique()}` })).name as string;
const grantedWallet = async () => (await created('POST', '/api/admin/operators', { wallet: newWallet() })).wallet as string;
const bannedWallet = async () => (await created('POST', '/api/admin/chat/bans', { wallet: newWallet(), reason: 'spam' })).wallet as string;
const message = async () => (await api.services.chat.send({ wallet: newWallet(), transport: 'websocket' }, { room: 'game:audit', text: 'hello' })).id;
const report = async () => {
  const reporter = newWallet();
  const res = await rest('POST', '/api/chat/reports', { messageId: await message(), reason: 'spam' }, { authorization: `Bearer ${api.services.tokens.signAccess(reporter)}` });
  if (res.status !== 200) throw new Error(`setup report: ${JSON.stringify(res.body)}`);
  return String(res.body.id ?? res.body.report?.id);
};
const chainWrite = async (status: 'failed' | 'queued') =>
  String((await api.db.prisma.chainWrite.create({ data: { kind: 'test.audit', idempotencyKey: `audit-${unique()}`, status, payload: {} } })).id);
const windows = () => [{ startsAt: new Date(Date.now() + HOUR).toISOString(), endsAt: new Date(Date.now() + 2 * HOUR).toISOString(), dailyQuota: 5 }];

type Call = () => Promise<{ ok: boolean; answer: unknown }>;
const viaRest = (method: string, path: string, body?: unknown): Call => async () => {
  const res = await rest(method, path, body);
  return { ok: res.status >= 200 && res.status < 300, answer: res };
};
const viaGraphql = (query: string, variables: Record<string, unknown>): Call => async () => {
  const res = await graphql(query, variables);
  return { ok: !res.errors && res.data !== undefined, answer: res };
};

/** An example of each operator change, by REST operationId: made ready, then called. */
const REST_EXAMPLES: Record<string, () => Promise<Call>> = {
  adminGrantOperator: async () => viaRest('POST', '/api/admin/operators', { wallet: newWallet() }),
  adminRevokeOperator: async () => viaRest('DELETE', `/api/admin/operators/${await grantedWallet()}`),
  statsCacheClear: async () => viaRest('POST', '/api/stats/cache/clear', {}),
  adminCreateCampaign: async () => viaRest('POST', '/api/admin/campaigns', { slug: `audit-${unique()}`, type: 'partner', startAt: new Date().toISOString(), endAt: new Date(Date.now() + HOUR).toISOString() }),
  adminUpdateCampaign: async () => {
    const c = await campaign();
    return viaRest('PATCH', `/api/admin/campaigns/${c.slug}`, { version: c.version, title: 'Edited' });
  },
  adminCreateQuest: async () => viaRest('POST', `/api/admin/campaigns/${(await campaign()).slug}/quests`, { title: 'Bet twice', xpReward: 5, timePeriod: 'daily', evaluator: { kind: 'bets_placed' }, target: '2' }),
  adminUpdateQuest: async () => {
    const q = await questOf();
    return viaRest('PATCH', `/api/admin/campaigns/${q.slug}/quests/${q.key}`, { version: q.version, title: 'Edited' });
  },
  adminRemoveChatMessage: async () => viaRest('DELETE', `/api/admin/chat/messages/${await message()}`),
  adminBanChatWallet: async () => viaRest('POST', '/api/admin/chat/bans', { wallet: newWallet(), reason: 'spam' }),
  adminUnbanChatWallet: async () => viaRest('DELETE', `/api/admin/chat/bans/${await bannedWallet()}`),
  adminDismissChatReport: async () => viaRest('POST', `/api/admin/chat/reports/${await report()}/dismiss`, {}),
  adminRetryChainWrite: async () => viaRest('POST', `/api/admin/chain-writes/${await chainWrite('failed')}/retry`),
  adminCancelChainWrite: async () => viaRest('POST', `/api/admin/chain-writes/${await chainWrite('queued')}/cancel`),
  adminCreateGiftProject: async () => viaRest('POST', '/api/admin/gifts/projects', { name: `audit-${unique()}` }),
  adminSetGiftWindows: async () => viaRest('PUT', `/api/admin/gifts/projects/${await giftProject()}/windows`, { windows: windows() }),
  adminLoadGiftStash: async () => viaRest('POST', `/api/admin/gifts/projects/${await giftProject()}/stash`, { urls: [`https://gifts.example/${unique()}`] }),
};

/** The same for every operator Mutation field. */
const GRAPHQL_EXAMPLES: Record<string, () => Promise<Call>> = {
  grantOperator: async () => viaGraphql('mutation($w: String!) { grantOperator(wallet: $w) { wallet } }', { w: newWallet() }),
  revokeOperator: async () => viaGraphql('mutation($w: String!) { revokeOperator(wallet: $w) { wallet } }', { w: await grantedWallet() }),
  createCampaign: async () =>
    viaGraphql('mutation($i: CampaignCreateInput!) { createCampaign(input: $i) { slug } }', { i: { slug: `audit-${unique()}`, type: 'partner', startAt: new Date().toISOString(), endAt: new Date(Date.now() + HOUR).toISOString() } }),
  updateCampaign: async () => {
    const c = await campaign();
    return viaGraphql('mutation($s: String!, $i: CampaignUpdateInput!) { updateCampaign(slug: $s, input: $i) { slug } }', { s: c.slug, i: { version: c.version, title: 'Edited' } });
  },
  createCampaignQuest: async () =>
    viaGraphql('mutation($s: String!, $i: QuestCreateInput!) { createCampaignQuest(campaignSlug: $s, input: $i) { key } }', {
      s: (await campaign()).slug,
      i: { title: 'Bet twice', xpReward: 5, timePeriod: 'daily', evaluator: { kind: 'bets_placed' }, target: '2' },
    }),
  updateCampaignQuest: async () => {
    const q = await questOf();
    return viaGraphql('mutation($s: String!, $k: String!, $i: QuestUpdateInput!) { updateCampaignQuest(campaignSlug: $s, questKey: $k, input: $i) { key } }', { s: q.slug, k: q.key, i: { version: q.version, title: 'Edited' } });
  },
  deleteChatMessage: async () => viaGraphql('mutation($id: ID!) { deleteChatMessage(id: $id) { __typename } }', { id: await message() }),
  banChatWallet: async () => viaGraphql('mutation($w: String!) { banChatWallet(wallet: $w, reason: "spam") { wallet } }', { w: newWallet() }),
  unbanChatWallet: async () => viaGraphql('mutation($w: String!) { unbanChatWallet(wallet: $w) { __typename } }', { w: await bannedWallet() }),
  dismissChatReport: async () => viaGraphql('mutation($id: ID!) { dismissChatReport(id: $id) { id } }', { id: await report() }),
  retryChainWrite: async () => viaGraphql('mutation($id: String!) { retryChainWrite(id: $id) { id } }', { id: await chainWrite('failed') }),
  cancelChainWrite: async () => viaGraphql('mutation($id: String!) { cancelChainWrite(id: $id) { id } }', { id: await chainWrite('queued') }),
  createGiftProject: async () => viaGraphql('mutation($n: String!) { createGiftProject(name: $n) { name } }', { n: `audit-${unique()}` }),
  setGiftWindows: async () =>
    viaGraphql('mutation($p: String!, $w: [GiftWindowInput!]!) { setGiftWindows(project: $p, windows: $w) { name } }', { p: await giftProject(), w: windows() }),
  loadGiftStash: async () => viaGraphql('mutation($p: String!, $u: [String!]!) { loadGiftStash(project: $p, urls: $u) { __typename } }', { p: await giftProject(), u: [`https://gifts.example/${unique()}`] }),
};

const auditCount = async () => api.db.prisma.operatorAudit.count();

async function expectOneRow(name: string, example: (() => Promise<Call>) | undefined) {
  expect(example, `${name} is an operator change without an example in this test`).toBeDefined();
  const call = await example!();
  const before = await auditCount();
  const { ok, answer } = await call();
  expect(ok, `${name}: ${JSON.stringify(answer)}`).toBe(true);
  expect((await auditCount()) - before, `${name}: audit rows written`).toBe(1);
}

describe('every operator change writes one audit row', () => {
  it('REST: every operator route other than GET', async () => {
    const doc = (api.app as unknown as { swagger(): { paths: Record<string, Record<string, { operationId?: string; security?: Array<Record<string, unknown>> }>> } }).swagger();
    const changes: string[] = [];
    const reads: string[] = [];
    for (const [path, operations] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(operations)) {
        if (!op.security?.some((s) => 'operatorToken' in s)) continue;
        (method === 'get' || method === 'head' ? reads : changes).push(op.operationId ?? `${method} ${path}`);
      }
    }
    expect(reads.length).toBeGreaterThan(0);
    expect(changes.sort()).toEqual(Object.keys(REST_EXAMPLES).sort());
    for (const name of changes) await expectOneRow(`REST ${name}`, REST_EXAMPLES[name]);
  });

  it('GraphQL: every operator Mutation field', async () => {
    // the schema the runtime serves, built the same way (its resolvers are not run here)
    const schema = await buildGraphqlSchema({ services: api.services, pubSub: { publish: () => undefined, subscribe: () => (async function* () {})() } });
    const operatorFields = (type: { getFields(): Record<string, { extensions?: Readonly<Record<string, unknown>> | null }> } | null | undefined) =>
      Object.entries(type?.getFields() ?? {}).filter(([, field]) => accessOf(field).includes('operator')).map(([name]) => name);
    expect(operatorFields(schema.getQueryType()).length).toBeGreaterThan(0);
    expect(operatorFields(schema.getSubscriptionType())).toEqual([]);
    const mutations = operatorFields(schema.getMutationType());
    expect(mutations.sort()).toEqual(Object.keys(GRAPHQL_EXAMPLES).sort());
    for (const name of mutations) await expectOneRow(`GraphQL ${name}`, GRAPHQL_EXAMPLES[name]);
  });
});
