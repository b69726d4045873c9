import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Db } from '../../db/client';
import type { Logger } from '../../observability/logger';
import { ArchiveVerificationError, readVerifiedArchive, writeArchive, type ArchivedRun, type ArchiveManifest } from './job-run-archive-file';

export { ArchiveVerificationError, manifestPathOf, readVerifiedArchive } from './job-run-archive-file';

export type ArchivePhase = 'write' | 'read back' | 'compare and prune' | 'restore' | 'verify';

/** Progress of one phase: `done` of `total` rows. */
export type ArchiveProgress = (event: { phase: ArchivePhase; file: string; done: number; total: number }) => void;

export interface ArchivedFile {
  file: string;
  manifest: string;
  rows: number;
  compressedSha256: string;
  contentSha256: string;
}

export interface ArchiveResult {
  cutoff: Date;
  files: ArchivedFile[];
  /** Source rows deleted (each file's rows, after its compare). */
  pruned: number;
}

export interface RestoreResult {
  file: string;
  rows: number;
  inserted: number;
  alreadyPresent: number;
}

export interface JobRunArchiveService {
  readonly archiveDir: string;
  /** Archives and prunes every run-log row older than the hot window, one file per batch. */
  archive(opts?: { now?: Date; onProgress?: ArchiveProgress }): Promise<ArchiveResult>;
  /** Step 1 alone: writes the next batch of old rows to an archive file (null: nothing to archive). */
  writeNext(opts?: { now?: Date; onProgress?: ArchiveProgress }): Promise<ArchivedFile | null>;
  /** Step 2 alone: reads the file back, verifies it, compares it row by row with the source and prunes those rows, or throws. */
  verifyAndPrune(file: string, opts?: { onProgress?: ArchiveProgress }): Promise<number>;
  /** Restores an archive into ops_job_run (rows already present are left as they are) and verifies the table holds every archived row. */
  restore(file: string, opts?: { onProgress?: ArchiveProgress }): Promise<RestoreResult>;
}

export interface JobRunArchiveDeps {
  db: Db;
  logger: Logger;
  archiveDir: string;
  /** Rows started more than this many days ago are archived. */
  hotDays: number;
  /** Rows per archive file (default 50 000). */
  batchRows?: number;
}

/** Rows per INSERT of the restore (one jsonb parameter each). */
const INSERT_CHUNK = 2000;
const DAY_MS = 86_400_000;
/** One archive at a time across replicas and the CLI. */
const ARCHIVE_LOCK = 'platform:ops-job-run-archive';

const COLUMNS = `id bigint, job_key text, status text, started_at timestamptz, finished_at timestamptz, duration_ms integer, detail jsonb, sampled boolean, sample_window timestamptz`;
const COLUMN_LIST = 'id, job_key, status, started_at, finished_at, duration_ms, detail, sampled, sample_window';

/** The archived rows as the recordset jsonb_to_recordset reads (column names of the table). */
const asRecords = (rows: readonly ArchivedRun[]) =>
  JSON.stringify(
    rows.map((r) => ({
      id: r.id,
      job_key: r.jobKey,
      status: r.status,
      started_at: r.startedAt,
      finished_at: r.finishedAt,
      duration_ms: r.durationMs,
      detail: r.detail,
      sampled: r.sampled,
      sample_window: r.sampleWindow,
    })),
  );

type Executor = Pick<Db['prisma'], '$executeRawUnsafe' | '$queryRawUnsafe'>;

/** Rows of `rows` that the table `table` does not hold identically (every column compared). */
async function mismatchedIds(tx: Executor, table: string, restored: string, ids: string[]): Promise<string[]> {
  const found = await tx.$queryRawUnsafe<Array<{ id: string }>>(
    `SELECT COALESCE(s.id, r.id)::text AS id
       FROM (SELECT ${COLUMN_LIST} FROM ${table} WHERE id = ANY($1::bigint[])) s
       FULL OUTER JOIN ${restored} r ON r.id = s.id
      WHERE s.id IS NULL OR r.id IS NULL
         OR (s.job_key, s.status, s.started_at, s.finished_at, s.duration_ms, s.detail, s.sampled, s.sample_window)
            IS DISTINCT FROM (r.job_key, r.status, r.started_at, r.finished_at, r.duration_ms, r.detail, r.sampled, r.sample_window)
      ORDER BY 1 LIMIT 20`,
    ids,
  );
  return found.map((r) => r.id);
}

async function loadInto(tx: Executor, table: string, rows: readonly ArchivedRun[], conflict: string, onChunk?: (done: number) => void): Promise<number> {
  let inserted = 0;
  for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
    const chunk = rows.slice(i, i + INSERT_CHUNK);
    inserted += await tx.$executeRawUnsafe(
      `INSERT INTO ${table} (${COLUMN_LIST}) SELECT ${COLUMN_LIST} FROM jsonb_to_recordset($1::jsonb) AS x(${COLUMNS}) ${conflict}`,
      asRecords(chunk),
    );
    onChunk?.(i + chunk.length);
  }
  return inserted;
}

/**
 * Moves run-log rows older than the hot window to gzip NDJSON archives (./job-run-archive-file.ts).
 * A batch's source rows are deleted only after its file was read back from disk, passed every
 * hash (file, content, each row), was restored into a TEMP table and matched the source row by
 * row — the compare and the delete in one transaction, the source rows locked meanwhile.
 */
export function createJobRunArchiveService(deps: JobRunArchiveDeps): JobRunArchiveService {
  const { prisma } = deps.db;
  const logger = deps.logger.child({ component: 'ops-archive' });
  const archiveDir = resolve(deps.archiveDir);
  const batchRows = deps.batchRows ?? 50_000;

  async function writeNext(opts: { now?: Date; onProgress?: ArchiveProgress } = {}): Promise<ArchivedFile | null> {
    const cutoff = new Date((opts.now ?? new Date()).getTime() - deps.hotDays * DAY_MS);
    const source = await prisma.opsJobRun.findMany({ where: { startedAt: { lt: cutoff } }, orderBy: { id: 'asc' }, take: batchRows });
    if (!source.length) return null;
    const rows: ArchivedRun[] = source.map((r) => ({
      id: r.id.toString(),
      jobKey: r.jobKey,
      status: r.status,
      startedAt: r.startedAt.toISOString(),
      finishedAt: r.finishedAt.toISOString(),
      durationMs: r.durationMs,
      detail: r.detail,
      sampled: r.sampled,
      sampleWindow: r.sampleWindow?.toISOString() ?? null,
    }));
    await mkdir(archiveDir, { recursive: true });
    const file = join(archiveDir, `ops_job_run-${rows[0].id}-${rows.at(-1)?.id}-${cutoff.toISOString().replace(/[:.]/g, '')}.ndjson.gz`);
    let done = 0;
    const manifest = await writeArchive(file, rows, { cutoff, onRow: () => opts.onProgress?.({ phase: 'write', file, done: ++done, total: rows.length }) });
    return describe(file, manifest);
  }

  const describe = (file: string, m: ArchiveManifest): ArchivedFile => ({
    file,
    manifest: `${file}.manifest.json`,
    rows: m.rows,
    compressedSha256: m.compressedSha256,
    contentSha256: m.contentSha256,
  });

  async function verifyAndPrune(file: string, opts: { onProgress?: ArchiveProgress } = {}): Promise<number> {
    let read = 0;
    const verified = await readVerifiedArchive(file, () => opts.onProgress?.({ phase: 'read back', file, done: ++read, total: read }));
    const { rows } = verified;
    const ids = rows.map((r) => r.id);
    const pruned = await prisma.$transaction(
      async (tx) => {
        await tx.$executeRawUnsafe(`CREATE TEMP TABLE ops_job_run_restored (${COLUMNS}) ON COMMIT DROP`);
        await loadInto(tx, 'ops_job_run_restored', rows, '', (done) => opts.onProgress?.({ phase: 'compare and prune', file, done, total: rows.length * 2 }));
        await tx.$queryRawUnsafe(`SELECT id FROM ops_job_run WHERE id = ANY($1::bigint[]) FOR UPDATE`, ids);
        const differing = await mismatchedIds(tx, 'ops_job_run', 'ops_job_run_restored', ids);
        if (differing.length) throw new ArchiveVerificationError(file, [`restored rows differ from the source rows: ids ${differing.join(', ')}`]);
        const deleted = await tx.$executeRawUnsafe(`DELETE FROM ops_job_run WHERE id = ANY($1::bigint[])`, ids);
        if (deleted !== rows.length) throw new ArchiveVerificationError(file, [`deleted ${deleted} rows, archive holds ${rows.length}`]);
        return deleted;
      },
      { timeout: 120_000, maxWait: 30_000 },
    );
    opts.onProgress?.({ phase: 'compare and prune', file, done: rows.length * 2, total: rows.length * 2 });
    logger.info({ file, rows: pruned, compressedSha256: verified.manifest.compressedSha256 }, 'run log archived and pruned');
    return pruned;
  }

  async function archive(opts: { now?: Date; onProgress?: ArchiveProgress } = {}): Promise<ArchiveResult> {
    const now = opts.now ?? new Date();
    const cutoff = new Date(now.getTime() - deps.hotDays * DAY_MS);
    const outcome = await deps.db.withAdvisoryLock(ARCHIVE_LOCK, async () => {
      const files: ArchivedFile[] = [];
      let pruned = 0;
      for (let written = await writeNext({ now, onProgress: opts.onProgress }); written; written = await writeNext({ now, onProgress: opts.onProgress })) {
        try {
          pruned += await verifyAndPrune(written.file, opts);
        } catch (err) {
          logger.error({ err, file: written.file }, 'archive not verified: its rows were kept');
          throw err;
        }
        files.push(written);
      }
      return { cutoff, files, pruned };
    });
    if (!outcome.acquired) throw new Error('another archive run holds the archive lock');
    return outcome.value;
  }

  async function restore(file: string, opts: { onProgress?: ArchiveProgress } = {}): Promise<RestoreResult> {
    let read = 0;
    const { rows } = await readVerifiedArchive(file, () => opts.onProgress?.({ phase: 'read back', file, done: ++read, total: read }));
    const ids = rows.map((r) => r.id);
    return prisma.$transaction(
      async (tx) => {
        const inserted = await loadInto(tx, 'ops_job_run', rows, 'ON CONFLICT DO NOTHING', (done) => opts.onProgress?.({ phase: 'restore', file, done, total: rows.length }));
        await tx.$executeRawUnsafe(`CREATE TEMP TABLE ops_job_run_restored (${COLUMNS}) ON COMMIT DROP`);
        await loadInto(tx, 'ops_job_run_restored', rows, '');
        const differing = await mismatchedIds(tx, 'ops_job_run', 'ops_job_run_restored', ids);
        if (differing.length) throw new ArchiveVerificationError(file, [`ops_job_run holds other rows under the archived ids: ${differing.join(', ')}`]);
        opts.onProgress?.({ phase: 'verify', file, done: rows.length, total: rows.length });
        return { file, rows: rows.length, inserted, alreadyPresent: rows.length - inserted };
      },
      { timeout: 120_000, maxWait: 30_000 },
    );
  }

  return { archiveDir, archive, writeNext, verifyAndPrune, restore };
}
