import { z } from 'zod';
import { operatorActor } from '../../edge/authorize';
import { operationsOver, type OperationSet } from '../operation';
import type { AuditLog } from './audit';
import { auditPageAsText, auditPageInput, auditPageModel, auditPageTextModel, grantInput, operatorRecordModel, revocationModel } from './model';
import type { OperatorRoles } from './roles';

type Svc = { operators: OperatorRoles; audit: AuditLog };
const operation = operationsOver<Svc>();

const wallet = z.string().describe('Sui address');
const ADMIN = { tag: 'admin', access: 'operator' } as const;

/**
 * Operators (grant, revoke, list) and the audit log of every operator action. The `/api/admin`
 * routes, their OpenAPI entries and the GraphQL fields are read from these declarations.
 */
export const operatorOperations: OperationSet<Svc> = {
  domain: 'operators',
  operations: [
    operation({
      summary: 'Operator wallets: by setting (OPERATOR_WALLETS) and granted',
      kind: 'query',
      access: ADMIN.access,
      output: z.array(operatorRecordModel),
      rest: { method: 'GET', path: '/admin/operators', operationId: 'adminOperators', tag: ADMIN.tag, envelope: 'operators' },
      graphql: { field: 'operators' },
      handle: ({ operators }) => operators.list(),
    }),
    operation({
      summary: 'Grant the operator role to a wallet (at once, on every replica)',
      kind: 'mutation',
      access: ADMIN.access,
      input: grantInput,
      output: operatorRecordModel,
      errors: ['VALIDATION_FAILED'],
      rest: { method: 'POST', path: '/admin/operators', operationId: 'adminGrantOperator', tag: ADMIN.tag },
      graphql: { field: 'grantOperator', spread: true },
      handle: ({ operators }, { caller, input, requestId }) => operators.grant(operatorActor(caller), input, requestId),
    }),
    operation({
      summary: 'Revoke a granted operator role: its next request is refused (403), whatever its token says',
      kind: 'mutation',
      access: ADMIN.access,
      params: { wallet },
      output: revocationModel,
      errors: ['VALIDATION_FAILED', 'NOT_FOUND', 'CONFLICT'],
      rest: { method: 'DELETE', path: '/admin/operators/:wallet', operationId: 'adminRevokeOperator', tag: ADMIN.tag },
      graphql: { field: 'revokeOperator' },
      handle: ({ operators }, { caller, params, requestId }) => operators.revoke(operatorActor(caller), { wallet: params.wallet }, requestId),
    }),
    operation({
      summary: 'Every operator action, newest first (who, when, what, before and after); append-only',
      kind: 'query',
      access: ADMIN.access,
      input: auditPageInput,
      output: auditPageModel,
      errors: ['VALIDATION_FAILED'],
      rest: { method: 'GET', path: '/admin/audit', operationId: 'adminAudit', tag: ADMIN.tag, query: true },
      graphql: { field: 'operatorAudit', spread: true, output: { model: auditPageTextModel, from: auditPageAsText } },
      handle: ({ audit }, { input }) => audit.list(input),
    }),
  ],
};
