// Capacity of the mix, measured briefly before the soak: the open-loop rate is raised step by step
// (×1.4 every few seconds) until a step has an error, sheds starts at the in-flight cap, falls
// short of its rate, or its p99 blows up (over 4× the best step's so far and over 100 ms: the first
// step's is no reference, its p99 holds the processes' first requests). The capacity is the last
// good step's rate.
import type { Pacer } from './pacer';
import type { Recorder } from './recorder';

export interface CapacityStep {
  rate: number;
  achieved: number;
  p99Ms: number;
  errors: number;
  good: boolean;
}

const FIRST_RATE = 50;
const FACTOR = 1.4;
const MAX_STEPS = 12;

/** Whole-mix p99 of a window: the worst operation's p99, chat deliveries excepted (paced apart). */
const worstP99 = (stats: ReturnType<Recorder['cut']>) => Math.max(0, ...[...stats].filter(([op]) => !op.startsWith('chat.')).map(([, s]) => s.p99Ms));

export async function measureCapacity(pacer: Pacer, recorder: Recorder, opts: { stepMs: number; log: (line: string) => void }): Promise<{ capacity: number; steps: CapacityStep[] }> {
  const steps: CapacityStep[] = [];
  let rate = FIRST_RATE;
  let capacity = 0;
  for (let i = 0; i < MAX_STEPS; i++, rate = Math.round(rate * FACTOR)) {
    recorder.cut();
    pacer.take();
    pacer.setRate(rate);
    await new Promise((r) => setTimeout(r, opts.stepMs));
    const { started, skipped } = pacer.take();
    const stats = recorder.cut();
    const errors = [...stats.values()].reduce((n, s) => n + s.errors, 0);
    const p99Ms = worstP99(stats);
    const achieved = started / (opts.stepMs / 1000);
    const best = Math.min(...steps.map((s) => s.p99Ms));
    const good = errors === 0 && skipped === 0 && achieved >= 0.9 * rate && (steps.length === 0 || p99Ms <= Math.max(100, 4 * best));
    steps.push({ rate, achieved, p99Ms, errors, good });
    opts.log(`  capacity step ${String(rate).padStart(5)}/s: started ${achieved.toFixed(0)}/s, worst p99 ${p99Ms.toFixed(1)} ms, errors ${errors}, shed ${skipped}${good ? '' : '  ← over'}${errors ? ` (${recorder.errorSamples().join(' | ')})` : ''}`);
    if (!good) break;
    capacity = rate;
  }
  pacer.setRate(0);
  return { capacity, steps };
}
