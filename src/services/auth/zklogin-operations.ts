import { z } from 'zod';
import { walletOf } from '../../edge/authorize';
import { named } from '../model-names';
import { operationsOver, type OperationSet } from '../operation';
import type { ZkLoginService } from './zklogin';

type Svc = { zklogin: ZkLoginService };
const operation = operationsOver<Svc>();

/** Written as GraphQL's DateTimeISO (the records carry Dates). */
const at = named('DateTimeISO', z.iso.datetime());

/** A zkLogin identity as its wallet may see it (the salt never leaves the database). */
export const zkLoginIdentityModel = named(
  'ZkLoginIdentity',
  z
    .object({
      issuer: z.string().describe('OpenID issuer (`iss`)'),
      audience: z.string().describe('The client ID the ID token was issued to (`aud`)'),
      subject: z.string().describe('The account at the issuer (`sub`)'),
      email: z.string().nullable().describe('Verified email from the ID token, when it carried one'),
      createdAt: at.describe('First zkLogin of this identity'),
      lastLoginAt: at.nullable(),
    })
    .describe('A zkLogin identity (the claims of a verified ID token) behind a wallet; the salt is never exposed'),
);

/** The zkLogin identities of the caller's wallet (login itself is POST /api/auth/zklogin). */
export const zkLoginOperations: OperationSet<Svc> = {
  domain: 'zklogin',
  operations: [
    operation({
      summary: "The zkLogin identities (collected ID token claims) behind the caller's wallet (access token required)",
      description: 'Each verified zkLogin ID token is recorded as issuer + audience + subject; the zkLogin salt is never returned.',
      kind: 'query',
      access: 'wallet',
      output: z.array(zkLoginIdentityModel),
      rest: { method: 'GET', path: '/auth/zklogin/identities', operationId: 'authZkLoginIdentities', tag: 'auth', envelope: 'identities' },
      graphql: { field: 'zkLoginIdentities' },
      handle: ({ zklogin }, { caller }) => zklogin.identities(walletOf(caller)),
    }),
  ],
};
