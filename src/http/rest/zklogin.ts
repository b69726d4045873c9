import type { FastifyInstance } from 'fastify';
import type { Services } from '../../services';
import { walletOf } from '../../edge/authorize';
import { COMMON_ERRORS, errorResponses } from './responses';

const identitySchema = {
  type: 'object',
  required: ['issuer', 'audience', 'subject', 'email', 'createdAt', 'lastLoginAt'],
  properties: {
    issuer: { type: 'string', description: 'OpenID issuer (`iss`)' },
    audience: { type: 'string', description: 'The client ID the ID token was issued to (`aud`)' },
    subject: { type: 'string', description: 'The account at the issuer (`sub`)' },
    email: { type: ['string', 'null'], description: 'Verified email from the ID token, when it carried one' },
    createdAt: { type: 'string', format: 'date-time', description: 'First zkLogin of this identity' },
    lastLoginAt: { type: ['string', 'null'], format: 'date-time' },
  },
} as const;

/** The zkLogin identities collected for the logged-in wallet (login itself is POST /api/auth/zklogin). */
export async function zkLoginRoutes(app: FastifyInstance, services: Services): Promise<void> {
  app.get(
    '/auth/zklogin/identities',
    {
      config: { access: 'wallet' },
      schema: {
        tags: ['auth'],
        operationId: 'authZkLoginIdentities',
        summary: "The zkLogin identities (collected ID token claims) behind the caller's wallet",
        description: 'Each verified zkLogin ID token is recorded as issuer + audience + subject; the zkLogin salt is never returned.',
        response: {
          200: { type: 'object', required: ['identities'], properties: { identities: { type: 'array', items: identitySchema } } },
          ...errorResponses(['UNAUTHENTICATED', 'TOKEN_INVALID', 'TOKEN_EXPIRED', ...COMMON_ERRORS]),
        },
      },
    },
    async (request) => ({ identities: await services.zklogin.identities(walletOf(request)) }),
  );
}
