import type { FastifyInstance } from 'fastify';
import { ERROR_STATUS, type ErrorCode } from '../../errors';
import { routeMethods } from '../../fastify/route-hooks';

/** `$id` of the one error-body schema; routes reference it, the OpenAPI document names it. */
const ERROR_RESPONSE_ID = 'ErrorResponse';

/** JSON schema of `errorBody()` (src/errors.ts): the body of every 4xx/5xx answer. */
const errorResponseSchema = {
  $id: ERROR_RESPONSE_ID,
  type: 'object',
  description: 'Every error answer has this shape; `code` names the failure, the status follows from it (src/errors.ts).',
  required: ['error'],
  properties: {
    error: {
      type: 'object',
      required: ['code', 'message'],
      properties: {
        code: { type: 'string', enum: Object.keys(ERROR_STATUS) },
        message: { type: 'string' },
        requestId: { type: 'string' },
        details: { type: 'object', additionalProperties: true, description: 'VALIDATION_FAILED: `{ issues: [{ path, message }] }`' },
      },
    },
  },
} as const;

/** Errors any rate-limited `/api` route can answer with (admission, request timeout, unexpected failure). */
export const COMMON_ERRORS: readonly ErrorCode[] = ['RATE_LIMITED', 'INTERNAL', 'REQUEST_TIMEOUT'];

/**
 * Response schemas for the given error codes, one entry per HTTP status, each referencing the
 * shared error schema and naming its possible codes.
 */
export function errorResponses(codes: readonly ErrorCode[]): Record<number, { description: string; $ref: string }> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of new Set(codes)) byStatus.set(ERROR_STATUS[code], [...(byStatus.get(ERROR_STATUS[code]) ?? []), code]);
  return Object.fromEntries(
    [...byStatus].sort(([a], [b]) => a - b).map(([status, list]) => [status, { description: list.join(', '), $ref: `${ERROR_RESPONSE_ID}#` }]),
  );
}

/** Registers the shared schemas on the REST scope (before its routes). */
export function addSharedSchemas(app: FastifyInstance): void {
  app.addSchema(errorResponseSchema);
}

/** What any route that takes a body can answer before it runs: a body that is not JSON, too large, or of another media type. */
const BODY_TRANSPORT_ERRORS: readonly ErrorCode[] = ['BAD_REQUEST', 'PAYLOAD_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE'];
/** What the router answers for a path parameter longer than it accepts (src/http/error-handler.ts). */
const PATH_TRANSPORT_ERRORS: readonly ErrorCode[] = ['VALIDATION_FAILED'];
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Documents the refusals that come before a route runs, merged into the statuses it declares:
 * BODY_TRANSPORT_ERRORS on every route whose method carries a body, PATH_TRANSPORT_ERRORS on every
 * route with path parameters.
 */
export function documentTransportErrors(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    const methods = routeMethods(route);
    const schema = route.schema as { response?: Record<number, { description?: string; $ref?: string }> } | undefined;
    if (!schema?.response) return;
    const codes = [...(methods.some((m) => BODY_METHODS.has(m)) ? BODY_TRANSPORT_ERRORS : []), ...(route.url.includes(':') ? PATH_TRANSPORT_ERRORS : [])];
    if (codes.length === 0) return;
    for (const [status, entry] of Object.entries(errorResponses(codes))) {
      const declared = schema.response[Number(status)];
      if (!declared) schema.response[Number(status)] = entry;
      else if (declared.$ref === entry.$ref) {
        const listed = declared.description?.split(', ') ?? [];
        const missing = entry.description.split(', ').filter((c) => !listed.includes(c));
        if (missing.length) schema.response[Number(status)] = { ...declared, description: [...listed, ...missing].join(', ') };
      }
    }
  });
}

/**
 * The OpenAPI `security` of a route, read from the errors it declares: a route that can answer
 * UNAUTHENTICATED needs the access token; one that only refuses a bad token (TOKEN_INVALID)
 * takes it optionally. Routes with their own scheme (the webhook) keep it.
 */
export function documentBearerAuth(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    const schema = route.schema as { security?: unknown; response?: Record<string, { description?: string }> } | undefined;
    if (!schema?.response || schema.security || route.config?.skipAuth) return;
    const codes = Object.values(schema.response).flatMap((r) => r.description?.split(', ') ?? []);
    if (codes.includes('UNAUTHENTICATED')) schema.security = [{ bearerAuth: [] }];
    else if (codes.includes('TOKEN_INVALID')) schema.security = [{}, { bearerAuth: [] }];
  });
}
