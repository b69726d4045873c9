// Issue 30: a private PostgreSQL frozen (SIGSTOP) and then killed under steady load. Every answer
// is 2xx, 429 or 503 in the error shape within the request limit (never 500, a reset or a hang),
// a killed database is 503 SERVICE_UNAVAILABLE with Retry-After over HTTP and graphql-ws, and the
// health of the API and of a jobs process answers within 1 s throughout.
import { tmpdir } from 'node:os';
import { parse } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config';
import { createDb, type Db } from '../../src/db/client';
import { createMetrics } from '../../src/observability/metrics';
import { createRuntime, type Runtime } from '../../src/runtime';
import { startApi, type TestApi } from '../helpers/api';
import { wsClient, wsQuery } from '../helpers/client';
import { testLogger } from '../helpers/db';
import { captureLogger } from '../helpers/logs';
import { postgresBin, ThrowawayPostgres } from '../helpers/postgres';
import { requireServices } from '../helpers/store';
import { until } from '../helpers/until';

if (!postgresBin && requireServices) throw new Error('REQUIRE_SERVICES=1 but no PostgreSQL binaries under /usr/lib/postgresql');

const REQUEST_LIMIT_MS = 2_000;
/** Longer than the request limit, so a frozen database makes requests reach it. */
const FREEZE_MS = 3_000;
const KILLED_MS = 2_000;

interface Answer {
  phase: Phase;
  what: string;
  status: number | 'reset' | 'hang';
  ms: number;
  code?: string;
  retryAfter?: string | null;
}
type Phase = 'up' | 'frozen' | 'killed';

describe.skipIf(!postgresBin)('PostgreSQL frozen, then killed, under load', { timeout: 60_000 }, () => {
  let server: ThrowawayPostgres;
  let apiDb: Db;
  let jobsDb: Db;
  let api: TestApi;
  let jobs: Runtime;
  let jobsHealth: string;

  beforeAll(async () => {
    server = await ThrowawayPostgres.start();
    apiDb = await createDb({ databaseUrl: server.url, dataDir: tmpdir(), logger: testLogger, poolMax: 5, statementTimeoutMs: 30_000 });
    jobsDb = await createDb({ databaseUrl: server.url, dataDir: tmpdir(), logger: testLogger, poolMax: 2 });
    api = await startApi({ db: apiDb, store: 'memory', env: { 'HTTP.REQUEST_TIMEOUT_MS': String(REQUEST_LIMIT_MS), 'HTTP.RATE_LIMIT_MAX': '100000' } });
    const config = loadConfig({ envDir: '/nonexistent', env: { NODE_ENV: 'test', CACHE_STORE: 'memory', HEALTH_PORT: '0', 'GENERAL.HOST': '127.0.0.1' } });
    jobs = await createRuntime(config, { roles: new Set(['jobs']), logger: captureLogger().logger, metrics: createMetrics({ defaultMetrics: false }), db: jobsDb });
    jobsHealth = /health:\s+(http:\/\/localhost:\d+)/.exec(jobs.urls.join('\n'))![1]!;
  }, 60_000);

  afterAll(async () => {
    await api?.close();
    await jobs?.close();
    await server?.stop();
    // The pools' connections are gone with the server: closing must not wait for it.
    await Promise.race([Promise.all([apiDb?.close(), jobsDb?.close()]).catch(() => undefined), new Promise((r) => setTimeout(r, 3_000))]);
  });

  it('answers 2xx, 429 or 503 within the request limit, and health within 1 s, through the freeze and the kill', async () => {
    let phase: Phase = 'up';
    let running = true;
    const load: Answer[] = [];
    const health: Answer[] = [];

    async function call(into: Answer[], what: string, url: string, init: RequestInit, boundMs: number): Promise<void> {
      const at = phase;
      const t = performance.now();
      try {
        const r = await fetch(url, { ...init, signal: AbortSignal.timeout(boundMs) });
        const body = (await r.json()) as { error?: { code?: string } };
        into.push({ phase: at, what, status: r.status, ms: performance.now() - t, code: body.error?.code, retryAfter: r.headers.get('retry-after') });
      } catch (err) {
        const hang = err instanceof Error && err.name === 'TimeoutError';
        into.push({ phase: at, what, status: hang ? 'hang' : 'reset', ms: performance.now() - t });
      }
    }

    const address = `0x${'ab'.repeat(32)}`;
    const requests: Array<[string, string, RequestInit]> = [
      ['quests', `${api.url}/api/quests/list`, {}],
      ['challenge', `${api.url}/api/auth/challenge`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ address }) }],
    ];
    const workers = Array.from({ length: 4 }, async (_, w) => {
      for (let i = w; running; i++) {
        const [what, url, init] = requests[i % requests.length]!;
        await call(load, what, url, init, REQUEST_LIMIT_MS + 1_500);
      }
    });
    const probes = (async () => {
      while (running) {
        await Promise.all([
          call(health, 'api live', `${api.url}/api/health`, {}, 3_000),
          call(health, 'api ready', `${api.url}/api/health/ready`, {}, 3_000),
          call(health, 'jobs live', `${jobsHealth}/api/health`, {}, 3_000),
          call(health, 'jobs ready', `${jobsHealth}/api/health/ready`, {}, 3_000),
        ]);
        await new Promise((r) => setTimeout(r, 100));
      }
    })();

    const until_ = (ms: number) => new Promise((r) => setTimeout(r, ms));
    // Up: the load answered, and both roles have said ready (a start-up step may still be opening at first).
    const saidReady = (what: string) => health.some((a) => a.what === what && a.status === 200);
    await until(() => load.filter((a) => a.status === 200).length >= 8 && saidReady('api ready') && saidReady('jobs ready'), 'load answered and both roles ready while the database is up', 10_000);
    phase = 'frozen';
    server.freeze();
    await until_(FREEZE_MS);
    phase = 'killed';
    await server.kill();
    await until(() => load.some((a) => a.phase === 'killed' && a.code === 'SERVICE_UNAVAILABLE'), 'a 503 after the kill', 10_000);
    await until_(KILLED_MS);

    // Over graphql-ws the same code (the one wire mapper).
    const ws = wsClient(api.wsUrl);
    try {
      const result = await wsQuery(ws, parse('{ chatHistory(room: "global") { items { id } } }'));
      expect(result.errors?.[0]?.extensions?.code).toBe('SERVICE_UNAVAILABLE');
    } finally {
      await ws.dispose();
    }
    running = false;
    await Promise.all([...workers, probes]);

    const bad = load.filter((a) => !(typeof a.status === 'number' && ((a.status >= 200 && a.status < 300) || a.status === 429 || a.status === 503)));
    expect(bad).toEqual([]);
    expect(load.filter((a) => a.status === 503 && !['SERVICE_UNAVAILABLE', 'REQUEST_TIMEOUT'].includes(a.code!))).toEqual([]);
    expect(load.filter((a) => a.ms > REQUEST_LIMIT_MS + 500)).toEqual([]);
    // The killed database: SERVICE_UNAVAILABLE with Retry-After on every 503 of that kind.
    const unavailable = load.filter((a) => a.code === 'SERVICE_UNAVAILABLE');
    expect(unavailable.length).toBeGreaterThan(0);
    expect(unavailable.filter((a) => a.retryAfter !== '2')).toEqual([]);
    expect(load.some((a) => a.phase === 'frozen' && a.status === 503)).toBe(true);

    // Health of both roles: answered within 1 s throughout; liveness 200; readiness 503 once the database is gone.
    expect(health.filter((a) => typeof a.status !== 'number' || a.ms >= 1_000)).toEqual([]);
    expect(health.filter((a) => a.what.endsWith('live') && a.status !== 200)).toEqual([]);
    for (const what of ['api ready', 'jobs ready']) {
      expect(health.some((a) => a.what === what && a.phase === 'up' && a.status === 200)).toBe(true);
      expect(health.some((a) => a.what === what && a.phase === 'frozen' && a.status === 503)).toBe(true);
      expect(health.filter((a) => a.what === what && a.phase === 'killed').at(-1)?.status).toBe(503);
    }
    // Nothing was written to a reply after its time-out answered.
    expect(api.logs.raw.filter((l) => /already sent|reply\.sent = true/.test(l))).toEqual([]);
  });
});
