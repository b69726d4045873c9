import type { FastifyInstance } from 'fastify';
import { requestSignal } from '../timeout';
import type { Services } from '../../services';
import { analyticsCache } from '../../services/analytics';
import { leaderboardBoard, MAX_LEADERBOARD_LIMIT, type Board } from '../../services/leaderboards';
import { betActivitySchema, betPageSchema, bigWinsQuery, cacheStatsSchema, liveActivesSchema, recentBetsQuery } from './analytics-schemas';
import { judgedByService, modelSchema } from './input-schema';
import { COMMON_ERRORS, errorResponses } from './responses';
import { adminActor } from './admin';

interface BoardParams {
  board: Board;
}
interface BoardQuery {
  limit?: number;
  coinType?: string;
  week?: string;
  after?: string;
}

const boardParams = { type: 'object', required: ['board'], properties: { board: modelSchema(leaderboardBoard) } } as const;
const boardQuery = {
  type: 'object',
  additionalProperties: false,
  properties: {
    limit: { type: 'integer', minimum: 1, maximum: MAX_LEADERBOARD_LIMIT, description: `Rows to return (default 10, at most ${MAX_LEADERBOARD_LIMIT}).` },
    coinType: { type: 'string', minLength: 1, maxLength: 200, description: 'Move coin type for the bet boards (default 0x2::sui::SUI); ignored by xp.' },
    week: { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: 'weekly_bet only: a date inside the UTC week (Monday start); default this week.' },
    after: { type: 'string', minLength: 1, maxLength: 400, description: 'The `cursor` of the last entry read: the next page starts after it (same board, coin and week).' },
  },
} as const;

const LEADERBOARD_ENTRY_ID = 'LeaderboardEntry';
const leaderboardEntrySchema = {
  $id: LEADERBOARD_ENTRY_ID,
  type: 'object',
  required: ['rank', 'player', 'score', 'count', 'coinType', 'vipLevel'],
  properties: {
    rank: { type: 'integer', minimum: 1 },
    player: { type: 'string', description: 'Sui address' },
    score: { type: 'string', pattern: '^\\d+$', description: 'u64 base units as a decimal string (XP, wagered amount or referral rewards)' },
    count: { type: ['integer', 'null'], description: 'Bets placed or referrals made; null for xp' },
    coinType: { type: ['string', 'null'] },
    vipLevel: { type: ['integer', 'null'] },
    cursor: { type: 'string', description: 'Pass as `after` for the entries that follow this one' },
  },
} as const;

const readErrors = errorResponses(['VALIDATION_FAILED', 'SERVICE_UNAVAILABLE', ...COMMON_ERRORS]);

/** Leaderboards, live actives and activity feeds under both /api/analytics and /api/stats; operator cache routes under /api/stats. */
export async function analyticsRoutes(app: FastifyInstance, services: Services): Promise<void> {
  app.addSchema(leaderboardEntrySchema);
  for (const prefix of ['/analytics', '/stats'] as const) {
    const alias = prefix === '/stats' ? ' (alias of /api/analytics/…)' : '';
    const id = prefix.slice(1);
    app.get<{ Params: BoardParams; Querystring: BoardQuery }>(
      `${prefix}/leaderboards/:board`,
      {
        schema: {
          tags: ['leaderboards'],
          operationId: `${id}LeaderboardTop`,
          summary: `Top of a leaderboard${alias}`,
          params: boardParams,
          querystring: boardQuery,
          response: {
            200: {
              type: 'object',
              required: ['board', 'entries'],
              properties: { board: modelSchema(leaderboardBoard), entries: { type: 'array', items: { $ref: `${LEADERBOARD_ENTRY_ID}#` } } },
            },
            ...readErrors,
          },
        },
      },
      async (request) => ({
        board: request.params.board,
        entries: await services.leaderboards.top({ board: request.params.board, ...request.query }, { signal: requestSignal(request) }),
      }),
    );
    app.get<{ Params: BoardParams & { player: string }; Querystring: Omit<BoardQuery, 'limit' | 'after'> }>(
      `${prefix}/leaderboards/:board/players/:player`,
      {
        schema: {
          tags: ['leaderboards'],
          operationId: `${id}LeaderboardPlayer`,
          summary: `One player's rank on a leaderboard${alias}`,
          params: { ...boardParams, required: ['board', 'player'], properties: { ...boardParams.properties, player: { type: 'string', minLength: 1, maxLength: 100 } } },
          querystring: { ...boardQuery, properties: { coinType: boardQuery.properties.coinType, week: boardQuery.properties.week } },
          response: {
            200: {
              type: 'object',
              required: ['board', 'entry'],
              properties: {
                board: modelSchema(leaderboardBoard),
                entry: { anyOf: [{ $ref: `${LEADERBOARD_ENTRY_ID}#` }, { type: 'null' }], description: 'null when the player has no row on this board' },
              },
            },
            ...readErrors,
          },
        },
      },
      async (request) => {
        const { player, board } = request.params;
        return { board, entry: await services.leaderboards.rankOf({ board, player, ...request.query }, { signal: requestSignal(request) }) };
      },
    );
  }
  await analyticsFeedRoutes(app, services);
}

interface FeedQuery {
  limit?: number;
  cursor?: string;
  coinType?: string;
  player?: string;
  minMultiplier?: number;
}

/**
 * Live actives and the game activity feeds (under /api/analytics and /api/stats), and the
 * operator-only cache statistics and clear (`Authorization: Bearer <OPERATOR_TOKEN>`).
 */
async function analyticsFeedRoutes(app: FastifyInstance, services: Services): Promise<void> {
  app.addSchema(betActivitySchema);
  const { analytics } = services;
  for (const prefix of ['/analytics', '/stats'] as const) {
    const alias = prefix === '/stats' ? ' (alias of /api/analytics/…)' : '';
    const id = prefix.slice(1);
    app.get(
      `${prefix}/live-actives`,
      {
        schema: {
          tags: ['analytics'],
          operationId: `${id}LiveActives`,
          summary: `Users active in the last 30 minutes, cached 30 s${alias}`,
          response: { 200: liveActivesSchema, ...errorResponses(['SERVICE_UNAVAILABLE', 'UPSTREAM_UNAVAILABLE', ...COMMON_ERRORS]) },
        },
      },
      async (request) => analytics.liveActives({ signal: requestSignal(request) }),
    );
    app.get<{ Querystring: FeedQuery }>(
      `${prefix}/activity/recent-bets`,
      {
        schema: {
          tags: ['analytics'],
          operationId: `${id}RecentBets`,
          summary: `Newest indexed bets first, paged by cursor${alias}`,
          querystring: recentBetsQuery,
          response: { 200: betPageSchema, ...readErrors },
        },
      },
      async (request) => analytics.recentBets(request.query, { signal: requestSignal(request) }),
    );
    app.get<{ Querystring: FeedQuery }>(
      `${prefix}/activity/big-wins`,
      {
        schema: {
          tags: ['analytics'],
          operationId: `${id}BigWins`,
          summary: `Newest won bets paying at least minMultiplier × stake, paged by cursor${alias}`,
          querystring: bigWinsQuery,
          response: { 200: betPageSchema, ...readErrors },
        },
      },
      async (request) => analytics.bigWins(request.query, { signal: requestSignal(request) }),
    );
  }

  // An operator wallet's access token or OPERATOR_TOKEN, as on every /api/admin route.
  const operatorOnly = { config: { access: 'operator' } } as const;
  const operatorErrors = errorResponses(['UNAUTHENTICATED', 'TOKEN_INVALID', 'TOKEN_EXPIRED', 'FORBIDDEN', ...COMMON_ERRORS]);
  app.get(
    '/stats/cache',
    {
      ...operatorOnly,
      schema: {
        tags: ['operator'],
        operationId: 'statsCache',
        summary: "Cache counters of this process (leaderboards) and the shared live-actives entry (operator token)",
        security: [{ bearerAuth: [] }, { operatorToken: [] }],
        response: { 200: cacheStatsSchema, ...operatorErrors },
      },
    },
    async () => analytics.cacheStats(),
  );
  app.post(
    '/stats/cache/clear',
    {
      ...operatorOnly,
      ...judgedByService,
      schema: {
        tags: ['operator'],
        operationId: 'statsCacheClear',
        summary: "Drop the live-actives entry and every replica's leaderboard cache (operator token)",
        security: [{ bearerAuth: [] }, { operatorToken: [] }],
        body: { type: 'object', additionalProperties: false, properties: {}, description: 'Empty (or no body)' },
        response: {
          200: { type: 'object', required: ['cleared'], properties: { cleared: { type: 'array', items: modelSchema(analyticsCache) } } },
          ...operatorErrors,
        },
      },
    },
    async (request) => {
      const { actor, requestId } = adminActor(request);
      return analytics.clearCaches(actor, requestId);
    },
  );
}
