import { z } from 'zod';
import { operatorActor } from '../../edge/authorize';
import { operationsOver, type OperationSet } from '../operation';
import { adminCampaignView, adminQuestView, campaignCreateInput, campaignUpdateInput, questCreateInput, questUpdateInput } from './model';
import type { QuestService } from './service';

type Svc = { quests: QuestService };
const operation = operationsOver<Svc>();

const slug = z.string().describe('Campaign slug');
const questKey = z.string().describe('Quest key');
const ADMIN = { tag: 'admin', access: 'operator' } as const;

/**
 * Campaigns and quests as data, for operators (./admin.ts): listed, created, edited, scheduled
 * and switched on and off, each edit based on a version and audited. The `/api/admin/campaigns`
 * routes, their OpenAPI entries and the GraphQL fields are read from these declarations.
 */
export const questOperations: OperationSet<Svc> = {
  domain: 'quests',
  operations: [
    operation({
      summary: 'Every campaign with its quests as stored: evaluators, versions, whether claimed',
      kind: 'query',
      access: ADMIN.access,
      output: z.array(adminCampaignView),
      rest: {
        method: 'GET',
        path: '/admin/campaigns',
        operationId: 'adminCampaigns',
        tag: ADMIN.tag,
        envelope: 'campaigns',
      },
      graphql: { field: 'adminCampaigns' },
      handle: ({ quests }) => quests.admin.list(),
    }),
    operation({
      summary: 'Create a campaign (its quests are added after it); every replica lists it within seconds',
      kind: 'mutation',
      access: ADMIN.access,
      input: campaignCreateInput,
      output: adminCampaignView,
      errors: ['VALIDATION_FAILED', 'CONFLICT'],
      rest: {
        method: 'POST',
        path: '/admin/campaigns',
        operationId: 'adminCreateCampaign',
        tag: ADMIN.tag,
      },
      graphql: { field: 'createCampaign' },
      handle: ({ quests }, { caller, input, requestId }) => quests.admin.createCampaign(operatorActor(caller), input, requestId),
    }),
    operation({
      summary: 'Edit, schedule (startAt, endAt) or switch a campaign on or off; `version` is the one the edit is based on',
      kind: 'mutation',
      access: ADMIN.access,
      params: { slug },
      input: campaignUpdateInput,
      output: adminCampaignView,
      errors: ['VALIDATION_FAILED', 'NOT_FOUND', 'VERSION_CONFLICT'],
      rest: {
        method: 'PATCH',
        path: '/admin/campaigns/:slug',
        operationId: 'adminUpdateCampaign',
        tag: ADMIN.tag,
      },
      graphql: { field: 'updateCampaign' },
      handle: ({ quests }, { caller, params, input, requestId }) => quests.admin.updateCampaign(operatorActor(caller), params.slug, input, requestId),
    }),
    operation({
      summary: 'Add a quest to a campaign: an evaluator of the registry with its parameters, a target and a period',
      kind: 'mutation',
      access: ADMIN.access,
      params: { slug },
      input: questCreateInput,
      output: adminQuestView,
      errors: ['VALIDATION_FAILED', 'NOT_FOUND', 'CONFLICT'],
      rest: {
        method: 'POST',
        path: '/admin/campaigns/:slug/quests',
        operationId: 'adminCreateQuest',
        tag: ADMIN.tag,
      },
      graphql: { field: 'createCampaignQuest', args: { slug: 'campaignSlug' } },
      handle: ({ quests }, { caller, params, input, requestId }) => quests.admin.createQuest(operatorActor(caller), params.slug, input, requestId),
    }),
    operation({
      summary: 'Edit, schedule or switch a quest on or off; `version` is the one the edit is based on; a claimed quest keeps its evaluator and period',
      kind: 'mutation',
      access: ADMIN.access,
      params: { slug, questKey },
      input: questUpdateInput,
      output: adminQuestView,
      errors: ['VALIDATION_FAILED', 'NOT_FOUND', 'CONFLICT', 'VERSION_CONFLICT'],
      rest: {
        method: 'PATCH',
        path: '/admin/campaigns/:slug/quests/:questKey',
        operationId: 'adminUpdateQuest',
        tag: ADMIN.tag,
      },
      graphql: { field: 'updateCampaignQuest', args: { slug: 'campaignSlug' } },
      handle: ({ quests }, { caller, params, input, requestId }) => quests.admin.updateQuest(operatorActor(caller), params.slug, params.questKey, input, requestId),
    }),
  ],
};
