import type { FastifyInstance } from 'fastify';
import type { ErrorCode } from '../../errors';
import type { Services } from '../../services';
import { payoutStatus } from '../../services/welcome-wheel';
import { walletOf } from '../../edge/authorize';
import { judgedByService, modelSchema } from './input-schema';
import { COMMON_ERRORS, errorResponses } from './responses';

const SPIN_ID = 'WelcomeWheelSpin';

const spinSchema = {
  $id: SPIN_ID,
  type: 'object',
  required: ['wallet', 'segment', 'reward', 'payout', 'spunAt'],
  properties: {
    wallet: { type: 'string', description: 'Sui address' },
    segment: { type: 'integer', minimum: 0, description: 'Index into the table of GET /api/welcome-wheel' },
    reward: { type: 'integer', minimum: 0, description: 'Whole reward units, never above maxReward' },
    payout: {
      type: 'object',
      required: ['status', 'txDigest'],
      properties: {
        status: modelSchema(payoutStatus, {
          description: 'pending (not sent yet, or waiting for its next attempt) → submitted → confirmed (txDigest) | failed; cancelled by an operator. `paid` is no longer answered.',
        }),
        txDigest: { type: ['string', 'null'], description: 'The payout transaction, once it executed' },
        attempts: { type: 'integer', minimum: 0, description: 'Attempts so far (transient failures are retried automatically)' },
        nextAttemptAt: { type: ['string', 'null'], format: 'date-time', description: 'When a payout waiting after a transient failure is tried again' },
      },
    },
    spunAt: { type: 'string', format: 'date-time' },
  },
} as const;

const AUTHENTICATED: readonly ErrorCode[] = ['UNAUTHENTICATED', 'TOKEN_INVALID', 'TOKEN_EXPIRED', ...COMMON_ERRORS];

/** The welcome wheel: its table (public), the caller's spin, and the one spin per wallet. */
export async function welcomeWheelRoutes(app: FastifyInstance, services: Services): Promise<void> {
  app.addSchema(spinSchema);
  const { welcomeWheel } = services;

  app.get(
    '/welcome-wheel',
    {
      schema: {
        tags: ['welcome-wheel'],
        operationId: 'welcomeWheelTable',
        summary: 'The reward table: each segment as it pays (capped at maxReward) and its chance',
        response: {
          200: {
            type: 'object',
            required: ['maxReward', 'segments'],
            properties: {
              maxReward: { type: 'integer' },
              segments: {
                type: 'array',
                items: { type: 'object', required: ['reward', 'chancePercent'], properties: { reward: { type: 'integer' }, chancePercent: { type: 'number' } } },
              },
            },
          },
          ...errorResponses(['TOKEN_INVALID', 'TOKEN_EXPIRED', ...COMMON_ERRORS]),
        },
      },
    },
    async () => welcomeWheel.table(),
  );

  app.get(
    '/welcome-wheel/me',
    {
      config: { access: 'wallet' },
      schema: {
        tags: ['welcome-wheel'],
        operationId: 'welcomeWheelMine',
        summary: "The caller's spin, or null before it spun",
        response: {
          200: { type: 'object', required: ['spin'], properties: { spin: { anyOf: [{ $ref: `${SPIN_ID}#` }, { type: 'null' }] } } },
          ...errorResponses(AUTHENTICATED),
        },
      },
    },
    async (request) => ({ spin: await welcomeWheel.spinOf(walletOf(request)) }),
  );

  app.post(
    '/welcome-wheel/spin',
    {
      config: { access: 'wallet' },
      // Nothing in the body is read: the wallet comes from the access token.
      ...judgedByService,
      schema: {
        tags: ['welcome-wheel'],
        operationId: 'welcomeWheelSpin',
        summary: "Spin once per wallet; every later call answers the first spin's result unchanged",
        body: { type: 'object', additionalProperties: false, properties: {}, description: 'Empty (or no body)' },
        response: { 200: { $ref: `${SPIN_ID}#` }, ...errorResponses(AUTHENTICATED) },
      },
    },
    async (request) => welcomeWheel.spin(walletOf(request)),
  );
}
