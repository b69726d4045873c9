import type { FastifyRequest } from 'fastify';
import type { ErrorCode } from '../../errors';
import { operatorActor, type Actor } from '../../edge/authorize';
import { documentedBody, documentedReply, judgedByService } from './input-schema';
import { COMMON_ERRORS, errorResponses } from './responses';
import type { z } from 'zod';

/** Every operator route can refuse its caller: no token (401), a bad one (401), a wallet without the role (403). */
export const ADMIN_ERRORS: readonly ErrorCode[] = ['UNAUTHENTICATED', 'TOKEN_INVALID', 'TOKEN_EXPIRED', 'FORBIDDEN', ...COMMON_ERRORS];

interface AdminRouteDoc {
  operationId: string;
  summary: string;
  /** The service's zod input for the body (the service judges it: REST and GraphQL refuse alike). */
  body?: z.ZodType;
  params?: Record<string, unknown>;
  querystring?: Record<string, unknown>;
  /** The 200 reply's model. */
  reply: z.ZodType | Record<string, unknown>;
  /** Refusals beyond ADMIN_ERRORS (VALIDATION_FAILED, NOT_FOUND, VERSION_CONFLICT, …). */
  errors?: readonly ErrorCode[];
}

const isZod = (value: unknown): value is z.ZodType => typeof (value as { safeParse?: unknown }).safeParse === 'function';

/**
 * Route options of an `/api/admin/…` route: operator access (an operator wallet's access token,
 * or OPERATOR_TOKEN), documented under the `admin` tag with both schemes, input judged by the service.
 */
export function adminRoute(doc: AdminRouteDoc) {
  return {
    config: { access: 'operator' },
    ...judgedByService,
    schema: {
      tags: ['admin'],
      operationId: doc.operationId,
      summary: doc.summary,
      security: [{ bearerAuth: [] }, { operatorToken: [] }],
      ...(doc.body ? { body: documentedBody(doc.body) } : {}),
      ...(doc.params ? { params: doc.params } : {}),
      ...(doc.querystring ? { querystring: doc.querystring } : {}),
      response: { 200: isZod(doc.reply) ? documentedReply(doc.reply) : doc.reply, ...errorResponses([...ADMIN_ERRORS, ...(doc.errors ?? [])]) },
    },
  } as const;
}

/** The operator behind an admitted admin request and the request id, as the audit log records them. */
export const adminActor = (request: FastifyRequest): { actor: Actor; requestId: string } => ({ actor: operatorActor(request), requestId: request.id });
