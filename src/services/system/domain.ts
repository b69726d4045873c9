import { defineDomain } from '../domain';
import { createIndexerStatusService } from './indexer-status';
import { createJobRunArchiveService } from './job-run-archive';
import { createJobRunsService } from './job-runs';
import { createReadinessService } from './readiness';
import { createSystemService } from './system';

export const systemDomain = defineDomain({
  name: 'system',
  settings: ['network', 'jobs'],
  needs: [],
  create: ({ config, db, store, logger, registry, version }) => ({
    system: createSystemService({ network: config.network, version }),
    readiness: createReadinessService({ db, store, registry }),
    indexerStatus: createIndexerStatusService({ db, store }),
    jobRuns: createJobRunsService({ db, logger, registry, ...config.jobs }),
    jobRunArchive: createJobRunArchiveService({ db, logger, archiveDir: config.jobs.archiveDir, hotDays: config.jobs.runHotDays }),
  }),
});
