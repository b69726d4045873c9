import type { Logger } from 'pino';
import type { IndexerStatus } from '../chain-events/indexer-status.js';

export interface ProgressStream {
  isTTY?: boolean;
  columns?: number;
  write(chunk: string): boolean;
}

export interface ProgressOptions {
  /** Where the bar goes (process.stdout in the composition root). */
  stream: ProgressStream;
  logger: Logger;
  snapshot(): IndexerStatus;
  /** Bar refresh in a terminal (and mode check otherwise). Default 250 ms. */
  ttyIntervalMs?: number;
  /** Log line period when not a terminal. Default 5 000 ms. */
  logIntervalMs?: number;
}

const formatDuration = (s: number): string => {
  if (!Number.isFinite(s)) return '?';
  const sec = Math.round(s);
  if (sec < 60) return `${sec}s`;
  if (sec < 3600) return `${Math.floor(sec / 60)}m${String(sec % 60).padStart(2, '0')}s`;
  return `${Math.floor(sec / 3600)}h${String(Math.floor((sec % 3600) / 60)).padStart(2, '0')}m`;
};

/** One terminal line: bar and ETA when the chain tip is known, else the rate only. */
export function renderProgressLine(s: IndexerStatus, width = 80): string {
  const indexed = s.kinds.reduce((n, k) => n + k.eventsIndexed, 0);
  const rate = `${Math.round(s.eventsPerSecond).toLocaleString('en-US')} ev/s`;
  const count = `${indexed.toLocaleString('en-US')} events`;
  const done = s.kinds.filter((k) => k.caughtUp).length;
  const kinds = `${done}/${s.kinds.length} at tip`;
  if (s.progress === null) return `indexer backfill  ${count}  ${rate}  ${kinds}`.slice(0, width - 1);
  const pct = `${(s.progress * 100).toFixed(1).padStart(5)}%`;
  const eta = `ETA ${s.etaSeconds === null ? '?' : formatDuration(s.etaSeconds)}`;
  const tail = `${pct}  ${count}  ${rate}  ${eta}  ${kinds}`;
  const barWidth = Math.max(10, Math.min(40, width - tail.length - 4));
  const filled = Math.round(barWidth * s.progress);
  return `[${'#'.repeat(filled)}${'-'.repeat(barWidth - filled)}] ${tail}`.slice(0, width - 1);
}

/**
 * Shows backfill progress: a single redrawn line in a terminal, periodic log lines otherwise.
 * Quiet outside backfill; a finished backfill is reported once.
 */
export function startProgressReporter(options: ProgressOptions): () => void {
  const tty = options.stream.isTTY === true;
  let drawn = false;
  let wasBackfill = false;
  const logEvery = options.logIntervalMs ?? 5_000;
  let loggedAt = 0;
  const tick = () => {
    const s = options.snapshot();
    if (s.mode === 'backfill') {
      wasBackfill = true;
      if (tty) {
        options.stream.write(`\r\x1b[2K${renderProgressLine(s, options.stream.columns ?? 100)}`);
        drawn = true;
      } else if (s.atMs - loggedAt >= logEvery) {
        loggedAt = s.atMs;
        const indexed = s.kinds.reduce((n, k) => n + k.eventsIndexed, 0);
        options.logger.info(
          {
            indexed,
            eventsPerSecond: Math.round(s.eventsPerSecond),
            progress: s.progress === null ? null : Number(s.progress.toFixed(4)),
            etaSeconds: s.etaSeconds === null ? null : Math.round(s.etaSeconds),
            kindsAtTip: s.kinds.filter((k) => k.caughtUp).length,
          },
          'indexer backfill progress',
        );
      }
    } else if (wasBackfill && s.mode === 'live') {
      wasBackfill = false;
      if (drawn) options.stream.write(`\r\x1b[2K${renderProgressLine({ ...s, progress: s.progress === null ? null : 1, etaSeconds: 0 }, options.stream.columns ?? 100)}\n`);
      drawn = false;
      options.logger.info({ indexed: s.kinds.reduce((n, k) => n + k.eventsIndexed, 0) }, 'indexer backfill done: following the tip');
    }
  };
  // Mode changes are checked every tick; log lines are written every logIntervalMs.
  const timer = setInterval(tick, options.ttyIntervalMs ?? 250);
  timer.unref();
  tick();
  return () => {
    clearInterval(timer);
    if (drawn) options.stream.write('\n');
    drawn = false;
  };
}
