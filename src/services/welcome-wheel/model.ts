import { z } from 'zod';

/** A spin's payout: `pending` until a chain writer pays it, then `paid` (with the digest) or `failed`. */
export const payoutStatus = z.enum(['pending', 'paid', 'failed']);
export type PayoutStatus = z.infer<typeof payoutStatus>;
