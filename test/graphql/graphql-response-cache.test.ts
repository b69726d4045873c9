// The read path's caches over real HTTP: Apollo's response cache in the shared store (one
// replica's fill serves the other when Redis is configured), invalidation by the indexer's hook,
// per-wallet (PRIVATE) answers, Cache-Control, ETag/304, persisted queries across two runtimes and
// the policy on documents resolved by hash.
import { createHash, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pino from 'pino';
import { createLeaderboardService } from '../../src/services/leaderboards/service';
import { createSharedKeyValueCache } from '../../src/store/kv-cache';
import { startApi, type TestApi } from '../helpers/api';
import { testEnv } from '../helpers/env';
import { waitFor } from '../helpers/store';

const TOP = 'query Top { leaderboard(board: XP, limit: 5) { rank player score } }';
const ELIGIBILITY = 'query Mine { subnameEligibility { vipLevel } }';
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** A GET query (the cacheable transport): the response, its JSON and headers. */
async function get(api: TestApi, query: string, opts: { headers?: Record<string, string>; variables?: unknown; hashOnly?: boolean } = {}) {
  const params = new URLSearchParams();
  if (!opts.hashOnly) params.set('query', query);
  if (opts.variables) params.set('variables', JSON.stringify(opts.variables));
  if (opts.hashOnly) params.set('extensions', JSON.stringify({ persistedQuery: { version: 1, sha256Hash: sha256(query) } }));
  const res = await fetch(`${api.url}/graphql?${params}`, { headers: { 'apollo-require-preflight': 'true', ...opts.headers } });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : null };
}

async function post(api: TestApi, body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${api.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  return { status: res.status, headers: res.headers, body: await res.json() };
}

const wallet = (c: string) => `0x${c.repeat(64)}`;

describe('response cache, invalidation, ETag and persisted queries', () => {
  // Two replicas of one deployment: the same database and, with Redis, the same store namespace.
  let a: TestApi;
  let b: TestApi;
  const shared = Boolean(testEnv.redisUrl);
  const storePrefix = randomUUID();
  beforeAll(async () => {
    a = await startApi({ storePrefix });
    b = shared ? await startApi({ storePrefix, db: a.db }) : a;
    await a.db.query(`INSERT INTO xp_leaderboard (player, total_xp, vip_level) VALUES ($1, 300, 1), ($2, 200, 0)`, [wallet('a'), wallet('b')]);
    // Two runtimes starting on a loaded machine.
  }, 180_000);
  afterAll(async () => {
    if (b !== a) await b?.close();
    await a?.close();
  });

  it('caches a public leaderboard (Cache-Control public), serves the fill from either replica, and refreshes at once after the indexer hook', async () => {
    // Start from a generation of our own, so nothing another test cached applies.
    await a.services.leaderboards.invalidate();
    const first = await get(a, TOP);
    expect(first.status).toBe(200);
    expect(first.headers.get('cache-control')).toBe('max-age=10, public');
    expect(first.headers.get('age')).toBeNull();
    expect(first.body.data.leaderboard.map((e: { score: string }) => e.score)).toEqual(['300', '200']);

    // A row the indexer commits while the answer is cached: served from the cache until the hook runs
    // (the response cache writes in the background: poll until the second read is a hit).
    await a.db.query(`INSERT INTO xp_leaderboard (player, total_xp, vip_level) VALUES ($1, 999, 2)`, [wallet('c')]);
    let cached = await get(b, TOP);
    for (let i = 0; i < 50 && cached.headers.get('age') === null; i++) cached = await get(b, TOP);
    expect(cached.headers.get('age')).not.toBeNull();
    expect(cached.body.data.leaderboard).toHaveLength(2);

    // The indexer's post-commit hook (src/indexer/runner.ts calls exactly this): the next read of
    // either replica is fresh, long before the max-age ends.
    await a.services.leaderboards.invalidate();
    const waitForFresh = async (api: TestApi) => {
      for (let i = 0; i < 100; i++) {
        const r = await get(api, TOP);
        if (r.body.data.leaderboard.length === 3) return r;
      }
      throw new Error('the leaderboard stayed stale after the invalidation');
    };
    const fresh = await waitForFresh(b);
    expect(fresh.body.data.leaderboard[0]).toMatchObject({ rank: 1, player: wallet('c'), score: '999' });
    expect((await get(a, TOP)).body.data.leaderboard).toHaveLength(3);
  });

  it('caches the public quest catalogue, quests included (max-age 10, public), and serves it from the cache', async () => {
    const catalogue = 'query Catalogue { questCampaigns { slug quests { key lifecycle periodEnd } } }';
    const first = await get(a, catalogue);
    expect(first.status).toBe(200);
    expect(first.headers.get('cache-control')).toBe('max-age=10, public');
    expect(first.body.data.questCampaigns.length).toBeGreaterThan(0);
    expect(first.body.data.questCampaigns.some((c: { quests: unknown[] }) => c.quests.length > 0)).toBe(true);
    let again = await get(b, catalogue);
    for (let i = 0; i < 50 && again.headers.get('age') === null; i++) again = await get(b, catalogue);
    expect(again.headers.get('age')).not.toBeNull();
    expect(again.body).toEqual(first.body);
  });

  it('never caches a response with an unhinted field, and answers it no-store', async () => {
    const mixed = 'query Mixed { leaderboard(board: XP, limit: 1) { rank } serverStatus { version } }';
    for (let i = 0; i < 3; i++) {
      const r = await get(b, mixed);
      expect(r.body.data.leaderboard).toHaveLength(1);
      expect(r.headers.get('cache-control')).toBe('no-store');
      expect(r.headers.get('age')).toBeNull();
    }
  });

  it('never serves one wallet the PRIVATE answer cached for another (same query, two wallets)', async () => {
    await a.db.query(
      `INSERT INTO vip_exp_progress_event (tx_digest, event_seq, checkpoint, timestamp_ms, sender, player, exp_gained, total_exp, vip_level)
       VALUES ('vip-tx', 0, 1, now(), $1, $1, 10, 10, 7)`,
      [wallet('d')],
    );
    const asD = { authorization: `Bearer ${a.services.tokens.signAccess(wallet('d'))}` };
    const asE = { authorization: `Bearer ${b.services.tokens.signAccess(wallet('e'))}` };
    const d1 = await get(a, ELIGIBILITY, { headers: asD });
    expect(d1.headers.get('cache-control')).toBe('max-age=10, private');
    expect(d1.body.data.subnameEligibility.vipLevel).toBe(7);
    // D's answer is cached (its own repeat is a hit) ...
    let d2 = await get(b, ELIGIBILITY, { headers: asD });
    for (let i = 0; i < 50 && d2.headers.get('age') === null; i++) d2 = await get(b, ELIGIBILITY, { headers: asD });
    expect(d2.headers.get('age')).not.toBeNull();
    expect(d2.body.data.subnameEligibility.vipLevel).toBe(7);
    // ... and E, asking the same query on both replicas, gets its own.
    for (const api of [a, b]) {
      const e = await get(api, ELIGIBILITY, { headers: asE });
      expect(e.body.data.subnameEligibility.vipLevel).toBe(0);
    }
    // Without a wallet the PRIVATE field is refused, and nothing cached is served.
    const anonymous = await get(a, ELIGIBILITY);
    expect(anonymous.body.data).toBeNull();
    expect(anonymous.body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
    expect(anonymous.headers.get('age')).toBeNull();
  });

  it('answers 304 to a GET query and to an /api read whose ETag the client holds', async () => {
    const first = await get(a, TOP);
    const etag = first.headers.get('etag');
    expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    const again = await get(a, TOP, { headers: { 'if-none-match': etag! } });
    expect(again.status).toBe(304);
    expect(again.body).toBeNull();
    expect(again.headers.get('etag')).toBe(etag);
    // A changed answer has another tag: the client's copy is replaced.
    await a.db.query(`UPDATE xp_leaderboard SET total_xp = 1000 WHERE player = $1`, [wallet('c')]);
    await a.services.leaderboards.invalidate();
    const changed = await get(a, TOP, { headers: { 'if-none-match': etag! } });
    expect(changed.status).toBe(200);
    expect(changed.headers.get('etag')).not.toBe(etag);

    const url = `${a.url}/api/analytics/leaderboards/xp?limit=3`;
    const rest = await fetch(url);
    const restTag = rest.headers.get('etag');
    expect(rest.status).toBe(200);
    expect(restTag).toBeTruthy();
    const notModified = await fetch(url, { headers: { 'if-none-match': `W/${restTag}, "other"` } });
    expect(notModified.status).toBe(304);
    // POST answers and errors are never tagged or turned into 304.
    const posted = await post(a, { query: TOP }, { 'if-none-match': etag! });
    expect(posted.status).toBe(200);
    expect(posted.headers.get('etag')).toBeNull();
  });

  it('knows a persisted query registered on one runtime by its hash on the other (GET and POST; one runtime without Redis)', async () => {
    const query = `query Apq { leaderboard(board: XP, limit: 2) { player } }`;
    const hash = sha256(query);
    const unknown = await get(b, query, { hashOnly: true });
    expect(unknown.body.errors[0].extensions.code).toBe('PERSISTED_QUERY_NOT_FOUND');
    const registered = await post(a, { query, extensions: { persistedQuery: { version: 1, sha256Hash: hash } } });
    expect(registered.body.data.leaderboard).toHaveLength(2);
    // Apollo stores the registration in the background: poll until the other runtime knows the hash.
    let hit = await get(b, query, { hashOnly: true });
    for (let i = 0; i < 50 && hit.body.errors; i++) hit = await get(b, query, { hashOnly: true });
    expect(hit.body.data.leaderboard).toHaveLength(2);
    const byPost = await post(b, { extensions: { persistedQuery: { version: 1, sha256Hash: hash } } });
    expect(byPost.body.data.leaderboard).toHaveLength(2);
  });

  it('applies the policy to documents resolved by hash: operation checks', async () => {
    // A subscription registered by hash is still refused by the operation check, on GET and POST.
    const subscription = 'subscription S { activity { __typename } }';
    const refused = await post(a, { query: subscription, extensions: { persistedQuery: { version: 1, sha256Hash: sha256(subscription) } } });
    expect(refused.status).toBe(400);
    expect(refused.body.errors[0].extensions.code).toBe('OPERATION_NOT_SUPPORTED');
    const mutation = 'mutation M { claimSubname(label: "x") { name } }';
    const viaGet = await get(a, mutation);
    expect(viaGet.status).toBe(405);
  });

  it.runIf(shared || testEnv.requireServices)('does not serve a document over the limits that the shared store holds under its hash', async () => {
    // Placed there by a replica with laxer limits, or by anything else writing to the store: the
    // hash is unknown to the API, and the client's retry with the full text gets the policy's refusal.
    const tooManyAliases = `{ ${Array.from({ length: 30 }, (_, i) => `a${i}: __typename`).join(' ')} }`;
    const hash = sha256(tooManyAliases);
    const store = createSharedKeyValueCache(a.store, { logger: pino({ level: 'silent' }) });
    try {
      await store.cache.set(`apq:${hash}`, tooManyAliases);
    } finally {
      await store.close();
    }
    for (const api of [a, b]) {
      const byHash = await post(api, { extensions: { persistedQuery: { version: 1, sha256Hash: hash } } });
      expect(byHash.body.errors[0].extensions.code).toBe('PERSISTED_QUERY_NOT_FOUND');
    }
    const full = await post(a, { query: tooManyAliases, extensions: { persistedQuery: { version: 1, sha256Hash: hash } } });
    expect(full.status).toBe(400);
    expect(full.body.errors[0].extensions.code).toBe('QUERY_TOO_COMPLEX');
  });

  it('refills an empty or expired top-N entry with one query while parallel callers wait or get the stale rows', async () => {
    await a.db.query(`INSERT INTO xp_leaderboard (player, total_xp, vip_level) VALUES ($1, 5, 0)`, [wallet('f')]);
    const ttlMs = 300;
    const service = await createLeaderboardService({ db: a.db, store: a.store, readCache: a.services.readCache, ttlMs });
    const scoreOfF = (rows: { player: string; score: string }[]) => rows.find((r) => r.player === wallet('f'))?.score;
    const parallel = () => Promise.all(Array.from({ length: 25 }, () => service.top({ board: 'xp', limit: 100 })));

    const cold = await parallel();
    expect(service.cacheStats().misses).toBe(1);
    expect(new Set(cold.map((rows) => JSON.stringify(rows))).size).toBe(1);

    // Changed without the indexer's hook: served from the cache until the entry expires.
    await a.db.query(`UPDATE xp_leaderboard SET total_xp = 6 WHERE player = $1`, [wallet('f')]);
    const filledAt = Date.now();
    while (Date.now() - filledAt <= ttlMs) await new Promise((resolve) => setImmediate(resolve));
    // Expired: every parallel caller gets the stale rows at once, one background query refreshes.
    const stale = await parallel();
    expect(stale.every((rows) => scoreOfF(rows) === '5')).toBe(true);
    await waitFor(async () => scoreOfF(await service.top({ board: 'xp', limit: 100 })) === '6', 10_000, 'the background refresh');
    expect(service.cacheStats().misses).toBe(2);

    // A caller whose request ended stops waiting; the shared refill still serves the others.
    await a.services.readCache.bump('chain');
    const gone = new AbortController();
    gone.abort(new Error('client gone'));
    const [ended, served] = await Promise.allSettled([service.top({ board: 'xp', limit: 100 }, { signal: gone.signal }), service.top({ board: 'xp', limit: 100 })]);
    expect(ended.status).toBe('rejected');
    expect(served.status === 'fulfilled' && scoreOfF(served.value)).toBe('6');
  });
});
