import { z } from 'zod';
import { named } from '../model-names';

/** UTC periods: days start 00:00 UTC, weeks Monday 00:00 UTC, a one-off quest has one period. */
export const timePeriod = named('QuestTimePeriod', z.enum(['once', 'daily', 'weekly']));
export type TimePeriod = z.infer<typeof timePeriod>;
const PERIOD_STARTS: Record<TimePeriod, string> = { once: '', daily: ' (00:00 UTC)', weekly: ' (Monday 00:00 UTC)' };
/** `once | daily (00:00 UTC) | weekly (Monday 00:00 UTC)` */
export const TIME_PERIODS_TEXT = timePeriod.options.map((p) => `${p}${PERIOD_STARTS[p]}`).join(' | ');

const DAY_MS = 86_400_000;
/** One-off quests have one period, starting at the epoch. */
const EPOCH = new Date(0);
/** The end of a one-off quest's period (beyond any timestamp we store). */
export const NEVER = new Date('9999-12-31T23:59:59.999Z');

/** The UTC start of the period holding `at`: days start 00:00 UTC, weeks Monday 00:00 UTC. */
export function periodStartOf(period: TimePeriod, at: Date): Date {
  if (period === 'once') return EPOCH;
  const day = Math.floor(at.getTime() / DAY_MS) * DAY_MS;
  if (period === 'daily') return new Date(day);
  const daysSinceMonday = (new Date(day).getUTCDay() + 6) % 7;
  return new Date(day - daysSinceMonday * DAY_MS);
}

/** The exclusive end of the period starting at `start`. */
export function periodEndOf(period: TimePeriod, start: Date): Date {
  if (period === 'once') return NEVER;
  return new Date(start.getTime() + (period === 'daily' ? DAY_MS : 7 * DAY_MS));
}
