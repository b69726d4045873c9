import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ErrorCode } from '../../errors';
import { requestSignal } from '../timeout';
import type { Services } from '../../services';
import { campaignView, claimBody, claimsHistoryQuery, MAX_STATUS_CHECKS, questClaimPage, questClaimResult, questMode, questStatus, statusBatchBody } from '../../services/quests';
import { walletOf } from '../../edge/authorize';
import { documentedBody, documentedReply, judgedByService } from './input-schema';
import { COMMON_ERRORS, errorResponses } from './responses';

const QUEST_STATUS_ID = 'QuestStatus';
const CAMPAIGN_ID = 'QuestCampaign';

const questStatusSchema = documentedReply(questStatus, QUEST_STATUS_ID);
const campaignSchema = documentedReply(campaignView, CAMPAIGN_ID);
const modeParam = documentedReply(questMode);

const slugParam = { type: 'string', description: 'Campaign slug (the default catalogue has `platform`)' } as const;
const playerQuery = {
  type: 'object',
  properties: { player: { type: 'string', description: 'Sui address; default: the access token’s wallet' } },
} as const;
const statusReply = { type: 'object', required: ['status'], properties: { status: { $ref: `${QUEST_STATUS_ID}#` } } } as const;
const statusesReply = { type: 'object', required: ['statuses'], properties: { statuses: { type: 'array', items: { $ref: `${QUEST_STATUS_ID}#` } } } } as const;
const READ_ERRORS: readonly ErrorCode[] = ['VALIDATION_FAILED', 'NOT_FOUND', 'TOKEN_INVALID', 'TOKEN_EXPIRED', ...COMMON_ERRORS];
const HISTORY_ERRORS: readonly ErrorCode[] = ['UNAUTHENTICATED', 'TOKEN_INVALID', 'TOKEN_EXPIRED', 'VALIDATION_FAILED', ...COMMON_ERRORS];
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
    '/quests/campaigns/:slug/status',
    {
      ...judgedByService,
      schema: {
        tags: ['quests'],
        operationId: 'questsCampaignStatus',
        summary: "Every quest's status in one campaign for a player",
        description: '`mode` (query): `indexed` (default) reads the progress kept after each indexer commit; `live` recomputes it from the event tables.',
        params: { type: 'object', required: ['slug'], properties: { slug: slugParam } },
        querystring: { type: 'object', properties: { ...playerQuery.properties, mode: modeParam } },
        response: { 200: statusesReply, ...errorResponses(READ_ERRORS) },
      },
    },
    async (request: Req<{ slug: string }, { player?: string; mode?: string }>) => ({
      statuses: await quests.campaignStatus({ campaignSlug: request.params.slug, mode: request.query.mode, player: request.query.player }, viewer(request), { signal: requestSignal(request) }),
    }),
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
        params: { type: 'object', required: ['slug', 'mode', 'questKey'], properties: { slug: slugParam, mode: modeParam, questKey: { type: 'string' } } },
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

  app.get(
    '/quests/claims',
    {
      config: { access: 'wallet' },
      ...judgedByService,
      schema: {
        tags: ['quests'],
        operationId: 'questsClaimsHistory',
        summary: "The caller's own claims, newest first, one page at a time (access token required)",
        description: 'Keyset-paged: pass `nextCursor` as `after` for the next page; claims made meanwhile never shift or repeat later pages.',
        querystring: documentedBody(claimsHistoryQuery),
        response: { 200: documentedReply(questClaimPage), ...errorResponses(HISTORY_ERRORS) },
      },
    },
    async (request: Req<Record<string, string>, { limit?: string; after?: string }>) => {
      const { limit, after } = request.query;
      // Query strings are text: a limit that is not a plain integer reaches the service as NaN and is refused there.
      const input = { ...(limit === undefined ? {} : { limit: /^\d+$/.test(limit) ? Number(limit) : Number.NaN }), ...(after === undefined ? {} : { after }) };
      return quests.claimsHistory(walletOf(request), input, { signal: requestSignal(request) });
    },
  );

  app.post(
    '/quests/campaigns/:slug/:questKey/claim',
    {
      config: { access: 'wallet' },
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
              claim: documentedReply(questClaimResult),
            },
          },
          ...errorResponses(CLAIM_ERRORS),
        },
      },
    },
    async (request: Req<{ slug: string; questKey: string }, unknown, Record<string, unknown> | null>) => {
      const wallet = walletOf(request);
      const claim = await quests.claim(wallet, { ...(request.body ?? {}), campaignSlug: request.params.slug, questKey: request.params.questKey });
      return { claim };
    },
  );
}
