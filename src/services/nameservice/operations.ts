import { z } from 'zod';
import { walletOf } from '../../edge/authorize';
import { operationsOver, type OperationSet } from '../operation';
import { subnameEligibilityModel, subnameModel } from './model';
import type { NameserviceService } from './service';
import { subnameClaimInput } from './subname';

type Svc = { nameservice: NameserviceService };
const operation = operationsOver<Svc>();
const TAG = 'nameservice';

/**
 * Name-service sub-names (./service.ts): the caller's sub-name and eligibility, and the one claim
 * per player. REST answers both reads in one (`GET /api/nameservice/subname`); GraphQL has a field each.
 */
export const nameserviceOperations: OperationSet<Svc> = {
  domain: 'nameservice',
  components: [{ model: subnameModel, id: 'NameserviceSubname' }],
  operations: [
    operation({
      summary: "The caller's sub-name (null before a claim) and whether its VIP level allows one",
      kind: 'query',
      access: 'wallet',
      output: z.object({ subname: subnameModel.nullable(), eligibility: subnameEligibilityModel }),
      rest: { method: 'GET', path: '/nameservice/subname', operationId: 'nameserviceMySubname', tag: TAG },
      handle: async ({ nameservice }, { caller }) => {
        const wallet = walletOf(caller);
        const [subname, eligibility] = await Promise.all([nameservice.subnameOf(wallet), nameservice.eligibility(wallet)]);
        return { subname, eligibility };
      },
    }),
    operation({
      summary: "The caller's sub-name, null before a claim (access token required)",
      kind: 'query',
      access: 'wallet',
      output: subnameModel.nullable(),
      graphql: { field: 'mySubname' },
      handle: ({ nameservice }, { caller }) => nameservice.subnameOf(walletOf(caller)),
    }),
    operation({
      summary: "Whether the caller's VIP level allows a sub-name (access token required)",
      kind: 'query',
      access: 'wallet',
      output: subnameEligibilityModel,
      graphql: { field: 'subnameEligibility', cache: 'walletChainView' },
      handle: ({ nameservice }, { caller }) => nameservice.eligibility(walletOf(caller)),
    }),
    operation({
      summary: 'Claim the one sub-name `<label>.<parentDomain>` of this wallet; it is issued on chain afterwards (status pending → issued | failed)',
      kind: 'mutation',
      access: 'wallet',
      input: subnameClaimInput,
      output: subnameModel,
      errors: ['VALIDATION_FAILED', 'NOT_ELIGIBLE', 'NAME_TAKEN', 'ALREADY_CLAIMED', 'SERVICE_UNAVAILABLE'],
      rest: { method: 'POST', path: '/nameservice/subname', operationId: 'nameserviceClaimSubname', tag: TAG, status: 201 },
      graphql: { field: 'claimSubname', spread: true },
      handle: ({ nameservice }, { caller, input }) => nameservice.claim(walletOf(caller), input),
    }),
  ],
};
