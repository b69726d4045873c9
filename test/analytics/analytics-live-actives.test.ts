/**
 * Live actives over real HTTP (REST and GraphQL) against a loopback Google Analytics Data API and
 * OAuth token endpoint: the service-account JWT grant, the realtime report, the 30 s cache shared
 * by parallel callers, upstream failures, and the operator-only cache statistics and clear.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LiveActivesDocument } from '../../src/generated/graphql';
import { startApi, type TestApi } from '../helpers/api';
import { gql } from '../helpers/client';
import { needsService } from '../helpers/env';
import { startAnalyticsFixture, type AnalyticsFixture } from '../fixtures/analytics';

const OPERATOR_TOKEN = 'operator-token-for-tests-0123456789abcdef';
let fixture: AnalyticsFixture;
let api: TestApi;

beforeAll(async () => {
  fixture = await startAnalyticsFixture();
  api = await startApi({
    env: {
      'GENERAL.ANALYTICS_PROPERTY_ID': fixture.propertyId,
      'ANALYTICS.KEY_FILE': fixture.keyFile,
      'ANALYTICS.API_URL': fixture.apiUrl,
      'ANALYTICS.TOKEN_URL': fixture.tokenUrl,
      OPERATOR_TOKEN,
    },
  });
}, 60_000);
afterAll(async () => {
  await api?.close();
  await fixture?.close();
});

const operator = { authorization: `Bearer ${OPERATOR_TOKEN}` };
const get = async (path: string, headers: Record<string, string> = {}) => {
  const res = await fetch(`${api.url}${path}`, { headers });
  return { status: res.status, body: await res.json() };
};
const clear = () => fetch(`${api.url}/api/stats/cache/clear`, { method: 'POST', headers: operator });

describe('live actives', () => {
  it('asks the realtime report with a service-account token, then serves the cache', async () => {
    fixture.setActiveUsers(42);
    await clear();
    const before = fixture.reportRequests;
    const first = await get('/api/analytics/live-actives');
    expect(first).toEqual({ status: 200, body: { activeUsers: 42, fetchedAt: expect.any(String), ageSeconds: expect.any(Number) } });
    expect(fixture.tokenRequests).toBeGreaterThanOrEqual(1);
    fixture.setActiveUsers(7);
    const second = await get('/api/stats/live-actives');
    expect(second.body).toMatchObject({ activeUsers: 42, fetchedAt: first.body.fetchedAt });
    const viaGraphql = await gql(api.url, LiveActivesDocument, {});
    expect(viaGraphql.body.data?.liveActives).toMatchObject({ activeUsers: 42, fetchedAt: first.body.fetchedAt });
    expect(fixture.reportRequests - before).toBe(1);
  });

  it('makes one upstream call for 30 parallel callers on an empty cache', async () => {
    fixture.setActiveUsers(3);
    await clear();
    const before = fixture.reportRequests;
    const answers = await Promise.all(Array.from({ length: 30 }, () => get('/api/analytics/live-actives')));
    expect(answers.every((a) => a.status === 200 && a.body.activeUsers === 3)).toBe(true);
    expect(fixture.reportRequests - before).toBe(1);
  });

  it('reports 0 when the report has no rows', async () => {
    fixture.setActiveUsers(0);
    await clear();
    expect((await get('/api/analytics/live-actives')).body.activeUsers).toBe(0);
  });

  it('answers UPSTREAM_UNAVAILABLE when the report fails or hangs, and caches nothing', async () => {
    await clear();
    fixture.setMode('fail');
    const failed = await get('/api/analytics/live-actives');
    expect(failed.status).toBe(502);
    expect(failed.body.error.code).toBe('UPSTREAM_UNAVAILABLE');
    fixture.setMode('hang');
    const hung = await get('/api/analytics/live-actives');
    expect(hung.status).toBe(502);
    expect(hung.body.error.message).toMatch(/did not answer within/);
    fixture.setMode('ok');
    fixture.setActiveUsers(11);
    expect((await get('/api/analytics/live-actives')).body.activeUsers).toBe(11);
  });

  it('never shows the key or an access token in answers or logs', async () => {
    const pem = fixture.privateKey.split('\n')[1];
    const raw = api.logs.raw.join('\n');
    expect(raw).not.toContain(pem);
    for (const token of fixture.issuedTokens) expect(raw).not.toContain(token);
  });
});

describe('operator cache routes', () => {
  it('refuse callers without the operator token or an operator wallet', async () => {
    const callers: Array<[Record<string, string>, number, string]> = [
      [{}, 401, 'UNAUTHENTICATED'],
      [{ authorization: 'Bearer wrong-token' }, 401, 'TOKEN_INVALID'],
      [{ authorization: OPERATOR_TOKEN }, 401, 'TOKEN_INVALID'],
      [{ authorization: `Bearer ${api.services.tokens.signAccess(`0x${'a'.repeat(64)}`)}` }, 403, 'FORBIDDEN'],
    ];
    for (const [headers, status, code] of callers) {
      const stats = await get('/api/stats/cache', headers);
      expect(stats.status).toBe(status);
      expect(stats.body.error.code).toBe(code);
      const cleared = await fetch(`${api.url}/api/stats/cache/clear`, { method: 'POST', headers });
      expect(cleared.status).toBe(status);
    }
  });

  it('show the counters and clear the caches', async () => {
    fixture.setActiveUsers(5);
    expect((await clear()).status).toBe(200);
    await get('/api/analytics/live-actives');
    await get('/api/analytics/live-actives');
    const stats = await get('/api/stats/cache', operator);
    expect(stats.status).toBe(200);
    expect(stats.body).toEqual({
      leaderboards: { hits: expect.any(Number), misses: expect.any(Number), entries: expect.any(Number) },
      liveActives: { hits: expect.any(Number), misses: expect.any(Number), cached: true, ttlMs: 30_000 },
    });
    expect(stats.body.liveActives.hits).toBeGreaterThan(0);
    const cleared = await clear();
    expect(await cleared.json()).toEqual({ cleared: ['liveActives', 'leaderboards'] });
    expect((await get('/api/stats/cache', operator)).body.liveActives.cached).toBe(false);
    fixture.setActiveUsers(6);
    const before = fixture.reportRequests;
    expect((await get('/api/analytics/live-actives')).body.activeUsers).toBe(6);
    expect(fixture.reportRequests - before).toBe(1);
    expect(api.logs.raw.join('\n')).not.toContain(OPERATOR_TOKEN);
  });
});

describe('a key file that is not a service-account key', () => {
  it('answers UPSTREAM_UNAVAILABLE and logs nothing of its content', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'analytics-bad-key-'));
    const notJson = join(dir, 'broken.json');
    const userKey = join(dir, 'user.json');
    await writeFile(notJson, '-----BEGIN PRIVATE KEY----- MATERIAL-NOT-TO-LEAK-1');
    await writeFile(userKey, JSON.stringify({ type: 'authorized_user', client_id: 'x', client_secret: 'MATERIAL-NOT-TO-LEAK-2', refresh_token: 'MATERIAL-NOT-TO-LEAK-3' }));
    try {
      for (const keyFile of [notJson, userKey]) {
        const bad = await startApi({ env: { 'GENERAL.ANALYTICS_PROPERTY_ID': fixture.propertyId, 'ANALYTICS.KEY_FILE': keyFile, 'ANALYTICS.API_URL': fixture.apiUrl, 'ANALYTICS.TOKEN_URL': fixture.tokenUrl } });
        try {
          const res = await fetch(`${bad.url}/api/analytics/live-actives`);
          expect(res.status).toBe(502);
          const text = `${await res.text()}\n${bad.logs.raw.join('\n')}`;
          expect(text).not.toMatch(/MATERIAL-NOT-TO-LEAK/);
          expect(bad.logs.lines.some((l) => l.msg === 'analytics credentials gave no access token')).toBe(true);
        } finally {
          await bad.close();
        }
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('without an analytics property', () => {
  it('answers SERVICE_UNAVAILABLE and the operator routes answer 401 without OPERATOR_TOKEN', async () => {
    const bare = await startApi();
    try {
      const res = await fetch(`${bare.url}/api/analytics/live-actives`);
      expect(res.status).toBe(503);
      expect((await res.json()).error.code).toBe('SERVICE_UNAVAILABLE');
      expect((await fetch(`${bare.url}/api/stats/cache`, { headers: operator })).status).toBe(401);
    } finally {
      await bare.close();
    }
  });
});

describe.runIf(needsService('SHARED_STORE_URL'))('two replicas sharing the store', () => {
  it('make one upstream call per cache window between them', async () => {
    const env = {
      'GENERAL.ANALYTICS_PROPERTY_ID': fixture.propertyId,
      'ANALYTICS.KEY_FILE': fixture.keyFile,
      'ANALYTICS.API_URL': fixture.apiUrl,
      'ANALYTICS.TOKEN_URL': fixture.tokenUrl,
      OPERATOR_TOKEN,
    };
    const prefix = `analytics-${Date.now()}`;
    const [one, two] = await Promise.all([startApi({ env, store: 'redis', storePrefix: prefix }), startApi({ env, store: 'redis', storePrefix: prefix })]);
    try {
      fixture.setActiveUsers(9);
      const before = fixture.reportRequests;
      expect((await (await fetch(`${one.url}/api/analytics/live-actives`)).json()).activeUsers).toBe(9);
      fixture.setActiveUsers(10);
      expect((await (await fetch(`${two.url}/api/analytics/live-actives`)).json()).activeUsers).toBe(9);
      expect(fixture.reportRequests - before).toBe(1);
      await fetch(`${two.url}/api/stats/cache/clear`, { method: 'POST', headers: operator });
      expect((await (await fetch(`${one.url}/api/analytics/live-actives`)).json()).activeUsers).toBe(10);
    } finally {
      await Promise.all([one.close(), two.close()]);
    }
  });
});
