// npm run quests:rebuild [-- --apply]
// Recomputes quest progress from the event tables and compares it with `quest_progress` (kept by
// the indexer's post-commit step). No difference: exit 0. Differences: listed, exit 1. --apply
// replaces the stored progress with the recomputed one in one transaction (safe while the indexer
// runs: both compute from committed events), then bumps `questProgress` on the shared store, so every
// replica's cached quest statuses drop at once (on the per-process store: within 10 s).
import pino from 'pino';
import { loadConfig } from '../src/config';
import { createDb } from '../src/db/client';
import { createReadCacheService } from '../src/services/read-cache';
import { createSharedStore } from '../src/store';
import { applyProgressRebuild, diffProgress, loadCatalogue, type ProgressDifference } from '../src/services/quests';

const MAX_LISTED = 50;
const apply = process.argv.includes('--apply');
const config = loadConfig();
const logger = pino({ level: config.logLevel === 'debug' ? 'debug' : 'warn' });
const db = await createDb({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, logger });

const fmt = (v: { progress: string; target: string } | null) => (v ? `${v.progress}/${v.target}` : '(no row)');

/** Every replica drops its cached quest statuses (the running processes' own writes announce the same way). */
async function announceRebuilt(): Promise<string> {
  if (config.store.cacheStore !== 'redis') return 'running processes read the new progress within 10 s (no shared store to announce it on)';
  const store = await createSharedStore({ ...config.store, logger });
  try {
    await (await createReadCacheService({ store, logger })).bump('questProgress');
    return 'announced on the shared store: every replica reads the new progress at once';
  } finally {
    await store.close();
  }
}

function report(diffs: ProgressDifference[]): void {
  for (const d of diffs.slice(0, MAX_LISTED)) {
    process.stdout.write(`  ${d.campaignSlug}/${d.questKey} ${d.player} ${d.periodStart}: from events ${fmt(d.expected)}, stored ${fmt(d.stored)}\n`);
  }
  if (diffs.length > MAX_LISTED) process.stdout.write(`  … ${diffs.length - MAX_LISTED} more\n`);
}

let code = 0;
try {
  // The quests as stored (the operators' definitions), not the default catalogue.
  const catalogue = await loadCatalogue(db, logger);
  const diffs = await diffProgress(db, catalogue);
  if (diffs.length === 0) {
    process.stdout.write('quest progress matches the event tables: no difference\n');
  } else {
    process.stdout.write(`quest_progress: ${diffs.length} difference(s)\n`);
    report(diffs);
    if (apply) {
      const written = await applyProgressRebuild(db, catalogue);
      const after = await diffProgress(db, catalogue);
      process.stdout.write(`applied: ${written} progress row(s) written; ${after.length} difference(s) left\n`);
      process.stdout.write(`${await announceRebuilt()}\n`);
      if (after.length) report(after);
      code = after.length === 0 ? 0 : 1;
    } else {
      process.stdout.write('run with --apply to replace the stored progress\n');
      code = 1;
    }
  }
} catch (err) {
  process.stderr.write(`quests:rebuild failed: ${err instanceof Error ? err.message : String(err)}\n`);
  code = 2;
} finally {
  await db.close();
}
process.exit(code);
