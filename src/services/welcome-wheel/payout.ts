// The chain write that pays a spin's reward.
import { isValidSuiAddress, isValidSuiObjectId } from '@mysten/sui/utils';
import { z } from 'zod';
import { CALL_TARGETS } from '../../chain-events/contract';
import { objectInput } from '../../providers/sui-write-inputs';
import { ChainWriteRejectedError, moveCallTarget, type ChainWriterService } from '../chain-writes';

export const WELCOME_WHEEL_PAYOUT_KIND = 'welcome-wheel.payout';
/** One payout per spin, and a wallet spins once: the write's idempotency key. */
export const payoutWriteKey = (wallet: string) => `${WELCOME_WHEEL_PAYOUT_KIND}:${wallet}`;

/** Fixed when the spin is stored, so a later change of settings never alters a queued payout. */
export const payoutPayload = z.object({
  poolId: z.string().refine(isValidSuiObjectId, 'poolId must be an object id'),
  player: z.string().refine(isValidSuiAddress, 'player must be a Sui address'),
  reward: z.number().int().min(0),
});
export type PayoutPayload = z.infer<typeof payoutPayload>;

/**
 * `welcome-wheel.payout` writes: `{PLATFORM_PACKAGE_ID}::welcome_wheel::payout(pool: &mut WheelPool,
 * player: address, reward: u64, ctx)`, the pool being CHAIN.WELCOME_WHEEL_POOL_ID (the spec names
 * no payout transaction; docs/decisions.md).
 */
export function registerWelcomeWheelPayout(chainWriter: ChainWriterService): void {
  const call = CALL_TARGETS[WELCOME_WHEEL_PAYOUT_KIND];
  chainWriter.register(
    WELCOME_WHEEL_PAYOUT_KIND,
    (tx, payload, { packageId }) => {
      const parsed = payoutPayload.safeParse(payload);
      if (!parsed.success) throw new ChainWriteRejectedError(`${WELCOME_WHEEL_PAYOUT_KIND}: invalid payload (${parsed.error.issues.map((i) => i.path.join('.')).join(', ')})`);
      const p = parsed.data;
      tx.moveCall({ target: moveCallTarget(packageId, call), arguments: [tx.object(objectInput(p.poolId, true)), tx.pure.address(p.player), tx.pure.u64(BigInt(p.reward))] });
    },
    { call, packageId: chainWriter.packageId },
  );
}
