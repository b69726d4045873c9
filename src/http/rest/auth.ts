import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Services } from '../../services';
import { challengeInput, loginInput, refreshInput, zkLoginInput } from '../../services/auth';
import type { ClientMeta } from '../../services/auth';
import { walletOf } from '../../edge/authorize';
import { COMMON_ERRORS, errorResponses } from './responses';
import { documentedBody, judgedByService } from './input-schema';

const TOKEN_BODY_ID = 'AuthTokens';
const tokenBodySchema = {
  $id: TOKEN_BODY_ID,
  type: 'object',
  required: ['accessToken', 'refreshToken', 'tokenType', 'expiresIn'],
  properties: {
    accessToken: { type: 'string', description: 'HS256 JWT; send as `Authorization: Bearer <accessToken>`' },
    refreshToken: { type: 'string', description: 'Opaque, single use: POST it to /api/auth/refresh for a new pair' },
    tokenType: { type: 'string', enum: ['Bearer'] },
    expiresIn: { type: 'integer', description: 'Access token lifetime in seconds' },
  },
} as const;

const meta = (request: FastifyRequest): ClientMeta => ({ ip: request.ip, userAgent: request.headers['user-agent'] });

/** Login (wallet signature or zkLogin), token refresh and logout. */
export async function authRoutes(app: FastifyInstance, services: Services): Promise<void> {
  app.addSchema(tokenBodySchema);
  const { auth } = services;

  app.post(
    '/auth/challenge',
    {
      ...judgedByService,
      schema: {
        tags: ['auth'],
        operationId: 'authChallenge',
        summary: 'A single-use message for the wallet to sign (expires in 5 minutes)',
        body: documentedBody(challengeInput),
        response: {
          200: {
            type: 'object',
            required: ['nonce', 'message', 'expiresAt'],
            properties: {
              nonce: { type: 'string' },
              message: { type: 'string', description: 'The exact text to sign with signPersonalMessage' },
              expiresAt: { type: 'string', format: 'date-time' },
            },
          },
          ...errorResponses(['VALIDATION_FAILED', ...COMMON_ERRORS]),
        },
      },
    },
    async (request) => auth.challenge(request.body, { ip: request.ip }),
  );

  app.post(
    '/auth/login',
    {
      ...judgedByService,
      schema: {
        tags: ['auth'],
        operationId: 'authLogin',
        summary: 'Log in with a signed challenge',
        description: '`signature` is the base64 serialized signature a Sui wallet returns (Ed25519, Secp256k1, Secp256r1, multisig or zkLogin).',
        body: documentedBody(loginInput),
        response: {
          200: { $ref: `${TOKEN_BODY_ID}#` },
          ...errorResponses(['VALIDATION_FAILED', 'CHALLENGE_INVALID', 'CHALLENGE_EXPIRED', 'SIGNATURE_INVALID', 'UPSTREAM_UNAVAILABLE', ...COMMON_ERRORS]),
        },
      },
    },
    async (request) => auth.login(request.body, meta(request)),
  );

  app.post(
    '/auth/zklogin',
    {
      ...judgedByService,
      schema: {
        tags: ['auth'],
        operationId: 'authZkLogin',
        summary: 'Log in with an identity-provider ID token (zkLogin)',
        body: documentedBody(zkLoginInput),
        response: {
          200: {
            type: 'object',
            required: [...tokenBodySchema.required, 'address'],
            properties: { ...tokenBodySchema.properties, address: { type: 'string', description: 'The zkLogin Sui address' } },
          },
          ...errorResponses(['VALIDATION_FAILED', 'ID_TOKEN_INVALID', 'UPSTREAM_UNAVAILABLE', 'SERVICE_UNAVAILABLE', ...COMMON_ERRORS]),
        },
      },
    },
    async (request) => auth.zkLogin(request.body, meta(request)),
  );

  app.post(
    '/auth/refresh',
    {
      ...judgedByService,
      schema: {
        tags: ['auth'],
        operationId: 'authRefresh',
        summary: 'Exchange a refresh token for a new token pair (the old refresh token is spent)',
        description: 'Presenting an already spent refresh token revokes every token of its login (REFRESH_TOKEN_REUSED). A refresh that races its login\'s logout either completes first (and the logout revokes the new token too) or answers REFRESH_TOKEN_INVALID, as after the logout.',
        body: documentedBody(refreshInput),
        response: {
          200: { $ref: `${TOKEN_BODY_ID}#` },
          ...errorResponses(['VALIDATION_FAILED', 'REFRESH_TOKEN_INVALID', 'REFRESH_TOKEN_REUSED', ...COMMON_ERRORS]),
        },
      },
    },
    async (request) => auth.refresh(request.body, meta(request)),
  );

  app.post(
    '/auth/logout',
    {
      config: { access: 'wallet' },
      ...judgedByService,
      schema: {
        tags: ['auth'],
        operationId: 'authLogout',
        summary: 'Revoke the login of a refresh token (needs the access token)',
        body: documentedBody(refreshInput),
        response: {
          204: { type: 'null', description: 'Logged out' },
          ...errorResponses(['VALIDATION_FAILED', 'UNAUTHENTICATED', 'TOKEN_INVALID', 'TOKEN_EXPIRED', 'REFRESH_TOKEN_INVALID', ...COMMON_ERRORS]),
        },
      },
    },
    async (request, reply) => {
      await auth.logout(walletOf(request), request.body);
      return reply.code(204).send();
    },
  );
}
