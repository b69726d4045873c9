import type { FastifyInstance } from 'fastify';
import type { ErrorCode } from '../../errors';
import type { Services } from '../../services';
import { subnameClaimInput, subnameStatus } from '../../services/nameservice';
import { walletOf } from '../../edge/authorize';
import { documentedBody, judgedByService, modelSchema } from './input-schema';
import { COMMON_ERRORS, errorResponses } from './responses';

const SUBNAME_ID = 'NameserviceSubname';

const subnameSchema = {
  $id: SUBNAME_ID,
  type: 'object',
  required: ['wallet', 'label', 'name', 'parentDomain', 'status', 'txDigest', 'expiresAt', 'claimedAt'],
  properties: {
    wallet: { type: 'string', description: 'Sui address' },
    label: { type: 'string' },
    name: { type: 'string', description: '<label>.<parentDomain>' },
    parentDomain: { type: 'string' },
    status: modelSchema(subnameStatus, { description: 'Follows the chain write: pending until it ran' }),
    txDigest: { type: ['string', 'null'], description: 'The issuing transaction, once it ran' },
    expiresAt: { type: 'string', format: 'date-time' },
    claimedAt: { type: 'string', format: 'date-time' },
  },
} as const;

const AUTHENTICATED: readonly ErrorCode[] = ['UNAUTHENTICATED', 'TOKEN_INVALID', 'TOKEN_EXPIRED', ...COMMON_ERRORS];

/** Name-service sub-names: the caller's sub-name and eligibility, and the one claim per player. */
export async function nameserviceRoutes(app: FastifyInstance, services: Services): Promise<void> {
  app.addSchema(subnameSchema);
  const { nameservice } = services;

  app.get(
    '/nameservice/subname',
    {
      config: { access: 'wallet' },
      schema: {
        tags: ['nameservice'],
        operationId: 'nameserviceMySubname',
        summary: "The caller's sub-name (null before a claim) and whether its VIP level allows one",
        response: {
          200: {
            type: 'object',
            required: ['subname', 'eligibility'],
            properties: {
              subname: { anyOf: [{ $ref: `${SUBNAME_ID}#` }, { type: 'null' }] },
              eligibility: {
                type: 'object',
                required: ['vipLevel', 'minVipLevel', 'eligible', 'parentDomain'],
                properties: {
                  vipLevel: { type: 'integer', description: 'From the indexed VIP events; 0 without any' },
                  minVipLevel: { type: 'integer' },
                  eligible: { type: 'boolean' },
                  parentDomain: { type: ['string', 'null'], description: 'Null while sub-names are not configured' },
                },
              },
            },
          },
          ...errorResponses(AUTHENTICATED),
        },
      },
    },
    async (request) => {
      const wallet = walletOf(request);
      const [subname, eligibility] = await Promise.all([nameservice.subnameOf(wallet), nameservice.eligibility(wallet)]);
      return { subname, eligibility };
    },
  );

  app.post(
    '/nameservice/subname',
    {
      config: { access: 'wallet' },
      ...judgedByService,
      schema: {
        tags: ['nameservice'],
        operationId: 'nameserviceClaimSubname',
        summary: 'Claim the one sub-name `<label>.<parentDomain>` of this wallet; it is issued on chain afterwards (status pending → issued | failed)',
        body: documentedBody(subnameClaimInput),
        response: {
          201: { $ref: `${SUBNAME_ID}#` },
          ...errorResponses(['VALIDATION_FAILED', 'NOT_ELIGIBLE', 'NAME_TAKEN', 'ALREADY_CLAIMED', 'SERVICE_UNAVAILABLE', ...AUTHENTICATED]),
        },
      },
    },
    async (request, reply) => {
      const subname = await nameservice.claim(walletOf(request), request.body);
      return reply.code(201).send(subname);
    },
  );
}
