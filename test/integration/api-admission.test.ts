import { afterEach, describe, expect, it } from 'vitest';
import { startApi, type TestApi } from '../helpers/api';

const hammer = async (url: string, n: number, headers: Record<string, string> = {}) => {
  const statuses: number[] = [];
  // sequential batches keep the test's own socket use bounded
  for (let i = 0; i < n; i += 50) {
    const batch = Array.from({ length: Math.min(50, n - i) }, () => fetch(`${url}/graphql?query=%7BserverStatus%7Bstatus%7D%7D`, { headers: { 'apollo-require-preflight': '1', ...headers } }).then((r) => r.status));
    statuses.push(...(await Promise.all(batch)));
  }
  return statuses;
};

describe('admission control (300 requests per 60 s per trusted client IP and per wallet)', () => {
  const apis: TestApi[] = [];
  afterEach(async () => {
    await Promise.all(apis.splice(0).map((a) => a.close()));
  });

  it('answers the 301st request from one IP with 429, Retry-After and the error shape', async () => {
    const api = await startApi();
    apis.push(api);
    const statuses = await hammer(api.url, 300);
    expect(statuses.every((s) => s === 200)).toBe(true);
    const res = await fetch(`${api.url}/graphql?query=%7BserverStatus%7Bstatus%7D%7D`, { headers: { 'apollo-require-preflight': '1' } });
    expect(res.status).toBe(429);
    const retryAfter = Number(res.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(await res.json()).toMatchObject({ error: { code: 'RATE_LIMITED', details: { scope: 'ip' } } });
    // liveness is exempt so probes never see 429
    expect((await fetch(`${api.url}/api/health`)).status).toBe(200);
  });

  it('ignores X-Forwarded-For from a peer outside TRUSTED_PROXY_CIDRS', async () => {
    const api = await startApi({ env: { TRUSTED_PROXY_CIDRS: '10.20.0.0/16' } });
    apis.push(api);
    const forged = await hammer(api.url, 300, { 'x-forwarded-for': '198.51.100.7' });
    expect(forged.filter((s) => s === 429)).toHaveLength(0);
    // a different forged address is still charged to the same (real) peer
    const next = await fetch(`${api.url}/graphql?query=%7BserverStatus%7Bstatus%7D%7D`, { headers: { 'apollo-require-preflight': '1', 'x-forwarded-for': '203.0.113.9' } });
    expect(next.status).toBe(429);
  });

  it('honours X-Forwarded-For from a peer inside TRUSTED_PROXY_CIDRS', async () => {
    const api = await startApi({ env: { TRUSTED_PROXY_CIDRS: '127.0.0.0/8,::1' } });
    apis.push(api);
    const first = await hammer(api.url, 301, { 'x-forwarded-for': '198.51.100.7' });
    expect(first.filter((s) => s === 429)).toHaveLength(1);
    // another client behind the same proxy has its own budget
    const other = await fetch(`${api.url}/graphql?query=%7BserverStatus%7Bstatus%7D%7D`, { headers: { 'apollo-require-preflight': '1', 'x-forwarded-for': '203.0.113.9' } });
    expect(other.status).toBe(200);
  });

  it('charges requests with a verified JWT to the wallet as well as the IP', async () => {
    const api = await startApi({ env: { TRUSTED_PROXY_CIDRS: '127.0.0.0/8', 'HTTP.RATE_LIMIT_MAX': '20' } });
    apis.push(api);
    const token = api.services.tokens.signAccess('0xabc');
    const auth = { authorization: `Bearer ${token}` };
    // 20 requests for the wallet spread over 20 client IPs: every IP is far below its limit
    for (let i = 0; i < 20; i++) {
      const res = await fetch(`${api.url}/graphql?query=%7BserverStatus%7Bstatus%7D%7D`, { headers: { 'apollo-require-preflight': '1', 'x-forwarded-for': `198.51.100.${i + 1}`, ...auth } });
      expect(res.status).toBe(200);
    }
    const fromNewIp = await fetch(`${api.url}/graphql?query=%7BserverStatus%7Bstatus%7D%7D`, { headers: { 'apollo-require-preflight': '1', 'x-forwarded-for': '198.51.100.200', ...auth } });
    expect(fromNewIp.status).toBe(429);
    expect(await fromNewIp.json()).toMatchObject({ error: { details: { scope: 'wallet' } } });
    // without the token the same new IP is admitted, and a forged token is not charged to the wallet
    const anonymous = await fetch(`${api.url}/graphql?query=%7BserverStatus%7Bstatus%7D%7D`, { headers: { 'apollo-require-preflight': '1', 'x-forwarded-for': '198.51.100.201' } });
    expect(anonymous.status).toBe(200);
    const forged = await fetch(`${api.url}/graphql?query=%7BserverStatus%7Bstatus%7D%7D`, {
      headers: { 'apollo-require-preflight': '1', 'x-forwarded-for': '198.51.100.202', authorization: `Bearer ${token.slice(0, -2)}xx` },
    });
    expect(forged.status).toBe(200);
  });
});
