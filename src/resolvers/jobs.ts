import { Field, Int, ObjectType, Query, Resolver } from 'type-graphql';
import { Authorized } from '../graphql/authorized';
import type { Services } from '../services';
import { jobOutcome, type JobStatus } from '../services/system';
import { spelledOut } from './model-enum';

const iso = (d: Date | null) => d?.toISOString() ?? null;

@ObjectType({ description: "One scheduled job's latest state (its heartbeat row)" })
class JobState {
  @Field(() => String) key!: string;
  @Field(() => String, { nullable: true, description: 'node-cron expression, UTC' }) schedule!: string | null;
  @Field(() => String, { nullable: true, description: 'ISO 8601: the next scheduled tick' }) nextRunAt!: string | null;
  @Field(() => String, { description: 'running while a run is in flight, else the last finished run (ok, failed; idle before any)' }) status!: string;
  @Field(() => String, { nullable: true, description: `The newest finished tick's outcome: ${spelledOut(jobOutcome)} (previous run still running)` }) lastOutcome!: string | null;
  @Field(() => String, { nullable: true }) lastStartedAt!: string | null;
  @Field(() => String, { nullable: true }) lastFinishedAt!: string | null;
  @Field(() => Int, { nullable: true }) lastDurationMs!: number | null;
  @Field(() => String, { nullable: true }) lastSuccessAt!: string | null;
  @Field(() => String, { nullable: true }) lastError!: string | null;
  @Field(() => Int) consecutiveFailures!: number;
  @Field(() => String, { nullable: true }) lastSkippedAt!: string | null;
  @Field(() => String, { nullable: true }) lastSkipReason!: string | null;
}

const toView = (s: JobStatus): JobState => ({
  key: s.key,
  schedule: s.schedule,
  nextRunAt: iso(s.nextRunAt),
  status: s.status,
  lastOutcome: s.lastOutcome,
  lastStartedAt: iso(s.lastStartedAt),
  lastFinishedAt: iso(s.lastFinishedAt),
  lastDurationMs: s.lastDurationMs,
  lastSuccessAt: iso(s.lastSuccessAt),
  lastError: s.lastError,
  consecutiveFailures: s.consecutiveFailures,
  lastSkippedAt: iso(s.lastSkippedAt),
  lastSkipReason: s.lastSkipReason,
});

@Resolver()
export class JobsResolver {
  constructor(private readonly services: Services) {}

  @Authorized('operator')
  @Query(() => [JobState], { description: 'Scheduled jobs: schedule, next run and last run of each (operator token: Authorization: Bearer <OPERATOR_TOKEN>)' })
  async jobs(): Promise<JobState[]> {
    return (await this.services.jobRuns.list()).map(toView);
  }
}
