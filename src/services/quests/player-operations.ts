import { z } from 'zod';
import { walletOf } from '../../edge/authorize';
import { operationsOver, type OperationSet } from '../operation';
import { campaignView, claimsHistoryQuery, questClaimPage, questClaimResult, questMode, questStatus } from './model';
import { campaignStatusQuery, claimBody, MAX_STATUS_CHECKS, playerInput, statusBatchBody, type QuestService } from './service';

type Svc = { quests: QuestService };
const operation = operationsOver<Svc>();

const slug = z.string().describe('Campaign slug (the default catalogue has `platform`)');
const questKey = z.string().describe('Quest key');
const TAG = 'quests';
const READ_ERRORS = ['VALIDATION_FAILED', 'NOT_FOUND'] as const;
/** Answers for a player: the caller's own when the request names none. */
const viewer = (caller: { auth: { wallet: string } | null }) => caller.auth?.wallet ?? null;
const MODES = '`mode`: `indexed` (default) reads the progress kept after each indexer commit (one lookup); `live` recomputes it from the event tables.';

/**
 * The quest catalogue, players' statuses and claims (./service.ts): the `/api/quests` routes, their
 * OpenAPI entries and the GraphQL fields are read from these declarations. One status is two
 * declarations: REST names its mode in the path, GraphQL as an optional argument.
 */
export const questPlayerOperations: OperationSet<Svc> = {
  domain: 'quests-player',
  components: [campaignView, questStatus],
  operations: [
    operation({
      summary: 'Campaigns and their quests, with lifecycle and current period',
      kind: 'query',
      access: 'public',
      output: z.array(campaignView),
      rest: { method: 'GET', path: '/quests/list', operationId: 'questsList', tag: TAG, envelope: 'campaigns' },
      graphql: { field: 'questCampaigns', cache: 'questCatalogue' },
      handle: ({ quests }, { signal }) => quests.list({ signal }),
    }),
    operation({
      summary: "Every quest's status for a player (indexed mode): the default status lookup",
      kind: 'query',
      access: 'public',
      input: playerInput,
      output: z.array(questStatus),
      errors: READ_ERRORS,
      rest: { method: 'GET', path: '/quests/status', operationId: 'questsDefaultStatus', tag: TAG, envelope: 'statuses', query: true },
      graphql: { field: 'questStatuses', spread: true, cache: 'questStatus' },
      handle: ({ quests }, { input, caller, signal }) => quests.defaultStatus(input, viewer(caller), { signal }),
    }),
    operation({
      summary: "Every quest's status in one campaign for a player",
      description: MODES,
      kind: 'query',
      access: 'public',
      params: { slug },
      input: campaignStatusQuery,
      output: z.array(questStatus),
      errors: READ_ERRORS,
      rest: { method: 'GET', path: '/quests/campaigns/:slug/status', operationId: 'questsCampaignStatus', tag: TAG, envelope: 'statuses', query: true },
      handle: ({ quests }, { params, input, caller, signal }) => quests.campaignStatus({ ...(input as object), campaignSlug: params.slug }, viewer(caller), { signal }),
    }),
    operation({
      summary: "Status of the campaign's daily performance quest",
      kind: 'query',
      access: 'public',
      params: { slug },
      input: playerInput,
      output: questStatus,
      errors: READ_ERRORS,
      rest: { method: 'GET', path: '/quests/campaigns/:slug/performance_daily/status', operationId: 'questsPerformanceDailyStatus', tag: TAG, envelope: 'status', query: true },
      graphql: { field: 'questPerformanceDailyStatus', args: { slug: 'campaignSlug' }, spread: true, cache: 'questStatus' },
      handle: ({ quests }, { params, input, caller, signal }) => quests.performanceDaily({ ...(input as object), campaignSlug: params.slug }, viewer(caller), { signal }),
    }),
    operation({
      summary: 'Status of one quest',
      description: MODES,
      kind: 'query',
      access: 'public',
      params: { slug, mode: questMode, questKey },
      input: playerInput,
      output: questStatus,
      errors: READ_ERRORS,
      rest: { method: 'GET', path: '/quests/campaigns/:slug/:mode/:questKey/status', operationId: 'questsStatus', tag: TAG, envelope: 'status', query: true },
      handle: ({ quests }, { params, input, caller, signal }) =>
        quests.status({ ...(input as object), campaignSlug: params.slug, mode: params.mode, questKey: params.questKey }, viewer(caller), { signal }),
    }),
    operation({
      summary: 'Status of one quest',
      kind: 'query',
      access: 'public',
      params: { campaignSlug: slug, questKey },
      input: campaignStatusQuery,
      output: questStatus,
      errors: READ_ERRORS,
      graphql: { field: 'questStatus', spread: true, cache: 'questStatus' },
      handle: ({ quests }, { params, input, caller, signal }) => quests.status({ ...(input as object), ...params }, viewer(caller), { signal }),
    }),
    operation({
      summary: `Statuses for a batch of up to ${MAX_STATUS_CHECKS} checks (quest, mode, player)`,
      kind: 'query',
      access: 'public',
      params: { slug },
      input: statusBatchBody,
      output: z.array(questStatus),
      errors: READ_ERRORS,
      rest: { method: 'POST', path: '/quests/campaigns/:slug/status', operationId: 'questsBatchStatus', tag: TAG, envelope: 'statuses' },
      graphql: { field: 'questBatchStatus', args: { slug: 'campaignSlug' }, spread: true, cache: 'questStatus' },
      handle: ({ quests }, { params, input, caller, signal }) => quests.statusBatch({ ...(input as object), campaignSlug: params.slug }, viewer(caller), { signal }),
    }),
    operation({
      summary: "The caller's own claims, newest first, one page at a time (access token required)",
      description: 'Keyset-paged: pass `nextCursor` as `after` for the next page; claims made meanwhile never shift or repeat later pages.',
      kind: 'query',
      access: 'wallet',
      input: claimsHistoryQuery,
      output: questClaimPage,
      errors: ['VALIDATION_FAILED'],
      rest: { method: 'GET', path: '/quests/claims', operationId: 'questsClaimsHistory', tag: TAG, query: true },
      graphql: { field: 'myQuestClaims', spread: true },
      handle: ({ quests }, { input, caller, signal }) => quests.claimsHistory(walletOf(caller), input, { signal }),
    }),
    operation({
      summary: 'Claim a completed quest for the current period (access token required); credits its XP once',
      description: 'Throttled per wallet (QUESTS.CLAIM_RATE_LIMIT_MAX per QUESTS.CLAIM_RATE_LIMIT_WINDOW_MS, default 10 per minute) on top of admission.',
      kind: 'mutation',
      access: 'wallet',
      params: { slug, questKey },
      input: claimBody,
      output: questClaimResult,
      errors: ['VALIDATION_FAILED', 'NOT_FOUND', 'FORBIDDEN', 'DUPLICATE_CLAIM', 'CLAIM_PERIOD_INVALID', 'QUEST_INCOMPLETE'],
      rest: { method: 'POST', path: '/quests/campaigns/:slug/:questKey/claim', operationId: 'questsClaim', tag: TAG, envelope: 'claim' },
      graphql: { field: 'claimQuest', args: { slug: 'campaignSlug' }, spread: true },
      handle: ({ quests }, { params, input, caller }) => quests.claim(walletOf(caller), { ...(input as object), campaignSlug: params.slug, questKey: params.questKey }),
    }),
  ],
};
