import type { FastifyInstance } from 'fastify';
import type { ErrorCode } from '../../errors';
import type { Services } from '../../services';
import { profilePatchInput, startEmailVerificationInput, verifyEmailInput } from '../../services/users';
import { walletOf } from '../../edge/authorize';
import { documentedBody, judgedByService } from './input-schema';
import { COMMON_ERRORS, errorResponses } from './responses';

const PROFILE_ID = 'Profile';
const nullableString = { type: ['string', 'null'] } as const;
const timestamp = { type: 'string', format: 'date-time' } as const;

/** The caller's profile (services/users/service.ts ProfileView). Social links are served under their own paths. */
const profileSchema = {
  $id: PROFILE_ID,
  type: 'object',
  required: ['walletAddress', 'displayName', 'avatarUrl', 'bio', 'email', 'emailVerified', 'emailVerifiedAt', 'createdAt', 'updatedAt'],
  properties: {
    walletAddress: { type: 'string', description: 'Sui address (0x + 64 hex digits)' },
    displayName: nullableString,
    avatarUrl: nullableString,
    bio: nullableString,
    email: { ...nullableString, description: 'The verified address; null until one is verified' },
    emailVerified: { type: 'boolean' },
    emailVerifiedAt: { type: ['string', 'null'], format: 'date-time' },
    createdAt: timestamp,
    updatedAt: timestamp,
  },
} as const;

/** Errors of every route that needs an access token. */
const AUTHENTICATED: readonly ErrorCode[] = ['UNAUTHENTICATED', 'TOKEN_INVALID', 'TOKEN_EXPIRED', ...COMMON_ERRORS];
const BODY: readonly ErrorCode[] = ['VALIDATION_FAILED', 'BAD_REQUEST', 'UNSUPPORTED_MEDIA_TYPE'];

/** The caller's profile and email verification. */
export async function usersRoutes(app: FastifyInstance, services: Services): Promise<void> {
  app.addSchema(profileSchema);
  const { users } = services;

  app.get(
    '/users/me',
    {
      config: { access: 'wallet' },
      schema: {
        tags: ['users'],
        operationId: 'usersMe',
        summary: "The caller's profile (created on first use)",
        response: { 200: { $ref: `${PROFILE_ID}#` }, ...errorResponses(AUTHENTICATED) },
      },
    },
    async (request) => users.me(walletOf(request)),
  );

  app.patch(
    '/users/me',
    {
      config: { access: 'wallet' },
      ...judgedByService,
      schema: {
        tags: ['users'],
        operationId: 'usersUpdateMe',
        summary: "Change the caller's profile: only the given fields change, null clears one",
        body: documentedBody(profilePatchInput(false)),
        response: { 200: { $ref: `${PROFILE_ID}#` }, ...errorResponses([...BODY, ...AUTHENTICATED]) },
      },
    },
    async (request) => users.updateProfile(walletOf(request), request.body),
  );

  app.post(
    '/users/me/email',
    {
      config: { access: 'wallet' },
      ...judgedByService,
      schema: {
        tags: ['users'],
        operationId: 'usersStartEmailVerification',
        summary: 'Mail a verification link to an address (at most 5 mails per hour per profile)',
        description:
          'The link opens `${APP_URL}/verify-email?token=…`; that page POSTs the token to /api/users/email/verify. Asking again invalidates older links. The address becomes the profile\'s `email` only once verified.',
        body: documentedBody(startEmailVerificationInput),
        response: {
          202: {
            type: 'object',
            required: ['email', 'expiresAt'],
            properties: { email: { type: 'string', description: 'The address the link was sent to (lower case)' }, expiresAt: timestamp },
          },
          ...errorResponses([...BODY, 'CONFLICT', 'SERVICE_UNAVAILABLE', 'UPSTREAM_UNAVAILABLE', ...AUTHENTICATED]),
        },
      },
    },
    async (request, reply) => {
      const started = await users.startEmailVerification(walletOf(request), request.body);
      reply.code(202);
      return started;
    },
  );

  app.post(
    '/users/email/verify',
    {
      ...judgedByService,
      // The link is opened from the mail, maybe on another device: the token alone proves the address.
      config: { skipAuth: true },
      schema: {
        tags: ['users'],
        operationId: 'usersVerifyEmail',
        summary: 'Verify an address with the token from the mailed link (single use)',
        description: 'There is no GET form: mail scanners open links, and opening one must not verify anything.',
        body: documentedBody(verifyEmailInput),
        response: {
          200: { type: 'object', required: ['email', 'emailVerifiedAt'], properties: { email: { type: 'string' }, emailVerifiedAt: timestamp } },
          ...errorResponses([...BODY, 'EMAIL_TOKEN_INVALID', 'EMAIL_TOKEN_EXPIRED', 'CONFLICT', ...COMMON_ERRORS]),
        },
      },
    },
    async (request) => users.verifyEmail(request.body),
  );
}
