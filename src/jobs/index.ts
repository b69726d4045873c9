import type { Registry } from 'prom-client';
import type { Config } from '../config';
import type { Db } from '../db/client';
import type { Logger } from '../observability/logger';
import type { Services } from '../services';
import { archiveJob } from './archive';
import { giftResetJob } from './gift-reset';
import { giveawaySettlementJob } from './giveaway-settlement';
import { pricePollJob } from './price-poll';
import { createJobsRunner, type JobDefinition, type JobsRunner } from './runner';

export type { JobDefinition, JobsRunner };

export interface JobsRoleDeps {
  config: Pick<Config, 'jobs' | 'chain'>;
  db: Db;
  logger: Logger;
  services: Services;
  registry?: Registry;
}

/** The scheduled jobs of this deployment; a new job is one line here plus its file. */
export function jobDefinitions({ config, services, logger }: Pick<JobsRoleDeps, 'config' | 'services' | 'logger'>): JobDefinition[] {
  const jobs: JobDefinition[] = [giftResetJob(services.gifts, config.jobs.giftResetCron), archiveJob(services.jobRunArchive, config.jobs.archiveCron)];
  if (services.prices.configured) jobs.push(pricePollJob(services.prices, config.jobs.pricePollCron));
  else logger.warn('jobs role: CHAIN.PRICE_API_KEY is not set, so prices are not polled (/api/price answers SERVICE_UNAVAILABLE)');
  if (services.chainWriter.configured && !config.chain.giveaways.autoSettlementDisabled) jobs.push(giveawaySettlementJob(services.giveaways, config.chain.giveaways.cron));
  return jobs;
}

/** Starts the jobs role: every replica schedules every job, and each tick runs in one of them (src/jobs/runner.ts). */
export function startJobsRole(deps: JobsRoleDeps): JobsRunner {
  return createJobsRunner({ db: deps.db, jobRuns: deps.services.jobRuns, logger: deps.logger, registry: deps.registry }, jobDefinitions(deps));
}
