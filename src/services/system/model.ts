import { z } from 'zod';

/** The indexer's mode: backfill or live from the leader; none when no leader published status recently. */
export const indexerMode = z.enum(['backfill', 'live', 'none']);
export type IndexerMode = z.infer<typeof indexerMode>;

/** One readiness check's result (database, store, migrations). */
export const checkResult = z.enum(['ok', 'failed']);
export type CheckResult = z.infer<typeof checkResult>;

/** How a scheduled job's tick ended: `skipped` when its previous run was still running. */
export const jobOutcome = z.enum(['ok', 'failed', 'skipped']);
export type JobRunStatus = z.infer<typeof jobOutcome>;
