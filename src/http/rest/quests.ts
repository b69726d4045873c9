import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ErrorCode } from '../../errors';
import { requestSignal } from '../../graphql/context';
import type { Services } from '../../services';
import { claimBody, MAX_STATUS_CHECKS, QUEST_MODES, statusBatchBody } from '../../services/quests';
import { requireWallet } from '../auth-context';
import { documentedBody, judgedByService } from './input-schema';
import { COMMON_ERRORS, errorResponses } from './responses';

const QUEST_STATUS_ID = 'QuestStatus';
const CAMPAIGN_ID = 'QuestCampaign';

const iso = { type: 'string', format: 'date-time' } as const;
const decimal = { type: 'string', pattern: '^\\d+$' } as const;
const period = { type: 'string', enum: ['once', 'daily', 'weekly'] } as const;
const lifecycle = { type: 'string', enum: ['active', 'upcoming', 'expired', 'inactive'] } as const;

const questStatusSchema = {
  $id: QUEST_STATUS_ID,
  type: 'object',
  required: ['campaignSlug', 'questKey', 'mode', 'player', 'timePeriod', 'periodStart', 'periodEnd', 'lifecycle', 'progress', 'target', 'completed', 'claimed', 'claimedAt', 'claimable', 'reason', 'xpReward'],
  properties: {
    campaignSlug: { type: 'string' },
    questKey: { type: 'string' },
    mode: { type: 'string', enum: [...QUEST_MODES] },
    player: { type: 'string' },
    timePeriod: period,
    periodStart: { ...iso, description: 'UTC start of the current period (days 00:00 UTC, weeks Monday 00:00 UTC, one-off quests the epoch)' },
    periodEnd: { ...iso, description: 'Exclusive end of the period' },
    lifecycle,
    progress: { ...decimal, description: 'Count, base units (wagered) or level, as a decimal string' },
    target: decimal,
    completed: { type: 'boolean' },
    claimed: { type: 'boolean' },
    claimedAt: { type: ['string', 'null'], format: 'date-time' },
    claimable: { type: 'boolean' },
    reason: {
      type: ['string', 'null'],
      enum: ['inactive', 'upcoming', 'expired', 'claimed', 'incomplete', 'managed_by_partner', null],
      description: 'Why the quest cannot be claimed now; null when it can',
    },
    xpReward: { type: 'integer' },
  },
} as const;

const campaignSchema = {
  $id: CAMPAIGN_ID,
  type: 'object',
  required: ['slug', 'type', 'name', 'title', 'description', 'copyText', 'startAt', 'endAt', 'managesClaims', 'quests'],
  properties: {
    slug: { type: 'string' },
    type: { type: 'string' },
    name: { type: ['string', 'null'] },
    title: { type: ['string', 'null'] },
    description: { type: ['string', 'null'] },
    copyText: { type: ['string', 'null'] },
    startAt: iso,
    endAt: iso,
    managesClaims: { type: 'boolean', description: 'true: statuses only; claims are made with the partner (FORBIDDEN here)' },
    quests: {
      type: 'array',
      items: {
        type: 'object',
        required: ['key', 'title', 'description', 'xpReward', 'timePeriod', 'modes', 'target', 'lifecycle', 'performanceDaily', 'startAt', 'endAt', 'periodStart', 'periodEnd'],
        properties: {
          key: { type: 'string' },
          title: { type: 'string' },
          description: { type: 'string' },
          xpReward: { type: 'integer' },
          timePeriod: period,
          modes: { type: 'array', items: { type: 'string', enum: [...QUEST_MODES] } },
          target: decimal,
          lifecycle,
          performanceDaily: { type: 'boolean' },
          startAt: iso,
          endAt: iso,
          periodStart: iso,
          periodEnd: iso,
        },
      },
    },
  },
} as const;

const slugParam = { type: 'string', description: 'Campaign slug (the default catalogue has `platform`)' } as const;
const playerQuery = {
  type: 'object',
  properties: { player: { type: 'string', description: 'Sui address; default: the access token’s wallet' } },
} as const;
const statusReply = { type: 'object', required: ['status'], properties: { status: { $ref: `${QUEST_STATUS_ID}#` } } } as const;
const statusesReply = { type: 'object', required: ['statuses'], properties: { statuses: { type: 'array', items: { $ref: `${QUEST_STATUS_ID}#` } } } } as const;
const READ_ERRORS: readonly ErrorCode[] = ['VALIDATION_FAILED', 'NOT_FOUND', 'TOKEN_INVALID', 'TOKEN_EXPIRED', ...COMMON_ERRORS];
const CLAIM_ERRORS: readonly ErrorCode[] = [
  'UNAUTHENTICATED',
  'TOKEN_INVALID',
  'TOKEN_EXPIRED',
  'VALIDATION_FAILED',
  'NOT_FOUND',
  'FORBIDDEN',
  'DUPLICATE_CLAIM',
  'CLAIM_PERIOD_INVALID',
  'QUEST_INCOMPLETE',
  ...COMMON_ERRORS,
];

type Req<P = Record<string, string>, Q = { player?: string }, B = unknown> = FastifyRequest<{ Params: P; Querystring: Q; Body: B }>;
const viewer = (request: FastifyRequest) => request.auth?.wallet ?? null;

/** Quest catalogue, statuses and claims (src/services/quests/service.ts). Params, query and body are judged by the service alone. */
export async function questRoutes(app: FastifyInstance, services: Services): Promise<void> {
  app.addSchema(questStatusSchema);
  app.addSchema(campaignSchema);
  const { quests } = services;

  app.get(
    '/quests/list',
    {
      ...judgedByService,
      schema: {
        tags: ['quests'],
        operationId: 'questsList',
        summary: 'Campaigns and their quests, with lifecycle and current period',
        response: { 200: { type: 'object', required: ['campaigns'], properties: { campaigns: { type: 'array', items: { $ref: `${CAMPAIGN_ID}#` } } } }, ...errorResponses(COMMON_ERRORS) },
      },
    },
    async (request) => ({ campaigns: await quests.list({ signal: requestSignal(request) }) }),
  );

  app.get(
    '/quests/status',
    {
      ...judgedByService,
      schema: {
        tags: ['quests'],
        operationId: 'questsDefaultStatus',
        summary: "Every quest's status for a player (indexed mode): the default status lookup",
        querystring: playerQuery,
        response: { 200: statusesReply, ...errorResponses(READ_ERRORS) },
      },
    },
    async (request: Req) => ({ statuses: await quests.defaultStatus({ player: request.query.player }, viewer(request), { signal: requestSignal(request) }) }),
  );

  app.get(
    '/quests/campaigns/:slug/performance_daily/status',
    {
      ...judgedByService,
      schema: {
        tags: ['quests'],
        operationId: 'questsPerformanceDailyStatus',
        summary: "Status of the campaign's daily performance quest",
        params: { type: 'object', required: ['slug'], properties: { slug: slugParam } },
        querystring: playerQuery,
        response: { 200: statusReply, ...errorResponses(READ_ERRORS) },
      },
    },
    async (request: Req<{ slug: string }>) => ({
      status: await quests.performanceDaily({ campaignSlug: request.params.slug, player: request.query.player }, viewer(request), { signal: requestSignal(request) }),
    }),
  );

  app.get(
    '/quests/campaigns/:slug/:mode/:questKey/status',
    {
      ...judgedByService,
      schema: {
        tags: ['quests'],
        operationId: 'questsStatus',
        summary: 'Status of one quest',
        description: '`mode`: `indexed` reads the progress kept after each indexer commit (one lookup); `live` recomputes it from the event tables.',
        params: { type: 'object', required: ['slug', 'mode', 'questKey'], properties: { slug: slugParam, mode: { type: 'string', enum: [...QUEST_MODES] }, questKey: { type: 'string' } } },
        querystring: playerQuery,
        response: { 200: statusReply, ...errorResponses(READ_ERRORS) },
      },
    },
    async (request: Req<{ slug: string; mode: string; questKey: string }>) => ({
      status: await quests.status(
        { campaignSlug: request.params.slug, mode: request.params.mode, questKey: request.params.questKey, player: request.query.player },
        viewer(request),
        { signal: requestSignal(request) },
      ),
    }),
  );

  app.post(
    '/quests/campaigns/:slug/status',
    {
      ...judgedByService,
      schema: {
        tags: ['quests'],
        operationId: 'questsBatchStatus',
        summary: `Statuses for a batch of up to ${MAX_STATUS_CHECKS} checks (quest, mode, player)`,
        params: { type: 'object', required: ['slug'], properties: { slug: slugParam } },
        body: documentedBody(statusBatchBody),
        response: { 200: statusesReply, ...errorResponses(READ_ERRORS) },
      },
    },
    async (request: Req<{ slug: string }, unknown, Record<string, unknown> | null>) => ({
      statuses: await quests.statusBatch({ ...(request.body ?? {}), campaignSlug: request.params.slug }, viewer(request), { signal: requestSignal(request) }),
    }),
  );

  app.post(
    '/quests/campaigns/:slug/:questKey/claim',
    {
      ...judgedByService,
      schema: {
        tags: ['quests'],
        operationId: 'questsClaim',
        summary: 'Claim a completed quest for the current period (access token required); credits its XP once',
        description: 'Throttled per wallet (QUESTS.CLAIM_RATE_LIMIT_MAX per QUESTS.CLAIM_RATE_LIMIT_WINDOW_MS, default 10 per minute) on top of admission.',
        params: { type: 'object', required: ['slug', 'questKey'], properties: { slug: slugParam, questKey: { type: 'string' } } },
        body: documentedBody(claimBody),
        response: {
          200: {
            type: 'object',
            required: ['claim'],
            properties: {
              claim: {
                type: 'object',
                required: ['campaignSlug', 'questKey', 'player', 'timePeriod', 'periodStart', 'xpReward', 'txHash', 'claimedAt', 'totalXp'],
                properties: {
                  campaignSlug: { type: 'string' },
                  questKey: { type: 'string' },
                  player: { type: 'string' },
                  timePeriod: period,
                  periodStart: iso,
                  xpReward: { type: 'integer' },
                  txHash: { type: ['string', 'null'] },
                  claimedAt: iso,
                  totalXp: { ...decimal, description: "The player's XP leaderboard total after the claim" },
                },
              },
            },
          },
          ...errorResponses(CLAIM_ERRORS),
        },
      },
    },
    async (request: Req<{ slug: string; questKey: string }, unknown, Record<string, unknown> | null>) => {
      const wallet = requireWallet(request);
      const claim = await quests.claim(wallet, { ...(request.body ?? {}), campaignSlug: request.params.slug, questKey: request.params.questKey });
      return { claim };
    },
  );
}
