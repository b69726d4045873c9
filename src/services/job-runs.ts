import type { Prisma } from '../generated/prisma/client';
import type { Db } from '../db/client';

export interface JobRunRecord {
  jobKey: string;
  /** ok | failed */
  status: 'ok' | 'failed';
  startedAt: Date;
  finishedAt: Date;
  error?: string;
  detail?: Record<string, unknown>;
}

export interface JobRunsService {
  /**
   * Claims the scheduled tick `tick` of a job for this replica: true for exactly one caller per
   * (job, tick) across replicas, as the heartbeat's `last_started_at` only moves forward.
   */
  claimTick(jobKey: string, tick: Date): Promise<boolean>;
  /** Claims a start-up run unless any replica started one within `withinMs` before `now`. */
  claimUnlessRanWithin(jobKey: string, now: Date, withinMs: number): Promise<boolean>;
  /** The run's outcome on the heartbeat (last error, consecutive failures) and in the run log. */
  record(run: JobRunRecord): Promise<void>;
}

/**
 * Which replica runs a job tick, and what each run did: `ops_job_heartbeat` (one row per job) and
 * `ops_job_run` (one row per run). The claim is one conditional UPDATE, so PostgreSQL's row lock
 * decides between replicas whatever their store backend.
 */
export function createJobRunsService(deps: { db: Db }): JobRunsService {
  const { prisma } = deps.db;
  const ensureRow = (jobKey: string) => prisma.opsJobHeartbeat.createMany({ data: [{ jobKey, status: 'idle' }], skipDuplicates: true });
  const claimBefore = async (jobKey: string, before: Date, startedAt: Date): Promise<boolean> => {
    await ensureRow(jobKey);
    const { count } = await prisma.opsJobHeartbeat.updateMany({
      where: { jobKey, OR: [{ lastStartedAt: null }, { lastStartedAt: { lt: before } }] },
      data: { status: 'running', lastStartedAt: startedAt },
    });
    return count === 1;
  };
  return {
    claimTick: (jobKey, tick) => claimBefore(jobKey, tick, tick),
    claimUnlessRanWithin: (jobKey, now, withinMs) => claimBefore(jobKey, new Date(now.getTime() - withinMs), now),

    async record(run) {
      const durationMs = Math.max(0, run.finishedAt.getTime() - run.startedAt.getTime());
      const failed = run.status === 'failed';
      await prisma.$transaction([
        prisma.opsJobHeartbeat.update({
          where: { jobKey: run.jobKey },
          data: {
            status: run.status,
            lastFinishedAt: run.finishedAt,
            lastDurationMs: durationMs,
            ...(failed ? { lastError: run.error ?? 'failed', consecutiveFailures: { increment: 1 } } : { consecutiveFailures: 0 }),
          },
        }),
        prisma.opsJobRun.create({
          data: {
            jobKey: run.jobKey,
            status: run.status,
            startedAt: run.startedAt,
            finishedAt: run.finishedAt,
            durationMs,
            detail: { ...(run.detail ?? {}), ...(run.error ? { error: run.error } : {}) } as Prisma.InputJsonValue,
          },
        }),
      ]);
    },
  };
}
