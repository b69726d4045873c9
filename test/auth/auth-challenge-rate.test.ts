import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi, type TestApi } from '../helpers/api';

// Each login challenge is a row for any address, so one client could fill the table: challenge
// creation is limited per client IP (AUTH.CHALLENGE_RATE_LIMIT_MAX), REST and GraphQL together,
// the IP as the trusted-proxy rules give it.

const address = () => `0x${randomBytes(32).toString('hex')}`;
// Admission (HTTP.RATE_LIMIT_MAX) out of the way, and a window no test run outlasts.
const env = { HTTP_RATE_LIMIT_MAX: '100000', AUTH_CHALLENGE_RATE_LIMIT_WINDOW_MS: '3600000' };

async function challenge(api: TestApi, headers: Record<string, string> = {}) {
  const res = await fetch(`${api.url}/api/auth/challenge`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ address: address() }) });
  return { status: res.status, retryAfter: res.headers.get('retry-after'), body: (await res.json()) as { nonce?: string; error?: { code: string; details?: { scope?: string; retryAfterSeconds?: number } } } };
}

/** `count` calls, `parallel` at a time, in order of their index. */
async function many<T>(count: number, parallel: number, call: (i: number) => Promise<T>): Promise<T[]> {
  const out: T[] = [];
  for (let i = 0; i < count; i += parallel) out.push(...(await Promise.all(Array.from({ length: Math.min(parallel, count - i) }, (_, j) => call(i + j)))));
  return out;
}

describe('login challenges per client IP', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startApi({ env: { ...env, TRUSTED_PROXY_CIDRS: '127.0.0.0/8' } });
  });
  afterAll(() => api?.close());

  it('1,000 challenge calls from one IP behind the trusted proxy: the first AUTH.CHALLENGE_RATE_LIMIT_MAX pass, the rest are RATE_LIMITED and store nothing', async () => {
    const max = api.config.auth.challengeRateLimit.max;
    expect(max).toBe(60);
    const answers = await many(1000, 20, () => challenge(api, { 'x-forwarded-for': '203.0.113.7' }));
    const passed = answers.filter((a) => a.status === 200);
    const refused = answers.filter((a) => a.status === 429);
    expect(passed).toHaveLength(max);
    expect(refused).toHaveLength(1000 - max);
    for (const r of refused) {
      expect(r.body.error).toMatchObject({ code: 'RATE_LIMITED', details: { scope: 'auth-challenge', retryAfterSeconds: expect.any(Number) } });
      expect(Number(r.retryAfter)).toBe(r.body.error!.details!.retryAfterSeconds);
    }
    expect(await api.db.prisma.loginChallenge.count()).toBe(max);

    // GraphQL shares the budget of that IP.
    const gql = await fetch(`${api.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': '203.0.113.7' },
      body: JSON.stringify({ query: `mutation { authChallenge(address: "${address()}") { nonce } }` }),
    });
    const gqlBody = (await gql.json()) as { errors?: Array<{ extensions?: { code?: string; scope?: string } }> };
    expect(gqlBody.errors?.[0]?.extensions).toMatchObject({ code: 'RATE_LIMITED' });

    // Another client is not affected.
    expect((await challenge(api, { 'x-forwarded-for': '203.0.113.8' })).status).toBe(200);
  });
});

describe('login challenges without a trusted proxy', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startApi({ env });
  });
  afterAll(() => api?.close());

  it('a forged X-Forwarded-For does not buy a new budget: the socket address is the client', async () => {
    const max = api.config.auth.challengeRateLimit.max;
    const answers = await many(max + 1, 10, (i) => challenge(api, { 'x-forwarded-for': `198.51.100.${i % 250}` }));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(max);
    expect(answers.filter((a) => a.status === 429)).toHaveLength(1);
  });
});
