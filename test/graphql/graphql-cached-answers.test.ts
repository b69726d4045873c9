// Cached answers sent from a Fastify hook before Apollo (src/graphql/cached-answers.ts), through
// the real HTTP interface (Fastify inject: every hook, no socket): a hit is the answer Apollo sent
// (bytes and headers, Age added), 304 on If-None-Match, admission still charged, nothing served to
// an authenticated caller or across variables, a bump makes the next read fresh, anonymous PRIVATE
// answers stay anonymous callers', and requests Apollo would refuse are still refused.
import { createHash, randomUUID } from 'node:crypto';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi, type TestApi } from '../helpers/api';
import { betEvent, indexBets } from '../quests/quests-helpers';

const TOP = 'query Top { leaderboard(board: XP, limit: 5) { rank player score } }';
const TOP_N = 'query TopN($limit: Int!) { leaderboard(board: XP, limit: $limit) { player score } }';
const ELIGIBILITY = 'query Mine { subnameEligibility { vipLevel } }';
const QUEST_STATUS = 'query Status($player: String!) { questBatchStatus(campaignSlug: "platform", checks: [{ questKey: "daily-bet", player: $player }]) { progress claimed } }';
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const wallet = (c: string) => `0x${c.repeat(64)}`;
const PREFLIGHT = { 'apollo-require-preflight': 'true' };
/** Headers that differ between any two answers: the clock, the admission window, the socket. */
const PER_RESPONSE = ['date', 'age', 'ratelimit-remaining', 'ratelimit-reset', 'connection', 'keep-alive'];

interface Answer {
  status: number;
  headers: Record<string, unknown>;
  text: string;
  json: { data?: Record<string, unknown> | null; errors?: Array<{ extensions: { code: string } }> };
}

async function send(api: TestApi, options: InjectOptions): Promise<Answer> {
  const res = await api.app.inject(options);
  const json = /json/.test(String(res.headers['content-type'])) && res.body ? JSON.parse(res.body) : null;
  return { status: res.statusCode, headers: res.headers, text: res.body, json };
}

const getUrl = (query: string | null, params: { variables?: unknown; hash?: string; operationName?: string } = {}) => {
  const search = new URLSearchParams();
  if (query !== null) search.set('query', query);
  if (params.operationName) search.set('operationName', params.operationName);
  if (params.variables) search.set('variables', JSON.stringify(params.variables));
  if (params.hash) search.set('extensions', JSON.stringify({ persistedQuery: { version: 1, sha256Hash: params.hash } }));
  return `/graphql?${search}`;
};
const get = (api: TestApi, query: string | null, opts: { headers?: Record<string, string>; variables?: unknown; hash?: string } = {}) =>
  send(api, { method: 'GET', url: getUrl(query, opts), headers: { ...PREFLIGHT, ...opts.headers } });
const post = (api: TestApi, body: unknown, headers: Record<string, string> = {}) =>
  send(api, { method: 'POST', url: '/graphql', headers: { 'content-type': 'application/json', ...headers }, payload: JSON.stringify(body) });

const withoutPerResponse = (headers: Record<string, unknown>) => Object.fromEntries(Object.entries(headers).filter(([k]) => !PER_RESPONSE.includes(k)));
const scores = (a: Answer) => (a.json.data!.leaderboard as Array<{ score: string }>).map((e) => e.score);

/** Asks until the answer comes from the cache (the fill reaches the shared store in the background). */
async function hit(ask: () => Promise<Answer>): Promise<Answer> {
  for (let i = 0; i < 50; i++) {
    const answer = await ask();
    if (answer.headers.age !== undefined) return answer;
  }
  throw new Error('never answered from the cache');
}

describe('cached public answers before Apollo', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startApi({ storePrefix: randomUUID() });
    await api.db.query(`INSERT INTO xp_leaderboard (player, total_xp, vip_level) VALUES ($1, 300, 1), ($2, 200, 0)`, [wallet('a'), wallet('b')]);
  }, 120_000);
  afterAll(async () => api?.close());

  it('sends a hit with the bytes and headers of the answer Apollo sent (GET and POST), plus Age, and 304 for the ETag held', async () => {
    await api.services.leaderboards.invalidate();
    const apolloGet = await get(api, TOP);
    expect(apolloGet.status).toBe(200);
    expect(apolloGet.headers.age).toBeUndefined();
    expect(apolloGet.headers['cache-control']).toBe('max-age=10, public');
    const cachedGet = await hit(() => get(api, TOP));
    expect(cachedGet.text).toBe(apolloGet.text);
    expect(withoutPerResponse(cachedGet.headers)).toEqual(withoutPerResponse(apolloGet.headers));
    expect(Number(cachedGet.headers.age)).toBeGreaterThanOrEqual(0);

    const etag = cachedGet.headers.etag as string;
    expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    const notModified = await get(api, TOP, { headers: { 'if-none-match': etag } });
    expect(notModified.status).toBe(304);
    expect(notModified.text).toBe('');
    expect(notModified.headers.etag).toBe(etag);
    expect(notModified.headers.age).toBeDefined();

    // The same operation over POST: one key for both methods; a POST answer carries no ETag and is never a 304.
    await api.services.leaderboards.invalidate();
    const apolloPost = await post(api, { query: TOP });
    expect(apolloPost.headers.age).toBeUndefined();
    const cachedPost = await hit(() => post(api, { query: TOP }, { 'if-none-match': etag }));
    expect(cachedPost.status).toBe(200);
    expect(cachedPost.text).toBe(apolloPost.text);
    expect(cachedPost.headers.etag).toBeUndefined();
    expect(withoutPerResponse(cachedPost.headers)).toEqual(withoutPerResponse(apolloPost.headers));

    // Another Accept header: the content type Apollo negotiates for it, on the hit as on Apollo's answer.
    const accept = { accept: 'application/graphql-response+json, application/json;q=0.9' };
    const cachedOther = await get(api, TOP, { headers: accept });
    expect(cachedOther.headers.age).toBeDefined();
    await api.services.leaderboards.invalidate();
    const apolloOther = await get(api, TOP, { headers: accept });
    expect(apolloOther.headers.age).toBeUndefined();
    expect(apolloOther.headers['content-type']).toBe('application/graphql-response+json; charset=utf-8');
    expect(cachedOther.headers['content-type']).toBe(apolloOther.headers['content-type']);
  });

  it('keys a persisted query by its hash: a GET with the hash alone is served the answer of the same document', async () => {
    await api.services.leaderboards.invalidate();
    const registered = await post(api, { query: TOP, extensions: { persistedQuery: { version: 1, sha256Hash: sha256(TOP) } } });
    expect(registered.json.data?.leaderboard).toHaveLength(2);
    const byHash = await hit(() => get(api, null, { hash: sha256(TOP) }));
    expect(byHash.text).toBe(registered.text);
    expect(byHash.headers['cache-control']).toBe('max-age=10, public');
  });

  it('serves a cached answer only to the variables it was answered for', async () => {
    await api.services.leaderboards.invalidate();
    for (const limit of [1, 2]) await get(api, TOP_N, { variables: { limit } });
    const one = await hit(() => get(api, TOP_N, { variables: { limit: 1 } }));
    const two = await hit(() => post(api, { query: TOP_N, variables: { limit: 2 } }));
    expect(scores(one)).toEqual(['300']);
    expect(scores(two)).toEqual(['300', '200']);
    // No variables at all is not "some variables": Apollo answers (and refuses the missing one).
    const none = await get(api, TOP_N);
    expect(none.headers.age).toBeUndefined();
    expect(none.json.errors?.[0].extensions.code).toBe('VALIDATION_FAILED');
  });

  it('never serves an authenticated caller from the hook, nor a PRIVATE answer to anyone else', async () => {
    await api.services.leaderboards.invalidate();
    await get(api, TOP);
    const anonymous = await hit(() => get(api, TOP));
    // An authenticated caller goes through Apollo (its own per-session cache, empty here), never the hook.
    const asC = { authorization: `Bearer ${api.services.tokens.signAccess(wallet('c'))}` };
    const authenticated = await get(api, TOP, { headers: asC });
    expect(authenticated.headers.age).toBeUndefined();
    expect(authenticated.text).toBe(anonymous.text);

    // A PRIVATE answer (cached by Apollo for its wallet) is never what an anonymous caller gets.
    const mine = await hit(() => get(api, ELIGIBILITY, { headers: asC }));
    expect(mine.headers['cache-control']).toBe('max-age=10, private');
    for (const ask of [() => get(api, ELIGIBILITY), () => post(api, { query: ELIGIBILITY })]) {
      const anonymous = await ask();
      expect(anonymous.headers.age).toBeUndefined();
      expect(anonymous.json.errors?.[0].extensions.code).toBe('UNAUTHENTICATED');
    }
  });

  it('answers the next read fresh after a bump (the indexer commit), while the old answer is still cached', async () => {
    await api.services.leaderboards.invalidate();
    await get(api, TOP);
    await api.db.query(`UPDATE xp_leaderboard SET total_xp = 301 WHERE player = $1`, [wallet('a')]);
    const stale = await hit(() => get(api, TOP));
    expect(scores(stale)).toEqual(['300', '200']);
    // The indexer's post-commit hook bumps the chain generation (services/read-cache).
    await api.services.readCache.bump('chain');
    const fresh = await get(api, TOP, { headers: { 'if-none-match': stale.headers.etag as string } });
    expect(fresh.status).toBe(200);
    expect(fresh.headers.age).toBeUndefined();
    expect(scores(fresh)).toEqual(['301', '200']);
    expect(fresh.headers.etag).not.toBe(stale.headers.etag);
  });

  it("serves an anonymous caller's PRIVATE answer (quest status) to the next anonymous caller, never to a wallet's own read, and afresh once the player's progress or claims change", async () => {
    const player = wallet('d');
    const statusOf = (a: Answer) => (a.json.data!.questBatchStatus as Array<{ progress: string; claimed: boolean }>)[0];
    const ask = () => post(api, { query: QUEST_STATUS, variables: { player } });
    const first = await ask();
    expect(first.headers.age).toBeUndefined();
    const cached = await hit(ask);
    expect(cached.headers['cache-control']).toBe('max-age=5, private');
    expect(cached.text).toBe(first.text);
    expect(statusOf(cached)).toMatchObject({ progress: '0', claimed: false });

    // The indexer's post-commit quest step bumps `questProgress` with the wallet (no `chain` bump here).
    await indexBets(api.db, api.services.quests, [betEvent(player, new Date())]);
    const afterBet = await ask();
    expect(afterBet.headers.age).toBeUndefined();
    expect(statusOf(afterBet)).toMatchObject({ progress: '1', claimed: false });
    await hit(ask);

    // The wallet's own reads go through Apollo's per-wallet cache, never the anonymous answer.
    const asD = { authorization: `Bearer ${api.services.tokens.signAccess(player)}` };
    const claim = await post(api, { query: 'mutation { claimQuest(campaignSlug: "platform", questKey: "daily-bet") { claimedAt } }' }, asD);
    expect(claim.json.errors).toBeUndefined();
    const own = await post(api, { query: QUEST_STATUS, variables: { player } }, asD);
    expect(own.headers.age).toBeUndefined();
    expect(statusOf(own)).toMatchObject({ progress: '1', claimed: true });
    const afterClaim = await ask();
    expect(afterClaim.headers.age).toBeUndefined();
    expect(statusOf(afterClaim)).toMatchObject({ progress: '1', claimed: true });
  });

  it('runs Apollo once for parallel misses of one answer (an expiry under load): the others get its answer when it is sent', async () => {
    await api.services.leaderboards.invalidate();
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? get(api, TOP) : post(api, { query: TOP }))));
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
    expect(answers.filter((a) => a.headers.age === undefined)).toHaveLength(1);
    expect(new Set(answers.map((a) => a.text)).size).toBe(1);
    for (const a of answers) expect(a.headers['cache-control']).toBe('max-age=10, public');
    // A document that is not cacheable: the first burst waits for the first answer, then every request runs Apollo.
    const uncached = await Promise.all(Array.from({ length: 5 }, () => post(api, { query: `{ chatHistory(room: "global") { items { id } } }` })));
    expect(uncached.map((a) => [a.status, a.headers.age])).toEqual(Array(5).fill([200, undefined]));
  });

  it('leaves to Apollo what it would refuse or answer otherwise, even when the answer is cached', async () => {
    await hit(() => get(api, TOP));
    // No preflight header: Apollo's CSRF prevention.
    const csrf = await send(api, { method: 'GET', url: getUrl(TOP) });
    expect(csrf.status).toBe(400);
    expect(csrf.headers.age).toBeUndefined();
    // Variables that are not a JSON object.
    const badVariables = await send(api, { method: 'GET', url: `${getUrl(TOP)}&variables=`, headers: PREFLIGHT });
    expect(badVariables.status).toBe(400);
    // A repeated parameter.
    const twice = await send(api, { method: 'GET', url: `${getUrl(TOP)}&query=${encodeURIComponent(TOP)}`, headers: PREFLIGHT });
    expect(twice.status).toBe(400);
    // A browser asking for HTML: Apollo's landing page.
    const page = await get(api, TOP, { headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' } });
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    // A malformed Host (RFC 9112: 400).
    const badHost = await send(api, { method: 'POST', url: '/graphql', headers: { host: 'a b', 'content-type': 'application/json' }, payload: JSON.stringify({ query: TOP }) });
    expect(badHost.status).toBe(400);
    // A hash that does not match the document sent with it.
    const mismatch = await post(api, { query: TOP, extensions: { persistedQuery: { version: 1, sha256Hash: sha256('other') } } });
    expect(mismatch.status).toBe(400);
  });
});

describe('cached answers and admission', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startApi({ env: { 'HTTP.RATE_LIMIT_MAX': '6' } });
  }, 120_000);
  afterAll(async () => api?.close());

  it('charges every hit to the client: the budget runs down and the request over it gets 429', async () => {
    const answers: Answer[] = [];
    for (let i = 0; i < 6; i++) answers.push(await post(api, { query: '{ questCampaigns { slug } }' }));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200, 200]);
    expect(answers.slice(1).every((a) => a.headers.age !== undefined)).toBe(true);
    expect(answers.map((a) => a.headers['ratelimit-remaining'])).toEqual(['5', '4', '3', '2', '1', '0']);
    const refused = await post(api, { query: '{ questCampaigns { slug } }' });
    expect(refused.status).toBe(429);
    expect(refused.headers['retry-after']).toBeDefined();
    expect(refused.text).toContain('RATE_LIMITED');
  });
});
