import { z } from 'zod';
import { named } from '../model-names';

/** A sub-name follows its chain write: `pending` until it ran, then `issued` (with the digest) or `failed`. */
export const subnameStatus = z.enum(['pending', 'issued', 'failed']);
export type SubnameStatus = z.infer<typeof subnameStatus>;

/** A player's one sub-name, as both APIs answer it. */
export const subnameModel = named(
  'Subname',
  z
    .object({
      wallet: z.string().describe('Sui address'),
      label: z.string(),
      name: z.string().describe('<label>.<parentDomain>'),
      parentDomain: z.string(),
      status: named('SubnameStatus', subnameStatus).describe('Follows the chain write: pending until it ran, then issued (txDigest set) or failed'),
      txDigest: z.string().nullable().describe('The issuing transaction, once it ran'),
      expiresAt: z.iso.datetime().describe('ISO 8601: when it expires on chain'),
      claimedAt: z.iso.datetime().describe('ISO 8601'),
    })
    .describe("A player's one name-service sub-name"),
);
export type Subname = z.infer<typeof subnameModel>;

/** Whether a player's VIP level allows a sub-name. */
export const subnameEligibilityModel = named(
  'SubnameEligibility',
  z.object({
    vipLevel: z.int().describe('From the indexed VIP events; 0 without any'),
    minVipLevel: z.int(),
    eligible: z.boolean(),
    parentDomain: z.string().nullable().describe('Null while sub-names are not configured'),
  }),
);
export type SubnameEligibility = z.infer<typeof subnameEligibilityModel>;
