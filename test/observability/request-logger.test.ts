// The per-request logger is made on first use (src/observability/lazy-child.ts): what a request
// writes still carries its request id, its children's bindings and the API's redaction; levels
// below the API's are dropped.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi, type TestApi } from '../helpers/api';

describe('per-request logger', () => {
  let api: TestApi;
  const marker = randomUUID();
  beforeAll(async () => {
    api = await startApi({
      env: { JWT_SECRET: 'request-logger-test-secret-0123456789' },
      extraRoutes: (app) => {
        app.get('/test/logs', async (request) => {
          request.log.debug({ marker }, 'below the level');
          request.log.info({ marker, token: 'request-logger-test-secret-0123456789' }, 'from the request');
          request.log.child({ part: 'inner' }).warn({ marker }, 'from a child');
          return { id: request.id };
        });
        app.get('/test/silent', async (request) => ({ id: request.id, level: request.log.level }));
      },
    });
  }, 120_000);
  afterAll(async () => api?.close());

  it('writes what a request logs with its request id, its children bindings and redaction; below-level lines are dropped', async () => {
    const res = await api.app.inject({ method: 'GET', url: '/test/logs' });
    const { id } = res.json() as { id: string };
    const mine = api.logs.lines.filter((l) => l.marker === marker);
    expect(mine.map((l) => l.msg)).toEqual(['from the request', 'from a child']);
    expect(mine.every((l) => l.reqId === id)).toBe(true);
    expect(mine[1]).toMatchObject({ part: 'inner', level: 40 });
    expect(JSON.stringify(mine)).not.toContain('request-logger-test-secret-0123456789');
  });

  it("reports the API's level on a request that writes nothing", async () => {
    const res = await api.app.inject({ method: 'GET', url: '/test/silent' });
    expect(res.json()).toMatchObject({ level: api.config.logLevel });
  });
});
