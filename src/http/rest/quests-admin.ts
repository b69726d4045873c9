import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Services } from '../../services';
import { adminCampaignView, adminQuestView, campaignCreateInput, campaignUpdateInput, questCreateInput, questUpdateInput } from '../../services/quests';
import { adminActor, adminRoute } from './admin';

const slugParam = { type: 'string', description: 'Campaign slug' } as const;
const campaignParams = { type: 'object', required: ['slug'], properties: { slug: slugParam } } as const;
const questParams = { type: 'object', required: ['slug', 'questKey'], properties: { slug: slugParam, questKey: { type: 'string', description: 'Quest key' } } } as const;

type Slug = { Params: { slug: string } };
type SlugAndKey = { Params: { slug: string; questKey: string } };

/**
 * Campaigns and quests as data, under /api/admin (src/services/quests/admin.ts): created, edited,
 * scheduled and switched on and off by operators, each edit based on a version and audited.
 */
export async function questAdminRoutes(app: FastifyInstance, services: Services): Promise<void> {
  const { admin } = services.quests;

  app.get(
    '/admin/campaigns',
    adminRoute({
      operationId: 'adminCampaigns',
      summary: 'Every campaign with its quests as stored: evaluators, versions, whether claimed',
      reply: z.object({ campaigns: z.array(adminCampaignView) }),
    }),
    async () => ({ campaigns: await admin.list() }),
  );
  app.post(
    '/admin/campaigns',
    adminRoute({
      operationId: 'adminCreateCampaign',
      summary: 'Create a campaign (its quests are added after it); every replica lists it within seconds',
      body: campaignCreateInput,
      reply: adminCampaignView,
      errors: ['VALIDATION_FAILED', 'CONFLICT'],
    }),
    async (request) => {
      const { actor, requestId } = adminActor(request);
      return admin.createCampaign(actor, request.body, requestId);
    },
  );
  app.patch<Slug>(
    '/admin/campaigns/:slug',
    adminRoute({
      operationId: 'adminUpdateCampaign',
      summary: 'Edit, schedule (startAt, endAt) or switch a campaign on or off; `version` is the one the edit is based on',
      params: campaignParams,
      body: campaignUpdateInput,
      reply: adminCampaignView,
      errors: ['VALIDATION_FAILED', 'NOT_FOUND', 'VERSION_CONFLICT'],
    }),
    async (request) => {
      const { actor, requestId } = adminActor(request);
      return admin.updateCampaign(actor, request.params.slug, request.body, requestId);
    },
  );
  app.post<Slug>(
    '/admin/campaigns/:slug/quests',
    adminRoute({
      operationId: 'adminCreateQuest',
      summary: 'Add a quest to a campaign: an evaluator of the registry with its parameters, a target and a period',
      params: campaignParams,
      body: questCreateInput,
      reply: adminQuestView,
      errors: ['VALIDATION_FAILED', 'NOT_FOUND', 'CONFLICT'],
    }),
    async (request) => {
      const { actor, requestId } = adminActor(request);
      return admin.createQuest(actor, request.params.slug, request.body, requestId);
    },
  );
  app.patch<SlugAndKey>(
    '/admin/campaigns/:slug/quests/:questKey',
    adminRoute({
      operationId: 'adminUpdateQuest',
      summary: 'Edit, schedule or switch a quest on or off; `version` is the one the edit is based on (a claimed quest keeps its evaluator and period)',
      params: questParams,
      body: questUpdateInput,
      reply: adminQuestView,
      errors: ['VALIDATION_FAILED', 'NOT_FOUND', 'CONFLICT', 'VERSION_CONFLICT'],
    }),
    async (request) => {
      const { actor, requestId } = adminActor(request);
      return admin.updateQuest(actor, request.params.slug, request.params.questKey, request.body, requestId);
    },
  );
}
