import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request as httpRequest } from 'node:http';
import { startApi, type TestApi } from '../helpers/api';

/** Sends a body with node:http so an early 413 is read even if the server stops reading. */
function postRaw(url: string, path: string, body: Buffer): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': body.length } }, (res) => {
      let data = '';
      res.on('data', (c) => (data += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: data }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('body size and request time limits', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startApi({
      extraRoutes: (app) => {
        app.post('/api/test/echo', async (request) => ({ bytes: JSON.stringify(request.body).length }));
        app.get('/api/test/slow', async (request) => {
          await new Promise((resolve) => setTimeout(resolve, 7000));
          return { late: true, aborted: request.abandonedSignal.aborted };
        });
      },
    });
  });
  afterAll(async () => api?.close());

  const jsonOfSize = (bytes: number) => {
    const overhead = '{"pad":""}'.length;
    return Buffer.from(`{"pad":"${'x'.repeat(bytes - overhead)}"}`);
  };

  it('accepts a body of exactly 1 MB and refuses 1 MB + 1 byte with 413', async () => {
    const ok = await postRaw(api.url, '/api/test/echo', jsonOfSize(1024 * 1024));
    expect(ok.status).toBe(200);
    const tooBig = await postRaw(api.url, '/api/test/echo', jsonOfSize(1024 * 1024 + 1));
    expect(tooBig.status).toBe(413);
    expect(JSON.parse(tooBig.body)).toMatchObject({ error: { code: 'PAYLOAD_TOO_LARGE' } });
    const graphqlTooBig = await postRaw(api.url, '/graphql', jsonOfSize(1024 * 1024 + 1));
    expect(graphqlTooBig.status).toBe(413);
    expect((await fetch(`${api.url}/api/health`)).status).toBe(200);
  });

  it('times out a handler slower than 5 s with 503 REQUEST_TIMEOUT and stays healthy', async () => {
    const started = Date.now();
    const res = await fetch(`${api.url}/api/test/slow`);
    const elapsed = Date.now() - started;
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({ error: { code: 'REQUEST_TIMEOUT' } });
    expect(elapsed).toBeGreaterThanOrEqual(4900);
    expect(elapsed).toBeLessThan(7000);
    const health = await fetch(`${api.url}/api/health`);
    expect(health.status).toBe(200);
    // the slow handler finishing later must not crash or wedge the server
    await new Promise((r) => setTimeout(r, 2500));
    expect((await fetch(`${api.url}/api/health`)).status).toBe(200);
    expect(api.logs.lines.filter((l) => l.level >= 50)).toEqual([]);
  }, 20_000);
});
