// npm run indexer:rebuild [-- --apply]
// Recomputes the four leaderboards from the event tables (SQL) and compares them with the live
// tables. No difference: exit 0. Differences: listed, exit 1. --apply replaces the live tables
// with the recomputed ones (needs the indexer stopped: it takes the indexer's leader lock).
import pino from 'pino';
import { loadConfig } from '../src/config';
import { createDb } from '../src/db/client';
import { applyRebuild, diffLeaderboards, type BoardDifference } from '../src/indexer/rebuild';

const MAX_LISTED = 50;
const apply = process.argv.includes('--apply');
const config = loadConfig();
const logger = pino({ level: config.logLevel === 'debug' ? 'debug' : 'warn' });
const db = await createDb({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, logger });

const fmt = (o: Record<string, string> | null) => (o ? Object.entries(o).map(([k, v]) => `${k}=${v}`).join(' ') : '(no row)');

function report(diffs: BoardDifference[]): void {
  const byBoard = new Map<string, BoardDifference[]>();
  for (const d of diffs) byBoard.set(d.board, [...(byBoard.get(d.board) ?? []), d]);
  for (const [board, list] of byBoard) {
    process.stdout.write(`${board}: ${list.length} difference(s)\n`);
    for (const d of list.slice(0, MAX_LISTED)) {
      process.stdout.write(`  ${fmt(d.key)}\n    from events: ${fmt(d.expected)}\n    live table:  ${fmt(d.live)}\n`);
    }
    if (list.length > MAX_LISTED) process.stdout.write(`  … ${list.length - MAX_LISTED} more\n`);
  }
}

let code = 0;
try {
  const diffs = await diffLeaderboards(db);
  if (diffs.length === 0) {
    process.stdout.write('leaderboards match the event tables: no difference\n');
  } else {
    report(diffs);
    if (apply) {
      const { rows } = await applyRebuild(db);
      process.stdout.write(`applied: live leaderboards replaced (${Object.entries(rows).map(([t, n]) => `${t} ${n} rows`).join(', ')})\n`);
      const after = await diffLeaderboards(db);
      code = after.length === 0 ? 0 : 1;
      if (after.length) report(after);
    } else {
      process.stdout.write(`${diffs.length} difference(s); run with --apply to replace the live tables\n`);
      code = 1;
    }
  }
} catch (err) {
  process.stderr.write(`indexer:rebuild failed: ${err instanceof Error ? err.message : String(err)}\n`);
  code = 2;
} finally {
  await db.close();
}
process.exit(code);
