import { performance } from 'node:perf_hooks';
import v8 from 'node:v8';
import vm from 'node:vm';

/** How often the event loop's busy share is sampled. */
export const IDLE_CHECK_MS = 10_000;
/** A sample below this busy share counts as idle (an idle API's own timers use well under 1 %). */
export const IDLE_UTILIZATION = 0.02;

type GcFunction = (options: { type: 'major'; execution: 'sync'; flavor: 'last-resort' }) => void;

/** V8's `gc` (the function `--expose-gc` gives), taken from a fresh context without the flag on the command line; the flag is off again after. */
function v8Gc(): GcFunction {
  v8.setFlagsFromString('--expose-gc');
  try {
    return vm.runInNewContext('gc') as GcFunction;
  } finally {
    v8.setFlagsFromString('--no-expose-gc');
  }
}

/**
 * One full, memory-reducing collection each time the process turns idle after work (a sample of
 * IDLE_CHECK_MS below IDLE_UTILIZATION after one above it, start-up included). V8 shrinks the heap
 * only after a full collection, and an API whose last requests promoted nothing to the old
 * generation made none: its idle RSS stayed 25–35 MiB above what it held (docs/performance.md,
 * issue 47). Idle, so the pause (tens of milliseconds) falls on no request but a rare first one.
 */
export function collectWhenIdle(options: { checkMs?: number; gc?: () => void } = {}): { stop(): void } {
  let collect = options.gc;
  if (!collect) {
    const gc = v8Gc();
    collect = () => gc({ type: 'major', execution: 'sync', flavor: 'last-resort' });
  }
  let last = performance.eventLoopUtilization();
  let worked = true;
  const timer = setInterval(() => {
    const now = performance.eventLoopUtilization();
    const busy = performance.eventLoopUtilization(now, last).utilization;
    last = now;
    if (busy >= IDLE_UTILIZATION) worked = true;
    else if (worked) {
      worked = false;
      collect!();
    }
  }, options.checkMs ?? IDLE_CHECK_MS);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
