import cron, { type ScheduledTask } from 'node-cron';
import { Counter, Histogram, type Registry } from 'prom-client';
import type { Db } from '../db/client';
import type { Logger } from '../observability/logger';
import type { JobRunsService } from '../services/system';

export interface JobContext {
  /** The scheduled time this run stands for (the start time for a start-up run). */
  tick: Date;
  reason: 'scheduled' | 'start' | 'manual';
  /** Aborted when the runner stops or the lease is lost. */
  signal: AbortSignal;
}

export interface JobDefinition {
  /** Stable key: the heartbeat row, the lock and the metric label. */
  key: string;
  /** node-cron expression (optional seconds field), evaluated in UTC. */
  cron: string;
  /** Also run once when the role starts, unless some replica started a run within this many ms. */
  runAtStartUnlessRanWithinMs?: number;
  /** What the run did, kept in the run log. */
  run(ctx: JobContext): Promise<Record<string, unknown> | void>;
}

/**
 * ran / failed: this replica ran the tick. skipped: this replica claimed the tick but the job's
 * previous run still held the lock (recorded in the run log). taken: another replica had claimed
 * the tick (nothing recorded). stopped: the runner was stopping.
 */
export type TickOutcome = 'ran' | 'failed' | 'skipped' | 'taken' | 'stopped';

export interface JobsRunner {
  readonly jobs: readonly string[];
  /** Runs one tick of a job as the schedule would (tests, operators): one replica per tick wins. */
  tick(key: string, at: Date): Promise<TickOutcome>;
  /** Resolves once no run of this runner is in flight (e.g. the start-up runs). */
  settled(): Promise<void>;
  /** Stops the schedules and waits for runs in flight. */
  stop(): Promise<void>;
}

export interface JobsRunnerDeps {
  db: Db;
  jobRuns: JobRunsService;
  logger: Logger;
  registry?: Registry;
}

const errorText = (err: unknown) => (err instanceof Error ? err.message : String(err)).slice(0, 500);

const OVERLAP_REASON = 'the previous run of this job is still running';

/**
 * Runs jobs on node-cron schedules in every replica of the jobs role; each tick runs in one of
 * them. First a claim of the tick on the job's heartbeat row (one replica per tick: the others,
 * and a replica whose clock fires later, find it taken and record nothing); then the claimant
 * takes a PostgreSQL advisory lock per job. Only claimants ask for the lock, so a lock already
 * held means the job's previous run is still going: that tick is skipped and recorded as such
 * (node-cron's own noOverlap is off, or it would drop such ticks unseen). Outcomes go to the
 * heartbeat, the run log and /metrics.
 */
export function createJobsRunner(deps: JobsRunnerDeps, definitions: readonly JobDefinition[]): JobsRunner {
  const logger = deps.logger.child({ component: 'jobs' });
  const registers = deps.registry ? [deps.registry] : [];
  const runs = new Counter({ name: 'job_runs_total', help: 'Job ticks seen by this replica, by job and outcome (ran, failed, skipped: previous run still running, taken: another replica had it)', labelNames: ['job', 'outcome'], registers });
  const duration = new Histogram({ name: 'job_run_duration_seconds', help: 'Job run time by job', labelNames: ['job'], buckets: [0.01, 0.05, 0.1, 0.5, 1, 5, 15, 60, 300], registers });
  const byKey = new Map(definitions.map((d) => [d.key, d]));
  const stopping = new AbortController();
  const inFlight = new Set<Promise<unknown>>();
  const tasks: ScheduledTask[] = [];

  async function execute(job: JobDefinition, tick: Date, reason: JobContext['reason']): Promise<TickOutcome> {
    if (stopping.signal.aborted) return 'stopped';
    const claimed =
      reason === 'start' ? await deps.jobRuns.claimUnlessRanWithin(job.key, tick, job.runAtStartUnlessRanWithinMs ?? 0) : await deps.jobRuns.claimTick(job.key, tick);
    if (!claimed) {
      runs.inc({ job: job.key, outcome: 'taken' });
      return 'taken';
    }
    const outcome = await deps.db.withAdvisoryLock(`platform:jobs:${job.key}`, async (lease) => {
      const startedAt = new Date();
      await deps.jobRuns.markRunning(job.key, startedAt);
      const stopTimer = duration.startTimer({ job: job.key });
      try {
        const detail = await job.run({ tick, reason, signal: AbortSignal.any([stopping.signal, lease.signal]) });
        await deps.jobRuns.record({ jobKey: job.key, status: 'ok', tick, startedAt, finishedAt: new Date(), detail: { reason, ...(detail ?? {}) } });
        return 'ran' as const;
      } catch (err) {
        logger.warn({ err, job: job.key, tick: tick.toISOString() }, 'job run failed');
        await deps.jobRuns.record({ jobKey: job.key, status: 'failed', tick, startedAt, finishedAt: new Date(), error: errorText(err), detail: { reason } });
        return 'failed' as const;
      } finally {
        stopTimer();
      }
    });
    if (outcome.acquired) {
      runs.inc({ job: job.key, outcome: outcome.value });
      return outcome.value;
    }
    const now = new Date();
    logger.warn({ job: job.key, tick: tick.toISOString() }, `job tick skipped: ${OVERLAP_REASON}`);
    await deps.jobRuns.record({ jobKey: job.key, status: 'skipped', tick, startedAt: now, finishedAt: now, skipReason: OVERLAP_REASON, detail: { reason } });
    runs.inc({ job: job.key, outcome: 'skipped' });
    return 'skipped';
  }

  /** Every run is tracked so stop() can wait for it; errors of the bookkeeping itself are logged, never thrown into node-cron. */
  function track(job: JobDefinition, tick: Date, reason: JobContext['reason']): Promise<TickOutcome> {
    return tracked(
      execute(job, tick, reason).catch((err: unknown) => {
        logger.error({ err, job: job.key }, 'job tick could not be claimed or recorded');
        return 'failed' as const;
      }),
    );
  }

  function tracked<T>(work: Promise<T>): Promise<T> {
    inFlight.add(work);
    void work.finally(() => inFlight.delete(work));
    return work;
  }

  /** The heartbeat shows each job's schedule and next tick (every replica writes the same values). */
  function publishNextRun(job: JobDefinition, task: ScheduledTask, first: boolean): void {
    const next = task.getNextRun();
    const write = first ? deps.jobRuns.registerSchedule(job.key, job.cron, next) : deps.jobRuns.setNextRun(job.key, next);
    void tracked(write.catch((err: unknown) => logger.warn({ err, job: job.key }, 'job schedule could not be recorded')));
  }

  for (const job of definitions) {
    if (!cron.validate(job.cron)) throw new Error(`job ${job.key}: invalid cron expression "${job.cron}"`);
    const task: ScheduledTask = cron.schedule(
      job.cron,
      (ctx) => {
        publishNextRun(job, task, false);
        return track(job, ctx.date, 'scheduled');
      },
      { name: `job:${job.key}`, timezone: 'Etc/UTC', noOverlap: false },
    );
    tasks.push(task);
    publishNextRun(job, task, true);
    if (job.runAtStartUnlessRanWithinMs !== undefined) void track(job, new Date(), 'start');
  }
  logger.info({ jobs: definitions.map((d) => `${d.key} (${d.cron})`) }, 'jobs role: schedules started');

  return {
    jobs: definitions.map((d) => d.key),
    tick(key, at) {
      const job = byKey.get(key);
      if (!job) throw new Error(`unknown job "${key}"`);
      return track(job, at, 'manual');
    },
    async settled() {
      while (inFlight.size) await Promise.allSettled([...inFlight]);
    },
    async stop() {
      stopping.abort(new Error('jobs role stopping'));
      for (const task of tasks) await task.destroy();
      await Promise.allSettled([...inFlight]);
    },
  };
}
