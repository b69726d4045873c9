import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Services } from '../../services';
import { auditPageModel, grantInput, operatorRecordModel } from '../../services/operators';
import { adminActor, adminRoute } from './admin';

const walletParam = { type: 'object', required: ['wallet'], properties: { wallet: { type: 'string', description: 'Sui address' } } } as const;

/** Operators (grant, revoke, list) and the audit log of every operator action, under /api/admin. */
export async function operatorRoutes(app: FastifyInstance, services: Services): Promise<void> {
  const { operators, audit } = services;

  app.get(
    '/admin/operators',
    adminRoute({ operationId: 'adminOperators', summary: 'Operator wallets: by setting (OPERATOR_WALLETS) and granted', reply: z.object({ operators: z.array(operatorRecordModel) }) }),
    async () => ({ operators: await operators.list() }),
  );
  app.post(
    '/admin/operators',
    adminRoute({ operationId: 'adminGrantOperator', summary: 'Grant the operator role to a wallet (at once, on every replica)', body: grantInput, reply: operatorRecordModel, errors: ['VALIDATION_FAILED'] }),
    async (request) => {
      const { actor, requestId } = adminActor(request);
      return operators.grant(actor, request.body, requestId);
    },
  );
  app.delete<{ Params: { wallet: string } }>(
    '/admin/operators/:wallet',
    adminRoute({
      operationId: 'adminRevokeOperator',
      summary: 'Revoke a granted operator role: its next request is refused (403), whatever its token says',
      params: walletParam,
      reply: z.object({ wallet: z.string(), revoked: z.boolean() }),
      errors: ['VALIDATION_FAILED', 'NOT_FOUND', 'CONFLICT'],
    }),
    async (request) => {
      const { actor, requestId } = adminActor(request);
      return operators.revoke(actor, { wallet: request.params.wallet }, requestId);
    },
  );
  app.get<{ Querystring: { cursor?: string; limit?: string } }>(
    '/admin/audit',
    adminRoute({
      operationId: 'adminAudit',
      summary: 'Every operator action, newest first (who, when, what, before and after); append-only',
      querystring: {
        type: 'object',
        properties: { cursor: { type: 'string', description: '`nextCursor` of the previous page' }, limit: { type: 'integer', minimum: 1, maximum: 200, default: 50 } },
      },
      reply: auditPageModel,
      errors: ['VALIDATION_FAILED'],
    }),
    async (request) => audit.list(request.query),
  );
}
