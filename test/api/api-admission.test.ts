import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { startApi, type TestApi } from '../helpers/api';
import { hasRedisServer, requireServices, ThrowawayRedis, waitFor } from '../helpers/store';

// The mechanism is tested with a small configured limit (20) so that no test races the clock
// sending hundreds of requests; one test shows the default (300) comes from config. Requests go
// through Fastify's inject (the full hook chain, no sockets) except one over real HTTP.
const QUERY = '/graphql?query=%7BserverStatus%7Bstatus%7D%7D';
const SMALL = { 'HTTP.RATE_LIMIT_MAX': '20' };
// Starting an API (a fresh database each) takes seconds, tens of seconds on a busy machine.
const SLOW_START = { timeout: 120_000 };

interface Sent {
  status: number;
  headers: Record<string, string | string[] | number | undefined>;
  body: string;
}

async function send(api: TestApi, headers: Record<string, string> = {}): Promise<Sent> {
  const res = await api.app.inject({ method: 'GET', url: QUERY, headers: { 'apollo-require-preflight': '1', ...headers } });
  return { status: res.statusCode, headers: res.headers, body: res.body };
}

async function sendMany(api: TestApi, n: number, headers: Record<string, string> = {}): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < n; i++) statuses.push((await send(api, headers)).status);
  return statuses;
}

describe('admission control (per trusted client IP and per wallet, fixed window)', SLOW_START, () => {
  const apis: TestApi[] = [];
  const start = async (opts: Parameters<typeof startApi>[0]) => {
    const api = await startApi(opts);
    apis.push(api);
    return api;
  };
  afterEach(async () => {
    await Promise.all(apis.splice(0).map((a) => a.close()));
  });

  it('admits 300 requests per 60 s by default (from config)', async () => {
    const api = await start({});
    expect(api.config.http.rateLimit).toEqual({ max: 300, windowMs: 60_000 });
    const res = await send(api);
    expect(res.status).toBe(200);
    expect(res.headers['ratelimit-limit']).toBe('300');
    expect(res.headers['ratelimit-remaining']).toBe('299');
    expect(Number(res.headers['ratelimit-reset'])).toBeGreaterThan(0);
    expect(Number(res.headers['ratelimit-reset'])).toBeLessThanOrEqual(60);
  });

  it('answers the request over the limit from one IP with 429, Retry-After and the error shape (real HTTP)', async () => {
    const api = await start({ env: SMALL });
    for (let i = 0; i < 20; i++) {
      const ok = await fetch(`${api.url}${QUERY}`, { headers: { 'apollo-require-preflight': '1' } });
      expect(ok.status).toBe(200);
      await ok.arrayBuffer();
    }
    const res = await fetch(`${api.url}${QUERY}`, { headers: { 'apollo-require-preflight': '1' } });
    expect(res.status).toBe(429);
    const retryAfter = Number(res.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(res.headers.get('ratelimit-remaining')).toBe('0');
    expect(await res.json()).toMatchObject({ error: { code: 'RATE_LIMITED', details: { scope: 'ip' } } });
    // liveness is exempt so probes never see 429
    expect((await fetch(`${api.url}/api/health`)).status).toBe(200);
  });

  it('ignores X-Forwarded-For from a peer outside TRUSTED_PROXY_CIDRS', async () => {
    const api = await start({ env: { ...SMALL, TRUSTED_PROXY_CIDRS: '10.20.0.0/16' } });
    const forged = await sendMany(api, 20, { 'x-forwarded-for': '198.51.100.7' });
    expect(forged.filter((s) => s === 429)).toHaveLength(0);
    // a different forged address is still charged to the same (real) peer
    expect((await send(api, { 'x-forwarded-for': '203.0.113.9' })).status).toBe(429);
  });

  it('honours X-Forwarded-For from a peer inside TRUSTED_PROXY_CIDRS', async () => {
    const api = await start({ env: { ...SMALL, TRUSTED_PROXY_CIDRS: '127.0.0.0/8,::1' } });
    const first = await sendMany(api, 21, { 'x-forwarded-for': '198.51.100.7' });
    expect(first.filter((s) => s === 429)).toHaveLength(1);
    expect(first.at(-1)).toBe(429);
    // another client behind the same proxy has its own budget
    expect((await send(api, { 'x-forwarded-for': '203.0.113.9' })).status).toBe(200);
  });

  it('charges requests with a verified JWT to the wallet as well as the IP', async () => {
    const api = await start({ env: { ...SMALL, TRUSTED_PROXY_CIDRS: '127.0.0.0/8' } });
    const token = api.services.tokens.signAccess('0xabc');
    const auth = { authorization: `Bearer ${token}` };
    // 20 requests for the wallet spread over 20 client IPs: every IP is far below its limit
    for (let i = 0; i < 20; i++) expect((await send(api, { 'x-forwarded-for': `198.51.100.${i + 1}`, ...auth })).status).toBe(200);
    const fromNewIp = await send(api, { 'x-forwarded-for': '198.51.100.200', ...auth });
    expect(fromNewIp.status).toBe(429);
    expect(JSON.parse(fromNewIp.body)).toMatchObject({ error: { details: { scope: 'wallet' } } });
    // without the token the same new IP is admitted; a forged token is refused (401, not 429):
    // it was charged to its IP only, never to the wallet it names
    expect((await send(api, { 'x-forwarded-for': '198.51.100.201' })).status).toBe(200);
    const forged = await send(api, { 'x-forwarded-for': '198.51.100.202', authorization: `Bearer ${token.slice(0, -2)}xx` });
    expect(forged.status).toBe(401);
    expect(JSON.parse(forged.body)).toMatchObject({ error: { code: 'TOKEN_INVALID' } });
    expect(forged.headers['ratelimit-remaining']).toBe(String(Number(SMALL['HTTP.RATE_LIMIT_MAX']) - 1));
  });
});

describe.skipIf(!hasRedisServer && !requireServices)('admission during a Redis outage (throwaway redis-server)', SLOW_START, () => {
  const apis: TestApi[] = [];
  let server: ThrowawayRedis | undefined;
  afterEach(async () => {
    server?.resume();
    await Promise.all(apis.splice(0).map((a) => a.close()));
    await server?.kill();
  });

  /** Sends until the first 429 (at most `cap`); returns how many were admitted and the last response. */
  async function admittedUntilRefused(api: TestApi, cap: number): Promise<{ admitted: number; refused: Sent }> {
    for (let admitted = 0; admitted <= cap; admitted++) {
      const res = await send(api);
      if (res.status === 429) return { admitted, refused: res };
      expect(res.status).toBe(200);
    }
    throw new Error(`more than ${cap} requests admitted`);
  }

  it('continues from the last count Redis gave and grants each replica its share, then returns to Redis counts', async () => {
    server = await ThrowawayRedis.start();
    const prefix = randomUUID();
    // Two replicas of one deployment (same key prefix), limit 20, replica count configured.
    const env = { ...SMALL, CACHE_STORE: 'redis', SHARED_STORE_URL: server.url, SHARED_STORE_REPLICAS: '2' };
    const a = await startApi({ env, storePrefix: prefix });
    apis.push(a);
    const b = await startApi({ env, storePrefix: prefix });
    apis.push(b);
    expect(a.store.active).toBe('redis');
    expect(b.store.active).toBe('redis');

    // Before the outage the client used N = 4 of its 20 (counted in Redis).
    for (let i = 0; i < 4; i++) expect((await send(a)).status).toBe(200);
    const inspect = server.client();
    const counterKey = `test:${prefix}:adm:default:ip:127.0.0.1`;
    expect(await inspect.get(counterKey)).toBe('4');

    server.pause(); // hung Redis: the first command times out, then memory serves
    try {
      // Replica a saw the count 4: it grants at most share (20 / 2 = 10) − 4 = 6 more, not a fresh 20.
      const onA = await admittedUntilRefused(a, 20);
      expect(a.store.active).toBe('memory');
      expect(onA.admitted).toBe(6);
      expect(onA.refused.headers['ratelimit-limit']).toBe('10');
      expect(JSON.parse(onA.refused.body)).toMatchObject({ error: { code: 'RATE_LIMITED' } });
      // Replica b never saw this client: it grants its share, 10. Both together stay under the limit.
      const onB = await admittedUntilRefused(b, 20);
      expect(onB.admitted).toBe(10);
      expect(4 + onA.admitted + onB.admitted).toBeLessThanOrEqual(20);
    } finally {
      server.resume();
    }

    // After recovery the counts are Redis's again. Redis holds the 4 from before plus at most the
    // two requests whose INCRBY was already sent when the server hung (it runs them on resume);
    // the hits counted in memory during the outage stay local.
    await waitFor(() => a.store.active === 'redis' && b.store.active === 'redis', 10_000, 'recovery on both replicas');
    const inRedis = Number(await inspect.get(counterKey));
    expect(inRedis).toBeGreaterThanOrEqual(4);
    expect(inRedis).toBeLessThanOrEqual(6);
    const after = await send(a);
    expect(after.status).toBe(200);
    expect(after.headers['ratelimit-limit']).toBe('20');
    expect(after.headers['ratelimit-remaining']).toBe(String(20 - (inRedis + 1)));
    expect(await inspect.get(counterKey)).toBe(String(inRedis + 1));
    inspect.disconnect();
  });
});
