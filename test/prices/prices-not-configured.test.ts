import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi, type TestApi } from '../helpers/api';

// Without CHAIN.PRICE_API_KEY no price will ever be fetched: the refusal names the setting
// instead of asking to try again.

let api: TestApi;
beforeAll(async () => {
  api = await startApi({ env: { 'JOBS.PRICE_POLL_CRON': '0 0 1 1 *' } });
}, 60_000);
afterAll(async () => api?.close());

describe('prices without a source', () => {
  it('answers 503 not_configured naming CHAIN.PRICE_API_KEY', async () => {
    const res = await fetch(`${api.url}/api/price`);
    const body = (await res.json()) as { error: { code: string; message: string; details?: { reason?: string } } };
    expect(res.status).toBe(503);
    expect(body.error).toMatchObject({ code: 'SERVICE_UNAVAILABLE', details: { reason: 'not_configured' } });
    expect(body.error.message).toMatch(/not configured.*CHAIN\.PRICE_API_KEY/);
    expect(body.error.message).not.toMatch(/try again/);
  });
});
