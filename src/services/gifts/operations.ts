import { z } from 'zod';
import { operatorActor } from '../../edge/authorize';
import { operationsOver, type OperationSet } from '../operation';
import type { GiftAdmin } from './admin';
import { createProjectInput, giftProjectModel, setWindowsInput, stashInput, stashLoadModel } from './model';

type Svc = { giftAdmin: GiftAdmin };
const operation = operationsOver<Svc>();

const project = z.string().describe('The project name');
const ADMIN = { tag: 'admin', access: 'operator' } as const;

/**
 * Gift projects, windows, quotas and stash as operators run them (./admin.ts). The
 * `/api/admin/gifts` routes, their OpenAPI entries and the GraphQL fields are read from these.
 */
export const giftOperations: OperationSet<Svc> = {
  domain: 'gifts',
  operations: [
    operation({
      summary: 'Gift projects: stash left, today’s quota and each window’s deliveries',
      kind: 'query',
      access: ADMIN.access,
      output: z.array(giftProjectModel),
      rest: {
        method: 'GET',
        path: '/admin/gifts/projects',
        operationId: 'adminGiftProjects',
        tag: ADMIN.tag,
        envelope: 'projects',
      },
      graphql: { field: 'giftProjects' },
      handle: ({ giftAdmin }) => giftAdmin.projects(),
    }),
    operation({
      summary: 'Create a gift project (then give it windows and a stash)',
      kind: 'mutation',
      access: ADMIN.access,
      input: createProjectInput,
      output: giftProjectModel,
      errors: ['VALIDATION_FAILED', 'CONFLICT'],
      rest: {
        method: 'POST',
        path: '/admin/gifts/projects',
        operationId: 'adminCreateGiftProject',
        tag: ADMIN.tag,
      },
      graphql: { field: 'createGiftProject', spread: true },
      handle: ({ giftAdmin }, { caller, input, requestId }) => giftAdmin.createProject(operatorActor(caller), input, requestId),
    }),
    operation({
      summary: 'Replace the project’s delivery windows and their daily quotas (enabled windows may not overlap)',
      kind: 'mutation',
      access: ADMIN.access,
      params: { project },
      input: setWindowsInput,
      output: giftProjectModel,
      errors: ['VALIDATION_FAILED', 'NOT_FOUND'],
      rest: {
        method: 'PUT',
        path: '/admin/gifts/projects/:project/windows',
        operationId: 'adminSetGiftWindows',
        tag: ADMIN.tag,
      },
      graphql: { field: 'setGiftWindows', spread: true },
      handle: ({ giftAdmin }, { caller, params, input, requestId }) => giftAdmin.setWindows(operatorActor(caller), params.project, input, requestId),
    }),
    operation({
      summary: 'Add gift URLs to the project’s stash (the gifts:load input; a URL already stashed is skipped)',
      kind: 'mutation',
      access: ADMIN.access,
      params: { project },
      input: stashInput,
      output: stashLoadModel,
      errors: ['VALIDATION_FAILED', 'NOT_FOUND'],
      rest: {
        method: 'POST',
        path: '/admin/gifts/projects/:project/stash',
        operationId: 'adminLoadGiftStash',
        tag: ADMIN.tag,
      },
      graphql: { field: 'loadGiftStash', spread: true },
      handle: ({ giftAdmin }, { caller, params, input, requestId }) => giftAdmin.loadStash(operatorActor(caller), params.project, input, requestId),
    }),
  ],
};
