import type { JobRunArchiveService } from '../services/system';
import type { JobDefinition } from './runner';

/** Moves run-log rows past the hot window to verified gzip NDJSON archives (JOBS.ARCHIVE_CRON, default 03:30 UTC daily). */
export function archiveJob(archive: JobRunArchiveService, cronExpression: string): JobDefinition {
  return {
    key: 'ops-archive',
    cron: cronExpression,
    async run() {
      const result = await archive.archive();
      return { cutoff: result.cutoff.toISOString(), files: result.files.map((f) => f.file), pruned: result.pruned };
    },
  };
}
