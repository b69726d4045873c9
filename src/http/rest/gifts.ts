import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ErrorCode } from '../../errors';
import type { Services } from '../../services';
import { giftQuery, type GiftClient } from '../../services/gifts';
import { documentedBody, judgedByService } from './input-schema';
import { COMMON_ERRORS, errorResponses } from './responses';

type Req = FastifyRequest<{ Querystring: Record<string, unknown> }>;
const clientOf = (request: FastifyRequest): GiftClient => ({ ip: request.ip, wallet: request.auth?.wallet ?? null });

const counter = {
  type: 'object',
  required: ['limit', 'delivered', 'remaining'],
  properties: { limit: { type: 'integer' }, delivered: { type: 'integer' }, remaining: { type: 'integer' } },
} as const;
const CLAIM_ERRORS: readonly ErrorCode[] = ['VALIDATION_FAILED', 'TOKEN_INVALID', 'TOKEN_EXPIRED', 'PROXY_DETECTED', 'GIFT_UNAVAILABLE', 'GIFT_QUOTA_EXCEEDED', ...COMMON_ERRORS];

/** Gift URLs from the stash (src/services/gifts/service.ts); the query is judged by the service. */
export async function giftRoutes(app: FastifyInstance, services: Services): Promise<void> {
  const query = documentedBody(giftQuery);

  app.get(
    '/gift/get',
    {
      ...judgedByService,
      schema: {
        tags: ['gifts'],
        operationId: 'giftGet',
        summary: "One gift URL of the project, within its delivery window and under the project's and the IP's daily quotas",
        description:
          'The client IP is checked with the anti-proxy service first (a proxy/VPN verdict answers 403 PROXY_DETECTED; when the service fails or takes over 1.5 s the gift is served without it). Spent quotas answer 429 GIFT_QUOTA_EXCEEDED (`details.scope`: project or ip); no open window or an empty stash 409 GIFT_UNAVAILABLE (`details.reason`). Counters reset nightly (JOBS.GIFT_RESET_CRON).',
        querystring: query,
        response: {
          200: {
            type: 'object',
            required: ['project', 'url', 'deliveredAt'],
            properties: { project: { type: 'string' }, url: { type: 'string' }, deliveredAt: { type: 'string', format: 'date-time' } },
          },
          ...errorResponses(CLAIM_ERRORS),
        },
      },
    },
    async (request: Req, reply) => {
      const delivery = await services.gifts.claim(request.query, clientOf(request));
      reply.header('cache-control', 'no-store');
      return delivery;
    },
  );

  app.get(
    '/gift/remaining',
    {
      ...judgedByService,
      schema: {
        tags: ['gifts'],
        operationId: 'giftRemaining',
        summary: "Today's remaining gifts of the project and of the calling IP",
        querystring: query,
        response: {
          200: {
            type: 'object',
            required: ['project', 'window', 'projectQuota', 'ipQuota'],
            properties: {
              project: { type: 'string' },
              window: {
                type: ['object', 'null'],
                required: ['startsAt', 'endsAt'],
                properties: { startsAt: { type: 'string', format: 'date-time' }, endsAt: { type: 'string', format: 'date-time' } },
                description: 'The delivery window open now; null when none is',
              },
              projectQuota: counter,
              ipQuota: counter,
            },
          },
          ...errorResponses(['VALIDATION_FAILED', 'TOKEN_INVALID', 'TOKEN_EXPIRED', ...COMMON_ERRORS]),
        },
      },
    },
    async (request: Req, reply) => {
      reply.header('cache-control', 'no-store');
      return services.gifts.remaining(request.query, clientOf(request));
    },
  );
}
