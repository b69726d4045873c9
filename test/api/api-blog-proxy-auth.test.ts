import { createServer } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi, type TestApi } from '../helpers/api';
import { listenOnLoopback, sendJson } from '../fixtures/loopback';

/** The blog's own credentials cross the one-origin proxy unread: they are not the API's access tokens. */
describe('the /blog proxy and Authorization', () => {
  let api: TestApi;
  const seen: Array<string | undefined> = [];
  const upstream = createServer((req, res) => {
    seen.push(req.headers.authorization);
    sendJson(res, 200, { revalidated: true, path: req.url });
  });

  beforeAll(async () => {
    api = await startApi({ env: { BLOG_UPSTREAM_URL: await listenOnLoopback(upstream) } });
  });
  afterAll(async () => {
    await api?.close();
    await new Promise<void>((resolve) => upstream.close(() => resolve()));
  });

  it('passes the revalidation bearer secret and Payload’s JWT header to the blog', async () => {
    for (const [path, authorization] of [
      ['/blog/api/revalidate/', 'Bearer revalidation-secret-not-a-jwt'],
      ['/blog/api/users/me', 'JWT payload-session-token'],
      ['/blog/', 'Bearer not-a-jwt'],
    ]) {
      const res = await fetch(`${api.url}${path}`, { method: path.includes('revalidate') ? 'POST' : 'GET', headers: { authorization } });
      expect(res.status, path).toBe(200);
      expect(seen.at(-1), path).toBe(authorization);
    }
  });

  it('still refuses a bad bearer token on the API’s own routes', async () => {
    const res = await fetch(`${api.url}/api/health`, { headers: { authorization: 'Bearer revalidation-secret-not-a-jwt' } });
    expect(res.status).toBe(401);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('TOKEN_INVALID');
  });
});
