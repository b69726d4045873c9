import { z } from 'zod';
import { named } from '../model-names';

/**
 * A spin's payout, read from its chain write: `pending` (not sent yet, maybe waiting for its next
 * attempt after a transient failure) → `submitted` → `confirmed` (with the digest) | `failed`
 * (an operator may queue it again: `pending`); `cancelled` by an operator. `paid` is never
 * answered any more (it was the placeholder before the chain writer paid spins; `confirmed` replaced it).
 */
export const payoutStatus = z.enum(['pending', 'paid', 'failed', 'submitted', 'confirmed', 'cancelled']);
export type PayoutStatus = z.infer<typeof payoutStatus>;

/** A segment of the table as it pays under the cap, and its chance. */
export const wheelSegmentModel = named(
  'WelcomeWheelSegment',
  z.object({
    reward: z.int().describe('Whole reward units as paid (capped at maxReward)'),
    chancePercent: z.number(),
  }),
);
export type WheelSegment = z.infer<typeof wheelSegmentModel>;

export const wheelTableModel = named('WelcomeWheelTable', z.object({ maxReward: z.int(), segments: z.array(wheelSegmentModel) }));

export const wheelSpinModel = named(
  'WelcomeWheelSpin',
  z
    .object({
      wallet: z.string().describe('Sui address'),
      segment: z.int().min(0).describe('Index into the table of GET /api/welcome-wheel (welcomeWheel.segments)'),
      reward: z.int().min(0).describe('Whole reward units, never above maxReward'),
      payout: named(
        'WelcomeWheelPayout',
        z.object({
          status: named('WelcomeWheelPayoutStatus', payoutStatus).describe(
            'pending (not sent yet, or waiting for its next attempt) → submitted → confirmed (txDigest) | failed; cancelled by an operator. `paid` is no longer answered.',
          ),
          txDigest: z.string().nullable().describe('The payout transaction, once it executed'),
          attempts: z.int().min(0).describe('Attempts so far (transient failures are retried automatically)'),
          nextAttemptAt: z.iso.datetime().nullable().describe('When a payout waiting after a transient failure is tried again (ISO 8601)'),
        }),
      ),
      spunAt: z.iso.datetime().describe('ISO 8601'),
    })
    .describe("A wallet's one welcome-wheel spin"),
);
export type WheelSpin = z.infer<typeof wheelSpinModel>;
