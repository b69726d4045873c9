import { z } from 'zod';

/** The caches the operator's clear empties: the live active-user count and the leaderboard reads. */
export const analyticsCache = z.enum(['liveActives', 'leaderboards']);
export type AnalyticsCache = z.infer<typeof analyticsCache>;
