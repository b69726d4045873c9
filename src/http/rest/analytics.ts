import type { FastifyInstance } from 'fastify';
import { requestSignal } from '../../graphql/context';
import type { Services } from '../../services';
import { BOARDS, MAX_LEADERBOARD_LIMIT, type Board } from '../../services/leaderboards';
import { COMMON_ERRORS, errorResponses } from './responses';

interface BoardParams {
  board: Board;
}
interface BoardQuery {
  limit?: number;
  coinType?: string;
  week?: string;
}

const boardParams = { type: 'object', required: ['board'], properties: { board: { type: 'string', enum: [...BOARDS] } } } as const;
const boardQuery = {
  type: 'object',
  additionalProperties: false,
  properties: {
    limit: { type: 'integer', minimum: 1, maximum: MAX_LEADERBOARD_LIMIT, description: `Rows to return (default 10, at most ${MAX_LEADERBOARD_LIMIT}).` },
    coinType: { type: 'string', minLength: 1, maxLength: 200, description: 'Move coin type for the bet boards (default 0x2::sui::SUI); ignored by xp.' },
    week: { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: 'weekly_bet only: a date inside the UTC week (Monday start); default this week.' },
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
  },
} as const;

const readErrors = errorResponses(['VALIDATION_FAILED', 'SERVICE_UNAVAILABLE', ...COMMON_ERRORS]);

/** Leaderboards and cache statistics, served under both /api/analytics and /api/stats. */
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
              properties: { board: { type: 'string', enum: [...BOARDS] }, entries: { type: 'array', items: { $ref: `${LEADERBOARD_ENTRY_ID}#` } } },
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
    app.get<{ Params: BoardParams & { player: string }; Querystring: Omit<BoardQuery, 'limit'> }>(
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
                board: { type: 'string', enum: [...BOARDS] },
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
  app.get(
    '/stats/cache',
    {
      schema: {
        tags: ['leaderboards'],
        summary: "This process's leaderboard cache counters",
        response: {
          200: {
            type: 'object',
            required: ['leaderboards'],
            properties: {
              leaderboards: {
                type: 'object',
                required: ['hits', 'misses', 'entries'],
                properties: { hits: { type: 'integer' }, misses: { type: 'integer' }, entries: { type: 'integer' } },
              },
            },
          },
          ...errorResponses(COMMON_ERRORS),
        },
      },
    },
    async () => ({ leaderboards: services.leaderboards.cacheStats() }),
  );
}
