import { z } from 'zod';
import { operatorActor } from '../../edge/authorize';
import { operationsOver, type OperationSet } from '../operation';
import type { ChainWriteAdmin } from './admin';
import { chainWriteAsText, chainWriteListInput, chainWriteModel, chainWritePageAsText, chainWritePageModel, chainWritePageTextModel, chainWriteTextModel, noBody } from './model';

type Svc = { chainWrites: ChainWriteAdmin };
const operation = operationsOver<Svc>();

const id = z.string().describe('Chain write id');
const ADMIN = { tag: 'admin', access: 'operator' } as const;
/** GraphQL answers a write with its payload as JSON text. */
const asText = { model: chainWriteTextModel, from: chainWriteAsText };

/**
 * The chain-write outbox for operators: list, one write, retry a failed one, cancel a queued one.
 * The `/api/admin/chain-writes` routes, their OpenAPI entries and the GraphQL fields are read from these.
 */
export const chainWriteOperations: OperationSet<Svc> = {
  domain: 'chain-writes',
  operations: [
    operation({
      summary: 'Chain writes, newest first, optionally of one status (and kind): attempts, last error, digest, next attempt',
      kind: 'query',
      access: ADMIN.access,
      input: chainWriteListInput,
      output: chainWritePageModel,
      errors: ['VALIDATION_FAILED'],
      rest: { method: 'GET', path: '/admin/chain-writes', operationId: 'adminChainWrites', tag: ADMIN.tag, query: true },
      graphql: { field: 'chainWrites', spread: true, output: { model: chainWritePageTextModel, from: chainWritePageAsText } },
      handle: ({ chainWrites }, { input }) => chainWrites.list(input),
    }),
    operation({
      summary: 'One chain write',
      kind: 'query',
      access: ADMIN.access,
      params: { id },
      output: chainWriteModel,
      errors: ['VALIDATION_FAILED', 'NOT_FOUND'],
      rest: { method: 'GET', path: '/admin/chain-writes/:id', operationId: 'adminChainWrite', tag: ADMIN.tag },
      graphql: { field: 'chainWrite', output: asText },
      handle: ({ chainWrites }, { params }) => chainWrites.get({ id: params.id }),
    }),
    operation({
      summary:
        'Queue a failed write again (attempts from 0). A transaction it signed before is looked up first: executed → confirmed without a new one; still executable → the same bytes are sent. Any other status: 409 CONFLICT with details.status, so of parallel retries exactly one queues it.',
      kind: 'mutation',
      access: ADMIN.access,
      params: { id },
      input: noBody,
      output: chainWriteModel,
      errors: ['VALIDATION_FAILED', 'NOT_FOUND', 'CONFLICT'],
      rest: { method: 'POST', path: '/admin/chain-writes/:id/retry', operationId: 'adminRetryChainWrite', tag: ADMIN.tag },
      graphql: { field: 'retryChainWrite', spread: true, output: asText },
      handle: ({ chainWrites }, { caller, params, requestId }) => chainWrites.retry(operatorActor(caller), { id: params.id }, requestId),
    }),
    operation({
      summary: 'Cancel a queued write: it is never sent. A submitted one (its transaction may be on chain) or a finished one: 409 CONFLICT with details.status.',
      kind: 'mutation',
      access: ADMIN.access,
      params: { id },
      input: noBody,
      output: chainWriteModel,
      errors: ['VALIDATION_FAILED', 'NOT_FOUND', 'CONFLICT'],
      rest: { method: 'POST', path: '/admin/chain-writes/:id/cancel', operationId: 'adminCancelChainWrite', tag: ADMIN.tag },
      graphql: { field: 'cancelChainWrite', spread: true, output: asText },
      handle: ({ chainWrites }, { caller, params, requestId }) => chainWrites.cancel(operatorActor(caller), { id: params.id }, requestId),
    }),
  ],
};
