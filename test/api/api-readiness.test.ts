import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config';
import { createRuntime } from '../../src/runtime';
import { startApi } from '../helpers/api';
import { createTestDb, migratedDataDir, testLogger } from '../helpers/db';
import { spawnMain } from '../helpers/process';
import { until } from '../gateway/gateway-helpers';

interface ReadyBody {
  status?: string;
  checks?: Record<string, unknown>;
  error?: { code: string; details: { checks: Record<string, unknown> } };
}
const ready = (url: string) => fetch(`${url}/api/health/ready`).then(async (r) => ({ status: r.status, body: (await r.json()) as ReadyBody }));

// Generous per-test limits: each starts a whole API (tens of seconds on a loaded 2-core machine).
describe('readiness (/api/health/ready) beside liveness (/api/health)', { timeout: 120_000 }, () => {
  it('is ready with the database, store and migrations in place, exempt from admission, and unready once shutting down', async () => {
    const api = await startApi({ env: { 'HTTP.RATE_LIMIT_MAX': '2' } });
    try {
      for (let i = 0; i < 4; i++) {
        expect(await ready(api.url)).toEqual({ status: 200, body: { status: 'ready', checks: { database: 'ok', store: 'ok', migrations: 'ok', shuttingDown: false, startingUp: false, degraded: [] } } });
      }
      api.services.readiness.markShuttingDown();
      const answer = await ready(api.url);
      expect(answer.status).toBe(503);
      expect(answer.body.error).toMatchObject({ code: 'SERVICE_UNAVAILABLE', details: { checks: { database: 'ok', shuttingDown: true } } });
      expect((await fetch(`${api.url}/api/health`)).status).toBe(200);
    } finally {
      await api.close();
    }
  });

  it('is unready while a component it serves is still opening (the blog CMS), and ready once that settles, however it ends', async () => {
    const api = await startApi();
    try {
      let open!: () => void;
      let fail!: (e: Error) => void;
      api.services.readiness.startingUntil(new Promise<void>((resolve) => (open = resolve)));
      api.services.readiness.startingUntil(new Promise<void>((_, reject) => (fail = reject)));
      const answer = await ready(api.url);
      expect(answer.status).toBe(503);
      expect(answer.body.error).toMatchObject({ code: 'SERVICE_UNAVAILABLE', details: { checks: { database: 'ok', shuttingDown: false, startingUp: true } } });
      expect((await fetch(`${api.url}/api/health`)).status).toBe(200);
      open();
      expect((await ready(api.url)).body.error!.details.checks).toMatchObject({ startingUp: true });
      fail(new Error('the CMS could not open'));
      await until(async () => (await ready(api.url)).status === 200, 'ready after the last component settled', 10_000);
      expect((await ready(api.url)).body.checks).toMatchObject({ startingUp: false });
    } finally {
      await api.close();
    }
  });

  it('stays ready, degraded, while the shared store is unreachable; is unready while a migration of this build is missing; liveness stays 200', async () => {
    const api = await startApi({ env: { CACHE_STORE: 'redis', SHARED_STORE_URL: 'redis://127.0.0.1:1/0' } });
    try {
      const answer = await ready(api.url);
      expect(answer.status).toBe(200);
      expect(answer.body.checks).toEqual({ database: 'ok', store: 'failed', migrations: 'ok', shuttingDown: false, startingUp: false, degraded: ['store'] });
      expect(await (await fetch(`${api.url}/metrics`)).text()).toContain('readiness_degraded{check="store"} 1');
      expect((await fetch(`${api.url}/api/health`)).status).toBe(200);
    } finally {
      await api.close();
    }
    const db = await createTestDb();
    const second = await startApi({ db: db.db, store: 'memory' });
    try {
      await db.db.query(`DELETE FROM "_prisma_migrations" WHERE migration_name = (SELECT max(migration_name) FROM "_prisma_migrations")`);
      const answer = await ready(second.url);
      expect(answer.status).toBe(503);
      expect(answer.body.error!.details.checks).toMatchObject({ database: 'ok', migrations: 'failed' });
    } finally {
      await second.close();
      await db.cleanup();
    }
  });

  it('on SIGTERM with HTTP.DRAIN_DELAY_MS, turns unready while it still serves, then drains and exits 0', async () => {
    const proc = await spawnMain(['--role', 'api'], { DATA_DIR: await migratedDataDir('readiness-'), 'HTTP.DRAIN_DELAY_MS': '3000', INDEXER_DISABLED: 'true' }, 150_000);
    try {
      expect((await ready(proc.url)).status).toBe(200);
      const exited = new Promise<number | null>((resolve) => proc.child.once('exit', resolve));
      proc.child.kill('SIGTERM');
      await until(async () => (await ready(proc.url)).status === 503, 'readiness 503 after SIGTERM', 10_000);
      // Still serving during the unready phase: the edge takes the replica out before anything is refused.
      expect((await fetch(`${proc.url}/api/health`)).status).toBe(200);
      expect(await exited).toBe(0);
    } finally {
      await proc.stop();
    }
  }, 180_000);

  it('a process without the api role serves the same two endpoints and /metrics on HEALTH_PORT', async () => {
    const db = await createTestDb();
    const config = loadConfig({ envDir: '/nonexistent', env: { NODE_ENV: 'test', CACHE_STORE: 'memory', HEALTH_PORT: '0', 'GENERAL.HOST': '127.0.0.1' } });
    const runtime = await createRuntime(config, { roles: new Set(['jobs']), logger: testLogger, db: db.db });
    try {
      const url = /health:\s+(http:\/\/localhost:\d+)/.exec(runtime.urls.join('\n'))![1]!;
      expect((await ready(url)).body).toEqual({ status: 'ready', checks: { database: 'ok', store: 'ok', migrations: 'ok', shuttingDown: false, startingUp: false, degraded: [] } });
      expect((await fetch(`${url}/api/health`)).status).toBe(200);
      const metrics = await fetch(`${url}/metrics`);
      expect(metrics.status).toBe(200);
      expect(metrics.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
      const text = await metrics.text();
      expect(text).toMatch(/^job_schedule_info\{/m);
      expect(text).toMatch(/^nodejs_eventloop_lag_seconds /m);
      expect((await fetch(`${url}/other`)).status).toBe(404);
    } finally {
      await runtime.close();
      await db.cleanup();
    }
  });
});
