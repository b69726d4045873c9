import type { Registry } from 'prom-client';
import type { Config } from '../config';
import type { Db } from '../db/client';
import type { Logger } from '../observability/logger';
import { domains, type DomainName, type Services } from '../services';
import { archiveJob } from './archive';
import { giftResetJob } from './gift-reset';
import { giveawaySettlementJob } from './giveaway-settlement';
import { pricePollJob } from './price-poll';
import { authPurgeJob, chatPurgeJob, pricePurgeJob } from './purge';
import { createJobsRunner, type JobDefinition, type JobsRunner } from './runner';

export type { JobDefinition, JobsRunner };

export interface JobsRoleDeps {
  config: Pick<Config, 'jobs' | 'chain'>;
  db: Db;
  logger: Logger;
  services: Services;
  registry?: Registry;
}

type JobsDeps = Pick<JobsRoleDeps, 'config' | 'services' | 'logger'>;

/** Each domain's scheduled jobs, under its name in the registry (src/services/domains.ts); a new job is one line here plus its file. */
export const domainJobs = {
  auth: ({ services, config }) => [authPurgeJob(services.auth, config.jobs.purgeCron)],
  chat: ({ services, config }) => [chatPurgeJob(services.chatRetention, config.jobs.purgeCron)],
  system: ({ services, config }) => [archiveJob(services.jobRunArchive, config.jobs.archiveCron)],
  giveaways: ({ services, config }) =>
    services.chainWriter.configured && !config.chain.giveaways.autoSettlementDisabled ? [giveawaySettlementJob(services.giveaways, config.chain.giveaways.cron)] : [],
  prices: ({ services, config, logger }) => {
    const purge = pricePurgeJob(services.priceRetention, config.jobs.purgeCron);
    if (services.prices.configured) return [pricePollJob(services.prices, config.jobs.pricePollCron), purge];
    logger.warn('jobs role: CHAIN.PRICE_API_KEY is not set, so prices are not polled (/api/price answers SERVICE_UNAVAILABLE)');
    return [purge];
  },
  gifts: ({ services, config }) => [giftResetJob(services.gifts, config.jobs.giftResetCron)],
} satisfies { [D in DomainName]?: (deps: JobsDeps) => JobDefinition[] };

/** The scheduled jobs of this deployment, in registry order. */
export function jobDefinitions(deps: JobsDeps): JobDefinition[] {
  const byDomain: { [D in DomainName]?: (deps: JobsDeps) => JobDefinition[] } = domainJobs;
  return domains.flatMap((d) => byDomain[d.name]?.(deps) ?? []);
}

/** Starts the jobs role: every replica schedules every job, and each tick runs in one of them (src/jobs/runner.ts). */
export function startJobsRole(deps: JobsRoleDeps): JobsRunner {
  return createJobsRunner({ db: deps.db, jobRuns: deps.services.jobRuns, logger: deps.logger, registry: deps.registry }, jobDefinitions(deps));
}
