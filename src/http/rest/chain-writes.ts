import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Services } from '../../services';
import { CHAIN_WRITE_STATUSES, chainWriteModel, chainWritePageModel } from '../../services/chain-writer';
import { adminActor, adminRoute } from './admin';

/** Nothing in the body is read: the write is the path's. */
const noBody = z.object({}).describe('Empty (or no body)');
const idParam = { type: 'object', required: ['id'], properties: { id: { type: 'string', description: 'Chain write id' } } } as const;

/** The chain-write outbox for operators, under /api/admin/chain-writes: list, one write, retry a failed one, cancel a queued one. */
export async function chainWriteRoutes(app: FastifyInstance, services: Services): Promise<void> {
  const { chainWrites } = services;

  app.get<{ Querystring: Record<string, string> }>(
    '/admin/chain-writes',
    adminRoute({
      operationId: 'adminChainWrites',
      summary: 'Chain writes, newest first, optionally of one status (and kind): attempts, last error, digest, next attempt',
      querystring: {
        type: 'object',
        properties: {
          status: { type: 'string', enum: [...CHAIN_WRITE_STATUSES] },
          kind: { type: 'string', description: 'e.g. `welcome-wheel.payout`, `giveaway.settle`' },
          cursor: { type: 'string', description: '`nextCursor` of the previous page' },
          limit: { type: 'integer', minimum: 1, maximum: 200, default: 50 },
        },
      },
      reply: chainWritePageModel,
      errors: ['VALIDATION_FAILED'],
    }),
    async (request) => chainWrites.list(request.query),
  );
  app.get<{ Params: { id: string } }>(
    '/admin/chain-writes/:id',
    adminRoute({ operationId: 'adminChainWrite', summary: 'One chain write', params: idParam, reply: chainWriteModel, errors: ['VALIDATION_FAILED', 'NOT_FOUND'] }),
    async (request) => chainWrites.get({ id: request.params.id }),
  );
  app.post<{ Params: { id: string } }>(
    '/admin/chain-writes/:id/retry',
    adminRoute({
      operationId: 'adminRetryChainWrite',
      summary:
        'Queue a failed write again (attempts from 0). A transaction it signed before is looked up first: executed → confirmed without a new one; still executable → the same bytes are sent. Any other status: 409 CONFLICT with details.status, so of parallel retries exactly one queues it.',
      params: idParam,
      body: noBody,
      reply: chainWriteModel,
      errors: ['VALIDATION_FAILED', 'NOT_FOUND', 'CONFLICT'],
    }),
    async (request) => {
      const { actor, requestId } = adminActor(request);
      return chainWrites.retry(actor, { id: request.params.id }, requestId);
    },
  );
  app.post<{ Params: { id: string } }>(
    '/admin/chain-writes/:id/cancel',
    adminRoute({
      operationId: 'adminCancelChainWrite',
      summary: 'Cancel a queued write: it is never sent. A submitted one (its transaction may be on chain) or a finished one: 409 CONFLICT with details.status.',
      params: idParam,
      body: noBody,
      reply: chainWriteModel,
      errors: ['VALIDATION_FAILED', 'NOT_FOUND', 'CONFLICT'],
    }),
    async (request) => {
      const { actor, requestId } = adminActor(request);
      return chainWrites.cancel(actor, { id: request.params.id }, requestId);
    },
  );
}
