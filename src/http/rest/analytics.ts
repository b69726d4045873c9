import type { FastifyInstance } from 'fastify';
import type { Services } from '../../services';
import { BOARDS, MAX_LEADERBOARD_LIMIT, type Board } from '../../services/leaderboards';

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
    limit: { type: 'integer', minimum: 1, maximum: MAX_LEADERBOARD_LIMIT },
    coinType: { type: 'string', minLength: 1, maxLength: 200 },
    week: { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$' },
  },
} as const;

/** Leaderboards and cache statistics, served under both /api/analytics and /api/stats. */
export async function analyticsRoutes(app: FastifyInstance, services: Services): Promise<void> {
  for (const prefix of ['/analytics', '/stats']) {
    app.get<{ Params: BoardParams; Querystring: BoardQuery }>(`${prefix}/leaderboards/:board`, { schema: { params: boardParams, querystring: boardQuery } }, async (request) => ({
      board: request.params.board,
      entries: await services.leaderboards.top({ board: request.params.board, ...request.query }),
    }));
    app.get<{ Params: BoardParams & { player: string }; Querystring: Omit<BoardQuery, 'limit'> }>(
      `${prefix}/leaderboards/:board/players/:player`,
      {
        schema: {
          params: { ...boardParams, required: ['board', 'player'], properties: { ...boardParams.properties, player: { type: 'string', minLength: 1, maxLength: 100 } } },
          querystring: { ...boardQuery, properties: { coinType: boardQuery.properties.coinType, week: boardQuery.properties.week } },
        },
      },
      async (request) => {
        const { player, board } = request.params;
        return { board, entry: await services.leaderboards.rankOf({ board, player, ...request.query }) };
      },
    );
  }
  app.get('/stats/cache', async () => ({ leaderboards: services.leaderboards.cacheStats() }));
}
