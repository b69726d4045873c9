import { z } from 'zod';

/**
 * A spin's payout, read from its chain write: `pending` (not sent yet, maybe waiting for its next
 * attempt after a transient failure) → `submitted` → `confirmed` (with the digest) | `failed`
 * (an operator may queue it again: `pending`); `cancelled` by an operator. `paid` is never
 * answered any more (it was the placeholder before the chain writer paid spins; `confirmed` replaced it).
 */
export const payoutStatus = z.enum(['pending', 'paid', 'failed', 'submitted', 'confirmed', 'cancelled']);
export type PayoutStatus = z.infer<typeof payoutStatus>;
