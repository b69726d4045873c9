import { parse } from 'graphql';
import { Registry } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi, type TestApi } from '../helpers/api';
import { wsClient, wsQuery } from '../helpers/client';
import { createTestDb, testLogger, type TestDb } from '../helpers/db';
import { createDb, type Db } from '../../src/db/client';
import { startJobsRole } from '../../src/jobs';
import { createJobsRunner, type JobDefinition, type JobsRunner } from '../../src/jobs/runner';
import { createJobRunsService, type JobRunsService } from '../../src/services/system/job-runs';
import { until } from '../helpers/until';

// The jobs runner against a real database (PostgreSQL with DATABASE_URL: two connection pools as
// two replicas; else PGlite shared by two runners). Ticks go through the runner's own `tick`, as
// node-cron calls it, except where the per-second schedule itself is under test.

const NEVER = '0 0 1 1 *';
const WINDOW_MS = 300_000;

let t: TestDb;
/** A second handle on the same database (its own pool on PostgreSQL). */
let other: Db;
const runners: JobsRunner[] = [];

const runsService = (db: Db, extra: { slowRunMs?: number; registry?: Registry } = {}): JobRunsService =>
  createJobRunsService({ db, logger: testLogger, runSampleWindowMs: WINDOW_MS, slowRunMs: extra.slowRunMs ?? 10_000, registry: extra.registry });

function runner(db: Db, jobs: JobDefinition[]): JobsRunner {
  const r = createJobsRunner({ db, jobRuns: runsService(db), logger: testLogger }, jobs);
  runners.push(r);
  return r;
}

beforeAll(async () => {
  t = await createTestDb();
  other = t.url ? await createDb({ databaseUrl: t.url, dataDir: '/nonexistent', logger: testLogger, poolMax: 5 }) : t.db;
});

afterAll(async () => {
  await Promise.all(runners.map((r) => r.stop()));
  if (other !== t.db) await other.close();
  await t?.cleanup();
});

describe('scheduled jobs on two replicas', () => {
  it('each tick runs once: 20 ticks fired on both replicas at once, and the real per-second schedule', async () => {
    const seen = new Map<string, number>();
    const job = (key: string, cron: string): JobDefinition => ({
      key,
      cron,
      async run({ tick }) {
        seen.set(`${key} ${tick.toISOString()}`, (seen.get(`${key} ${tick.toISOString()}`) ?? 0) + 1);
      },
    });
    const [a, b] = [runner(t.db, [job('twin-manual', NEVER)]), runner(other, [job('twin-manual', NEVER)])];
    const base = Math.ceil(Date.now() / 1000) * 1000 + 3_600_000;
    for (let i = 0; i < 20; i++) {
      const tick = new Date(base + i * 1000);
      const outcomes = await Promise.all([a.tick('twin-manual', tick), b.tick('twin-manual', tick)]);
      expect(outcomes.sort()).toEqual(['ran', 'taken']);
    }
    expect([...seen.values()].every((n) => n === 1)).toBe(true);
    expect(seen.size).toBe(20);

    // node-cron fires every second in both runners; every tick still runs exactly once.
    const cronRunners = [runner(t.db, [job('twin-cron', '* * * * * *')]), runner(other, [job('twin-cron', '* * * * * *')])];
    await until(() => [...seen.keys()].filter((k) => k.startsWith('twin-cron ')).length >= 3, 'three per-second ticks', 20_000);
    await Promise.all(cronRunners.map((c) => c.stop()));
    const cronTicks = [...seen.entries()].filter(([k]) => k.startsWith('twin-cron '));
    expect(cronTicks.every(([, n]) => n === 1)).toBe(true);
    // A tick another replica had is not recorded as a skip: no manual tick is, and a per-second tick
    // recorded as skipped (its previous run still held the lock on a slow database) never also ran.
    expect(await t.prisma.opsJobRun.count({ where: { jobKey: 'twin-manual', status: 'skipped' } })).toBe(0);
    const skipped = await t.prisma.opsJobRun.findMany({ where: { jobKey: 'twin-cron', status: 'skipped' } });
    for (const row of skipped) expect(seen.has(`twin-cron ${(row.detail as { tick: string }).tick}`)).toBe(false);
  }, 60_000);

  it('a tick that would overlap the previous run is skipped and recorded (run log and heartbeat)', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const slow: JobDefinition = { key: 'overlap', cron: NEVER, run: () => gate };
    const [a, b] = [runner(t.db, [slow]), runner(other, [slow])];
    const base = Date.now() + 7_200_000;
    const first = a.tick('overlap', new Date(base));
    await until(async () => (await t.prisma.opsJobHeartbeat.findUnique({ where: { jobKey: 'overlap' } }))?.status === 'running', 'the first run to start', 20_000);
    expect(await b.tick('overlap', new Date(base + 60_000))).toBe('skipped');
    expect(await a.tick('overlap', new Date(base + 120_000))).toBe('skipped');
    const heartbeat = await t.prisma.opsJobHeartbeat.findUnique({ where: { jobKey: 'overlap' } });
    expect(heartbeat).toMatchObject({ status: 'running', lastOutcome: 'skipped', lastSkipReason: 'the previous run of this job is still running' });
    release();
    expect(await first).toBe('ran');
    const rows = await t.prisma.opsJobRun.findMany({ where: { jobKey: 'overlap' }, orderBy: { id: 'asc' } });
    expect(rows.map((r) => r.status)).toEqual(['skipped', 'skipped', 'ok']);
    expect(rows[0].detail).toMatchObject({ tick: new Date(base + 60_000).toISOString(), skipReason: 'the previous run of this job is still running' });
    expect(await t.prisma.opsJobHeartbeat.findUnique({ where: { jobKey: 'overlap' } })).toMatchObject({ status: 'ok', lastOutcome: 'ok', lastSkipReason: 'the previous run of this job is still running' });
  }, 30_000);
});

describe('operation history', () => {
  it('100 routine successes in one 5-minute window leave one run row; every failure is kept', async () => {
    let fail = false;
    const r = runner(t.db, [
      {
        key: 'routine',
        cron: NEVER,
        async run() {
          if (fail) throw new Error('source down');
        },
      },
    ]);
    const window = Math.ceil((Date.now() + 10_800_000) / WINDOW_MS) * WINDOW_MS;
    for (let i = 0; i < 100; i++) expect(await r.tick('routine', new Date(window + i * 100))).toBe('ran');
    fail = true;
    for (let i = 100; i < 110; i++) expect(await r.tick('routine', new Date(window + i * 100))).toBe('failed');
    const rows = await t.prisma.opsJobRun.findMany({ where: { jobKey: 'routine' } });
    expect(rows.filter((x) => x.status === 'ok')).toHaveLength(1);
    expect(rows.find((x) => x.status === 'ok')).toMatchObject({ sampled: true, sampleWindow: new Date(window) });
    expect(rows.filter((x) => x.status === 'failed')).toHaveLength(10);
    const heartbeat = await t.prisma.opsJobHeartbeat.findUnique({ where: { jobKey: 'routine' } });
    expect(heartbeat).toMatchObject({ status: 'failed', consecutiveFailures: 10, lastError: 'source down' });
    expect(heartbeat?.lastSuccessAt).not.toBeNull();
  }, 60_000);

  it('the sample is race-free: 60 successes of one window recorded at once from two replicas keep one row; slow successes are all kept', async () => {
    const services = [runsService(t.db, { slowRunMs: 500 }), runsService(other, { slowRunMs: 500 })];
    await services[0].registerSchedule('racing', NEVER, null);
    const tick = new Date(Math.ceil((Date.now() + 14_400_000) / WINDOW_MS) * WINDOW_MS);
    const at = (ms: number) => new Date(tick.getTime() + ms);
    const results = await Promise.all(
      Array.from({ length: 60 }, (_, i) => services[i % 2].record({ jobKey: 'racing', status: 'ok', tick: at(i), startedAt: at(i), finishedAt: at(i + 10) })),
    );
    expect(results.filter((x) => x === 'sampled')).toHaveLength(1);
    expect(results.filter((x) => x === 'heartbeat-only')).toHaveLength(59);
    const slow = await Promise.all(
      Array.from({ length: 4 }, (_, i) => services[i % 2].record({ jobKey: 'racing', status: 'ok', tick: at(i), startedAt: at(i), finishedAt: at(i + 600) })),
    );
    expect(slow).toEqual(['kept', 'kept', 'kept', 'kept']);
    const rows = await t.prisma.opsJobRun.findMany({ where: { jobKey: 'racing' } });
    expect(rows).toHaveLength(5);
    expect(rows.filter((x) => (x.detail as { slow?: boolean }).slow)).toHaveLength(4);
  });
});

describe('jobs status: GraphQL (operator only) and /metrics', () => {
  const OPERATOR_TOKEN = 'operator-token-for-the-jobs-status-test-0123456789';
  let api: TestApi;
  let role: JobsRunner;

  beforeAll(async () => {
    api = await startApi({ env: { OPERATOR_TOKEN } });
    role = startJobsRole({ config: api.config, db: api.db, logger: testLogger, services: api.services });
    await role.settled();
    expect(await role.tick('gift-reset', new Date(Math.ceil(Date.now() / 86_400_000) * 86_400_000))).toBe('ran');
  }, 60_000);

  afterAll(async () => {
    await role?.stop();
    await api?.close();
  });

  const query = (headers: Record<string, string> = {}) =>
    fetch(`${api.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ query: '{ jobs { key schedule nextRunAt status lastOutcome lastFinishedAt lastSuccessAt lastDurationMs } }' }),
    }).then(async (res) => ({
      status: res.status,
      body: (await res.json()) as { data?: { jobs: Array<Record<string, unknown>> } | null; errors?: Array<{ extensions?: { code?: string } }>; error?: { code: string } },
    }));

  it('refuses the jobs query without the operator token (and with a wrong one) and answers it with the token, over HTTP and websocket', async () => {
    const anonymous = await query();
    expect(anonymous.body.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    expect(anonymous.body.data ?? null).toBeNull();
    const wrong = await query({ authorization: 'Bearer not-the-operator-token' });
    expect(wrong.body.data ?? null).toBeNull();
    // Not the operator token, so read as an access token: refused by the transport before GraphQL.
    expect(wrong.status).toBe(401);
    expect(wrong.body.error?.code).toBe('TOKEN_INVALID');

    const answered = await query({ authorization: `Bearer ${OPERATOR_TOKEN}` });
    expect(answered.body.errors).toBeUndefined();
    const byKey = new Map(answered.body.data!.jobs.map((j) => [j.key, j]));
    expect(byKey.get('gift-reset')).toMatchObject({ schedule: '0 0 * * *', status: 'ok', lastOutcome: 'ok' });
    expect(Date.parse(String(byKey.get('gift-reset')?.nextRunAt)) % 86_400_000).toBe(0);
    expect(byKey.get('ops-archive')).toMatchObject({ schedule: api.config.jobs.archiveCron, status: 'idle', lastOutcome: null });

    const document = parse('{ jobs { key schedule } }');
    const anonymousWs = wsClient(api.wsUrl);
    const operatorWs = wsClient(api.wsUrl, { authorization: `Bearer ${OPERATOR_TOKEN}` });
    try {
      const refused = await wsQuery(anonymousWs, document);
      expect(refused.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
      const allowed = await wsQuery<{ jobs: Array<{ key: string }> }, Record<string, never>>(operatorWs, document);
      expect(allowed.data?.jobs.map((j) => j.key)).toContain('gift-reset');
    } finally {
      await Promise.all([anonymousWs.dispose(), operatorWs.dispose()]);
    }
  });

  it('/metrics shows every schedule, next run and last run', async () => {
    const text = await (await fetch(`${api.url}/metrics`)).text();
    expect(text).toContain('job_schedule_info{job="gift-reset",schedule="0 0 * * *"} 1');
    expect(text).toContain(`job_schedule_info{job="ops-archive",schedule="${api.config.jobs.archiveCron}"} 1`);
    expect(text).toContain('job_last_outcome{job="gift-reset",outcome="ok"} 1');
    const value = (name: string) => Number(new RegExp(`^${name}\\{job="gift-reset"\\} (\\S+)$`, 'm').exec(text)?.[1]);
    expect(value('job_next_run_timestamp_seconds') % 86_400).toBe(0);
    expect(value('job_next_run_timestamp_seconds') * 1000).toBeGreaterThan(Date.now());
    expect(Math.abs(value('job_last_run_timestamp_seconds') * 1000 - Date.now())).toBeLessThan(600_000);
    expect(value('job_last_success_timestamp_seconds')).toBe(value('job_last_run_timestamp_seconds'));
    expect(value('job_last_run_duration_seconds')).toBeGreaterThanOrEqual(0);
  });
});
