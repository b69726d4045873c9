import { Gauge, type Registry } from 'prom-client';
import type { Prisma } from '../../generated/prisma/client';
import type { Db } from '../../db/client';
import type { Logger } from '../../observability/logger';
import type { JobRunStatus } from './model';

export interface JobRunRecord {
  jobKey: string;
  status: JobRunStatus;
  /** The scheduled time the run stands for: routine successes are sampled per window of it. */
  tick: Date;
  startedAt: Date;
  finishedAt: Date;
  error?: string;
  /** Why a tick was skipped (status `skipped`). */
  skipReason?: string;
  detail?: Record<string, unknown>;
}

/** How a run reached the run log: kept in full, kept as its window's sample, or on the heartbeat only. */
export type RecordedAs = 'kept' | 'sampled' | 'heartbeat-only';

/** The complete latest state of one job (its heartbeat row). */
export interface JobStatus {
  key: string;
  schedule: string | null;
  nextRunAt: Date | null;
  /** running while a run is in flight, else the last finished run's outcome (idle before any). */
  status: string;
  lastOutcome: JobRunStatus | null;
  lastTickAt: Date | null;
  lastStartedAt: Date | null;
  lastFinishedAt: Date | null;
  lastDurationMs: number | null;
  lastSuccessAt: Date | null;
  lastError: string | null;
  consecutiveFailures: number;
  lastSkippedAt: Date | null;
  lastSkipReason: string | null;
}

export interface JobRunsService {
  /** Records where a job is scheduled (the jobs role at start; every replica writes the same). */
  registerSchedule(jobKey: string, schedule: string, nextRunAt: Date | null): Promise<void>;
  setNextRun(jobKey: string, nextRunAt: Date | null): Promise<void>;
  /**
   * Claims the scheduled tick `tick` of a job for this replica: true for exactly one caller per
   * (job, tick) across replicas, as the heartbeat's `last_tick_at` only moves forward.
   */
  claimTick(jobKey: string, tick: Date): Promise<boolean>;
  /** Claims a start-up run unless any replica claimed a tick within `withinMs` before `now`. */
  claimUnlessRanWithin(jobKey: string, now: Date, withinMs: number): Promise<boolean>;
  /** A claimed tick's run has started (it holds the job's lock). */
  markRunning(jobKey: string, startedAt: Date): Promise<void>;
  /**
   * The run's outcome on the heartbeat and, per the retention rule, in the run log: failures,
   * skips and slow successes in full; routine successes once per job and sampling window.
   */
  record(run: JobRunRecord): Promise<RecordedAs>;
  list(): Promise<JobStatus[]>;
}

export interface JobRunsServiceDeps {
  db: Db;
  logger: Logger;
  /** Routine successes are kept once per job per window of this length (ms), keyed by tick. */
  runSampleWindowMs: number;
  /** A success taking at least this long is kept in full (ms). */
  slowRunMs: number;
  /** /metrics: the heartbeat's state as gauges (read from the database on each scrape). */
  registry?: Registry;
}

const toStatus = (row: Awaited<ReturnType<Db['prisma']['opsJobHeartbeat']['findMany']>>[number]): JobStatus => ({
  key: row.jobKey,
  schedule: row.schedule,
  nextRunAt: row.nextRunAt,
  status: row.status,
  lastOutcome: row.lastOutcome as JobRunStatus | null,
  lastTickAt: row.lastTickAt,
  lastStartedAt: row.lastStartedAt,
  lastFinishedAt: row.lastFinishedAt,
  lastDurationMs: row.lastDurationMs,
  lastSuccessAt: row.lastSuccessAt,
  lastError: row.lastError,
  consecutiveFailures: row.consecutiveFailures,
  lastSkippedAt: row.lastSkippedAt,
  lastSkipReason: row.lastSkipReason,
});

/**
 * Which replica runs a job tick, and what each run did: `ops_job_heartbeat` (one row per job, its
 * complete latest state) and `ops_job_run` (the run log). The claim is one conditional UPDATE, so
 * PostgreSQL's row lock decides between replicas; a routine success's sample is an
 * INSERT … ON CONFLICT DO NOTHING on the unique (job_key, sample_window), so exactly one row per
 * window survives whatever the replicas race.
 */
export function createJobRunsService(deps: JobRunsServiceDeps): JobRunsService {
  const { prisma } = deps.db;
  const ensureRow = (jobKey: string) => prisma.opsJobHeartbeat.createMany({ data: [{ jobKey, status: 'idle' }], skipDuplicates: true });
  const claimBefore = async (jobKey: string, before: Date, tick: Date): Promise<boolean> => {
    await ensureRow(jobKey);
    const { count } = await prisma.opsJobHeartbeat.updateMany({
      where: { jobKey, OR: [{ lastTickAt: null }, { lastTickAt: { lt: before } }] },
      data: { lastTickAt: tick },
    });
    return count === 1;
  };
  const list = async () => (await prisma.opsJobHeartbeat.findMany({ orderBy: { jobKey: 'asc' } })).map(toStatus);

  const heartbeatUpdate = (run: JobRunRecord, durationMs: number): Prisma.OpsJobHeartbeatUpdateInput => {
    if (run.status === 'skipped') return { lastOutcome: 'skipped', lastSkippedAt: run.finishedAt, lastSkipReason: run.skipReason ?? 'skipped' };
    const finished = { status: run.status, lastOutcome: run.status, lastFinishedAt: run.finishedAt, lastDurationMs: durationMs };
    return run.status === 'failed'
      ? { ...finished, lastError: run.error ?? 'failed', consecutiveFailures: { increment: 1 } }
      : { ...finished, lastSuccessAt: run.finishedAt, consecutiveFailures: 0 };
  };

  if (deps.registry) registerJobGauges(deps.registry, list, deps.logger);

  return {
    async registerSchedule(jobKey, schedule, nextRunAt) {
      await ensureRow(jobKey);
      await prisma.opsJobHeartbeat.update({ where: { jobKey }, data: { schedule, nextRunAt } });
    },
    async setNextRun(jobKey, nextRunAt) {
      await prisma.opsJobHeartbeat.updateMany({ where: { jobKey }, data: { nextRunAt } });
    },
    claimTick: (jobKey, tick) => claimBefore(jobKey, tick, tick),
    claimUnlessRanWithin: (jobKey, now, withinMs) => claimBefore(jobKey, new Date(now.getTime() - withinMs), now),
    async markRunning(jobKey, startedAt) {
      await prisma.opsJobHeartbeat.update({ where: { jobKey }, data: { status: 'running', lastStartedAt: startedAt } });
    },

    async record(run) {
      const durationMs = Math.max(0, run.finishedAt.getTime() - run.startedAt.getTime());
      const slow = run.status === 'ok' && durationMs >= deps.slowRunMs;
      const routine = run.status === 'ok' && !slow;
      const detail = {
        tick: run.tick.toISOString(),
        ...(run.detail ?? {}),
        ...(run.error ? { error: run.error } : {}),
        ...(run.skipReason ? { skipReason: run.skipReason } : {}),
        ...(slow ? { slow: true } : {}),
      } as Prisma.InputJsonValue;
      const window = new Date(Math.floor(run.tick.getTime() / deps.runSampleWindowMs) * deps.runSampleWindowMs);
      const row = {
        jobKey: run.jobKey,
        status: run.status,
        startedAt: run.startedAt,
        finishedAt: run.finishedAt,
        durationMs,
        detail,
        ...(routine ? { sampled: true, sampleWindow: window } : {}),
      };
      const [, inserted] = await prisma.$transaction([
        prisma.opsJobHeartbeat.update({ where: { jobKey: run.jobKey }, data: heartbeatUpdate(run, durationMs) }),
        prisma.opsJobRun.createMany({ data: [row], skipDuplicates: true }),
      ]);
      if (!routine) return 'kept';
      return inserted.count === 1 ? 'sampled' : 'heartbeat-only';
    },
    list,
  };
}

/** /metrics gauges of every job's heartbeat (cluster-wide: any API replica shows what the jobs replicas did). */
function registerJobGauges(registry: Registry, list: () => Promise<JobStatus[]>, logger: Logger): void {
  let snapshot: { at: number; rows: Promise<JobStatus[]> } | null = null;
  // One read serves every gauge of a scrape.
  const rows = (): Promise<JobStatus[]> => {
    if (!snapshot || Date.now() - snapshot.at > 1000) {
      const read = list().catch((err: unknown) => {
        logger.warn({ err }, 'job gauges: heartbeat read failed');
        return [];
      });
      snapshot = { at: Date.now(), rows: read };
    }
    return snapshot.rows;
  };
  const seconds = (d: Date | null) => (d ? d.getTime() / 1000 : undefined);
  const gauge = (name: string, help: string, value: (s: JobStatus) => number | undefined) =>
    new Gauge({
      name,
      help,
      labelNames: ['job'],
      registers: [registry],
      async collect() {
        this.reset();
        for (const s of await rows()) {
          const v = value(s);
          if (v !== undefined) this.set({ job: s.key }, v);
        }
      },
    });
  new Gauge({
    name: 'job_schedule_info',
    help: 'Scheduled jobs and their cron expression (UTC), value 1',
    labelNames: ['job', 'schedule'],
    registers: [registry],
    async collect() {
      this.reset();
      for (const s of await rows()) if (s.schedule) this.set({ job: s.key, schedule: s.schedule }, 1);
    },
  });
  new Gauge({
    name: 'job_last_outcome',
    help: "The newest finished tick's outcome per job (ok, failed, skipped), value 1",
    labelNames: ['job', 'outcome'],
    registers: [registry],
    async collect() {
      this.reset();
      for (const s of await rows()) if (s.lastOutcome) this.set({ job: s.key, outcome: s.lastOutcome }, 1);
    },
  });
  gauge('job_next_run_timestamp_seconds', 'Next scheduled tick per job (Unix seconds)', (s) => seconds(s.nextRunAt));
  gauge('job_last_run_timestamp_seconds', 'When the last run of each job finished (Unix seconds)', (s) => seconds(s.lastFinishedAt));
  gauge('job_last_success_timestamp_seconds', 'When the last successful run of each job finished (Unix seconds)', (s) => seconds(s.lastSuccessAt));
  gauge('job_last_skip_timestamp_seconds', 'When a tick of each job was last skipped because its previous run was still running (Unix seconds)', (s) => seconds(s.lastSkippedAt));
  gauge('job_last_run_duration_seconds', 'Duration of the last run of each job', (s) => (s.lastDurationMs === null ? undefined : s.lastDurationMs / 1000));
  gauge('job_running', '1 while a run of the job is in flight', (s) => (s.status === 'running' ? 1 : 0));
  gauge('job_consecutive_failures', 'Failed runs in a row per job', (s) => s.consecutiveFailures);
}
