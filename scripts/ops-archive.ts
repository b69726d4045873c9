// npm run ops:archive            archives ops_job_run rows older than JOBS.RUN_HOT_DAYS (default 14)
//                                into JOBS.ARCHIVE_DIR (default $DATA_DIR/archive/ops-job-run), verifies
//                                each file and only then prunes its rows (src/services/system/job-run-archive.ts)
// npm run ops:restore FILE       restores an archive into ops_job_run (rows already present are kept)
//                                and verifies the table holds every archived row
// A progress bar on a TTY, plain lines otherwise. Exit 0: done; 1: an archive failed verification
// (nothing of it pruned or restored); 2: any other failure.
import { SingleBar, Presets } from 'cli-progress';
import pino from 'pino';
import { loadConfig } from '../src/config';
import { createDb } from '../src/db/client';
import { ArchiveVerificationError, createJobRunArchiveService, readVerifiedArchive, type ArchiveProgress } from '../src/services/system';

const [mode, file] = process.argv[2] === 'restore' ? (['restore', process.argv[3]] as const) : (['archive', undefined] as const);
if (mode === 'restore' && !file) {
  process.stderr.write('usage: npm run ops:restore FILE\n');
  process.exit(2);
}
/** A damaged archive is refused before the database is opened at all (the restore verifies it again). */
async function refuseIfDamaged(path: string): Promise<void> {
  try {
    await readVerifiedArchive(path);
  } catch (err) {
    const problems = err instanceof ArchiveVerificationError ? err.problems : [err instanceof Error ? err.message : String(err)];
    process.stderr.write(`ops:restore: ${path} failed verification; nothing of it was restored:\n${problems.map((p) => `  - ${p}\n`).join('')}`);
    process.exit(1);
  }
}
if (mode === 'restore' && file) await refuseIfDamaged(file);
const config = loadConfig();
const logger = pino({ level: config.logLevel === 'debug' ? 'debug' : 'warn' });
const db = await createDb({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, logger });
const archive = createJobRunArchiveService({ db, logger, archiveDir: config.jobs.archiveDir, hotDays: config.jobs.runHotDays });

/** A bar per phase on a terminal; elsewhere one line when a phase starts and when it ends. */
function progressReporter(): { onProgress: ArchiveProgress; stop(): void } {
  let current: { key: string; bar?: SingleBar; total: number; done: number } | null = null;
  const tty = process.stdout.isTTY === true;
  const end = () => {
    if (!current) return;
    if (current.bar) current.bar.stop();
    else process.stdout.write(`  ${current.key}: ${current.done} rows\n`);
    current = null;
  };
  return {
    onProgress({ phase, file: at, done, total }) {
      const key = `${phase} ${at}`;
      if (current?.key !== key) {
        end();
        current = { key, total, done: 0 };
        if (tty) {
          current.bar = new SingleBar({ format: `${phase.padEnd(17)} {bar} {value}/{total} rows`, hideCursor: true }, Presets.shades_classic);
          current.bar.start(total, 0);
        } else process.stdout.write(`${key}\n`);
      }
      current.done = done;
      if (current.bar) {
        if (total !== current.total) current.bar.setTotal((current.total = total));
        current.bar.update(done);
      }
    },
    stop: end,
  };
}

let code = 0;
const progress = progressReporter();
try {
  if (mode === 'restore' && file) {
    const result = await archive.restore(file, { onProgress: progress.onProgress });
    progress.stop();
    process.stdout.write(`restored ${result.file}: ${result.rows} rows verified (${result.inserted} inserted, ${result.alreadyPresent} already present)\n`);
  } else {
    const result = await archive.archive({ onProgress: progress.onProgress });
    progress.stop();
    for (const f of result.files) process.stdout.write(`archived ${f.rows} rows to ${f.file}\n  file sha256 ${f.compressedSha256}\n  content sha256 ${f.contentSha256}\n  manifest ${f.manifest}\n`);
    process.stdout.write(`${result.pruned} rows started before ${result.cutoff.toISOString()} archived, verified and pruned (${result.files.length} file(s))\n`);
  }
} catch (err) {
  progress.stop();
  if (err instanceof ArchiveVerificationError) {
    process.stderr.write(`ops:${mode}: ${err.file} failed verification; nothing of it was ${mode === 'restore' ? 'restored' : 'pruned'}:\n${err.problems.map((p) => `  - ${p}\n`).join('')}`);
    code = 1;
  } else {
    process.stderr.write(`ops:${mode} failed: ${err instanceof Error ? err.message : String(err)}\n`);
    code = 2;
  }
} finally {
  await db.close();
}
process.exit(code);
