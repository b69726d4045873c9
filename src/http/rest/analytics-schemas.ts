import { BIG_WIN_DEFAULT_MULTIPLIER, FEED_MAX_LIMIT } from '../../services/analytics';

/** JSON schemas of the analytics routes (src/http/rest/analytics.ts); the service's zod rules judge the values. */

const BET_ACTIVITY_ID = 'BetActivity';

export const betActivitySchema = {
  $id: BET_ACTIVITY_ID,
  type: 'object',
  required: ['cursor', 'txDigest', 'eventSeq', 'timestamp', 'player', 'gameId', 'coinType', 'stake', 'payout', 'won'],
  properties: {
    cursor: { type: 'string', description: "This row's position; pass it as `cursor` to read the rows after it" },
    txDigest: { type: 'string' },
    eventSeq: { type: 'integer' },
    timestamp: { type: 'string', format: 'date-time', description: "The checkpoint's time" },
    player: { type: 'string', description: 'Sui address' },
    gameId: { type: 'string' },
    coinType: { type: 'string', description: 'Move coin type, normalized long form' },
    stake: { type: 'string', pattern: '^\\d+$', description: 'u64 base units as a decimal string' },
    payout: { type: 'string', pattern: '^\\d+$', description: 'u64 base units as a decimal string' },
    won: { type: 'boolean' },
  },
} as const;

export const betPageSchema = {
  type: 'object',
  required: ['items', 'nextCursor'],
  properties: {
    items: { type: 'array', items: { $ref: `${BET_ACTIVITY_ID}#` } },
    nextCursor: { type: ['string', 'null'], description: 'null on the last page' },
  },
} as const;

const limit = { type: 'integer', minimum: 1, maximum: FEED_MAX_LIMIT, description: `Rows per page (default 20, at most ${FEED_MAX_LIMIT})` } as const;
const cursor = { type: 'string', maxLength: 64, description: "The last row's `cursor` (or the page's `nextCursor`) of the previous page" } as const;
const coinType = { type: 'string', minLength: 1, maxLength: 200, description: 'Only bets in this Move coin type' } as const;

export const recentBetsQuery = {
  type: 'object',
  additionalProperties: false,
  properties: { limit, cursor, coinType, player: { type: 'string', maxLength: 66, description: "Only this player's bets (Sui address)" } },
} as const;

export const bigWinsQuery = {
  type: 'object',
  additionalProperties: false,
  properties: {
    limit,
    cursor,
    coinType,
    minMultiplier: { type: 'number', minimum: 1, maximum: 1_000_000, description: `Payout at least this many times the stake (default ${BIG_WIN_DEFAULT_MULTIPLIER})` },
  },
} as const;

export const liveActivesSchema = {
  type: 'object',
  required: ['activeUsers', 'fetchedAt', 'ageSeconds'],
  properties: {
    activeUsers: { type: 'integer', minimum: 0, description: "Users active in the last 30 minutes (the analytics property's realtime report)" },
    fetchedAt: { type: 'string', format: 'date-time', description: 'When the analytics service was asked (answers are cached 30 s)' },
    ageSeconds: { type: 'integer', minimum: 0 },
  },
} as const;

const counters = (extra: Record<string, unknown>, required: string[]) =>
  ({ type: 'object', required: ['hits', 'misses', ...required], properties: { hits: { type: 'integer' }, misses: { type: 'integer' }, ...extra } }) as const;

export const cacheStatsSchema = {
  type: 'object',
  required: ['leaderboards', 'liveActives'],
  properties: {
    leaderboards: counters({ entries: { type: 'integer' } }, ['entries']),
    liveActives: counters({ cached: { type: 'boolean' }, ttlMs: { type: 'integer' } }, ['cached', 'ttlMs']),
  },
} as const;
