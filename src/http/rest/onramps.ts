import type { FastifyInstance } from 'fastify';
import type { ErrorCode } from '../../errors';
import { requestSignal } from '../timeout';
import type { Services } from '../../services';
import { PARTNER_USER_REF_LENGTH, sessionTokenInput, signUrlInput } from '../../services/onramps';
import { documentedBody, judgedByService } from './input-schema';
import { COMMON_ERRORS, errorResponses } from './responses';

const BODY_ERRORS: readonly ErrorCode[] = ['VALIDATION_FAILED', 'BAD_REQUEST', 'UNSUPPORTED_MEDIA_TYPE', 'SERVICE_UNAVAILABLE', 'TOKEN_INVALID', 'TOKEN_EXPIRED'];

/** Fiat on-ramp helpers: a signed widget URL (A) and a single-use session token (B). No access token needed. */
export async function onrampRoutes(app: FastifyInstance, services: Services): Promise<void> {
  const { onramps } = services;

  app.post(
    '/onramp-a/sign-url',
    {
      ...judgedByService,
      schema: {
        tags: ['onramps'],
        operationId: 'onrampASignUrl',
        summary: "Sign on-ramp A's widget URL",
        description:
          "The widget URL must be on the provider's origin (ONRAMP_A.WIDGET_URL) and carry this platform's `apiKey`. The answer appends `signature` = base64(HMAC-SHA256(secret key, the URL's query string as sent, leading `?` included)), URL-encoded, as the last parameter.",
        body: documentedBody(signUrlInput),
        response: {
          200: {
            type: 'object',
            required: ['url', 'signature'],
            properties: { url: { type: 'string', description: 'The widget URL with `&signature=…` appended' }, signature: { type: 'string', description: 'The bare base64 signature' } },
          },
          ...errorResponses([...BODY_ERRORS, ...COMMON_ERRORS]),
        },
      },
    },
    async (request) => onramps.signUrl(request.body),
  );

  app.post(
    '/onramp-b/session-token',
    {
      ...judgedByService,
      schema: {
        tags: ['onramps'],
        operationId: 'onrampBSessionToken',
        summary: "A single-use on-ramp B session token (5 minutes) for one address, plus the wallet's partnerUserRef",
        description:
          'Every missing or malformed field is named in `error.details.issues`. At most 20 tokens per client IP per minute (RATE_LIMITED). The client IP sent to the provider is the trusted request address. `partnerUserRef` = base64url(SHA-256(lower-cased hexAddress followed by the salt `platform-cdp`)) without `=` padding, cut to 40 characters.',
        body: documentedBody(sessionTokenInput),
        response: {
          200: {
            type: 'object',
            required: ['sessionToken', 'partnerUserRef', 'expiresInSeconds'],
            properties: {
              sessionToken: { type: 'string' },
              partnerUserRef: { type: 'string', minLength: PARTNER_USER_REF_LENGTH, maxLength: PARTNER_USER_REF_LENGTH, pattern: '^[A-Za-z0-9_-]+$' },
              expiresInSeconds: { type: 'integer' },
            },
          },
          ...errorResponses([...BODY_ERRORS, 'UPSTREAM_UNAVAILABLE', ...COMMON_ERRORS]),
        },
      },
    },
    async (request) => onramps.sessionToken(request.body, { clientIp: request.ip, signal: requestSignal(request) }),
  );
}
