import { z } from 'zod';
import { named } from '../model-names';

/** UTC periods: days start 00:00 UTC, weeks Monday 00:00 UTC, a one-off quest has one period. */
export const timePeriod = named('QuestTimePeriod', z.enum(['once', 'daily', 'weekly']));
export type TimePeriod = z.infer<typeof timePeriod>;
const PERIOD_STARTS: Record<TimePeriod, string> = { once: '', daily: ' (00:00 UTC)', weekly: ' (Monday 00:00 UTC)' };
/** `once | daily (00:00 UTC) | weekly (Monday 00:00 UTC)` */
export const TIME_PERIODS_TEXT = timePeriod.options.map((p) => `${p}${PERIOD_STARTS[p]}`).join(' | ');
