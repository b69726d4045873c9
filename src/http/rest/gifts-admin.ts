import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Services } from '../../services';
import { createProjectInput, giftProjectModel, setWindowsInput, stashInput } from '../../services/gifts';
import { adminActor, adminRoute } from './admin';

const projectParam = { type: 'object', required: ['project'], properties: { project: { type: 'string', description: 'The project name' } } } as const;

/** Gift projects, windows, quotas and stash as operators run them, under /api/admin/gifts. */
export async function giftAdminRoutes(app: FastifyInstance, services: Services): Promise<void> {
  const { giftAdmin } = services;

  app.get(
    '/admin/gifts/projects',
    adminRoute({ operationId: 'adminGiftProjects', summary: 'Gift projects: stash left, today’s quota and each window’s deliveries', reply: z.object({ projects: z.array(giftProjectModel) }) }),
    async () => ({ projects: await giftAdmin.projects() }),
  );
  app.post(
    '/admin/gifts/projects',
    adminRoute({ operationId: 'adminCreateGiftProject', summary: 'Create a gift project (then give it windows and a stash)', body: createProjectInput, reply: giftProjectModel, errors: ['VALIDATION_FAILED', 'CONFLICT'] }),
    async (request) => {
      const { actor, requestId } = adminActor(request);
      return giftAdmin.createProject(actor, request.body, requestId);
    },
  );
  app.put<{ Params: { project: string } }>(
    '/admin/gifts/projects/:project/windows',
    adminRoute({
      operationId: 'adminSetGiftWindows',
      summary: 'Replace the project’s delivery windows and their daily quotas (enabled windows may not overlap)',
      params: projectParam,
      body: setWindowsInput,
      reply: giftProjectModel,
      errors: ['VALIDATION_FAILED', 'NOT_FOUND'],
    }),
    async (request) => {
      const { actor, requestId } = adminActor(request);
      return giftAdmin.setWindows(actor, request.params.project, request.body, requestId);
    },
  );
  app.post<{ Params: { project: string } }>(
    '/admin/gifts/projects/:project/stash',
    adminRoute({
      operationId: 'adminLoadGiftStash',
      summary: 'Add gift URLs to the project’s stash (the gifts:load input; a URL already stashed is skipped)',
      params: projectParam,
      body: stashInput,
      reply: z.object({ added: z.number().int(), skipped: z.number().int(), project: giftProjectModel }),
      errors: ['VALIDATION_FAILED', 'NOT_FOUND'],
    }),
    async (request) => {
      const { actor, requestId } = adminActor(request);
      return giftAdmin.loadStash(actor, request.params.project, request.body, requestId);
    },
  );
}
