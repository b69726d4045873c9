import { randomInt } from 'node:crypto';
import type { Db } from '../../db/client';
import type { ChainWriterService } from '../chain-writes';
import type { PayoutStatus, WheelSegment, WheelSpin } from './model';
import { payoutWriteKey, WELCOME_WHEEL_PAYOUT_KIND, type PayoutPayload } from './payout';

/**
 * The welcome wheel: one spin per wallet, drawn on the server. The primary key on the wallet
 * decides parallel first spins (INSERT … ON CONFLICT DO NOTHING): every caller then answers with
 * the one stored row, so a second spin, or a racing one, returns the first result. The reward is
 * paid by one chain write per spin (key `welcome-wheel.payout:<wallet>`, so never twice), whose
 * state is the payout's: read from the write, never copied.
 */
export type { WheelSegment, WheelSpin } from './model';

export interface WelcomeWheelService {
  /** The segments as they pay under the configured cap. */
  table(): { maxReward: number; segments: WheelSegment[] };
  /** The wallet's spin, or null before it spun. */
  spinOf(wallet: string): Promise<WheelSpin | null>;
  /** Spins once; afterwards (and for racing calls) returns the stored first result unchanged. */
  spin(wallet: string): Promise<WheelSpin>;
}

/**
 * The documented reward table (weights out of 100). A segment above the configured maximum pays
 * the maximum instead: the odds stay as published and no spin ever pays more than the cap.
 */
export const WHEEL_TABLE: ReadonlyArray<{ reward: number; weight: number }> = [
  { reward: 10, weight: 40 },
  { reward: 25, weight: 30 },
  { reward: 50, weight: 15 },
  { reward: 100, weight: 10 },
  { reward: 250, weight: 4 },
  { reward: 1000, weight: 1 },
];

const TOTAL_WEIGHT = WHEEL_TABLE.reduce((sum, s) => sum + s.weight, 0);

/** The segment a uniform draw in [0, TOTAL_WEIGHT) lands on. */
export function segmentAt(ticket: number): number {
  let upTo = 0;
  for (const [index, s] of WHEEL_TABLE.entries()) {
    upTo += s.weight;
    if (ticket < upTo) return index;
  }
  throw new RangeError(`ticket ${ticket} is outside [0, ${TOTAL_WEIGHT})`);
}

interface Row {
  wallet_address: string;
  segment: number;
  reward: number;
  spun_at: Date | string;
  write_status: string | null;
  digest: string | null;
  effects_status: string | null;
  attempts: number | null;
  next_attempt_at: Date | string | null;
}

function payoutOf(r: Row): WheelSpin['payout'] {
  const waiting = r.write_status === null || r.write_status === 'queued';
  // Nothing to pay (a cap of 0) needs no transaction.
  const status: PayoutStatus = r.write_status === null && Number(r.reward) === 0 ? 'confirmed' : waiting ? 'pending' : (r.write_status as PayoutStatus);
  return {
    status,
    // A digest the chain executed (confirmed, or failed on chain), never one of bytes that did not run.
    txDigest: r.effects_status !== null && (r.write_status === 'confirmed' || r.write_status === 'failed') ? r.digest : null,
    attempts: Number(r.attempts ?? 0),
    nextAttemptAt: waiting && r.next_attempt_at ? new Date(r.next_attempt_at).toISOString() : null,
  };
}

const toSpin = (r: Row): WheelSpin => ({
  wallet: r.wallet_address,
  segment: Number(r.segment),
  reward: Number(r.reward),
  payout: payoutOf(r),
  spunAt: new Date(r.spun_at).toISOString(),
});

const SELECT = `SELECT s.wallet_address, s.segment, s.reward, s.spun_at,
                       w.status AS write_status, w.digest, w.effects_status, w.attempts, w.next_attempt_at
                  FROM welcome_wheel_spin s LEFT JOIN chain_write w ON w.idempotency_key = $2 || s.wallet_address
                 WHERE s.wallet_address = $1`;

export interface WelcomeWheelDeps {
  db: Db;
  maxReward: number;
  /** The chain writer, and the pool that pays (CHAIN.WELCOME_WHEEL_POOL_ID); without both, payouts stay `pending`. */
  payouts?: { chainWriter: ChainWriterService; poolId: string | undefined };
  draw?: (max: number) => number;
}

export function createWelcomeWheelService(deps: WelcomeWheelDeps): WelcomeWheelService {
  const draw = deps.draw ?? ((max: number) => randomInt(max));
  const capped = (reward: number) => Math.min(reward, deps.maxReward);
  const chainWriter = deps.payouts?.chainWriter;
  const poolId = deps.payouts?.poolId;
  const paying = Boolean(chainWriter?.configured && poolId);

  async function rowOf(wallet: string): Promise<Row | null> {
    const rows = await deps.db.query<Row>(SELECT, [wallet, `${WELCOME_WHEEL_PAYOUT_KIND}:`]);
    return rows[0] ?? null;
  }

  /**
   * Hands the payout to the chain writer unless it has it (idempotent by key). A process that died
   * between storing the spin and enqueuing, or a spin from before payouts were configured, gets it
   * on the next read or spin of that wallet.
   */
  async function ensurePayout(r: Row): Promise<Row> {
    if (r.write_status !== null || !paying || Number(r.reward) === 0) return r;
    const payload: PayoutPayload = { poolId: poolId!, player: r.wallet_address, reward: Number(r.reward) };
    const write = await chainWriter!.enqueue({ kind: WELCOME_WHEEL_PAYOUT_KIND, key: payoutWriteKey(r.wallet_address), payload: { ...payload } });
    return { ...r, write_status: write.status, digest: write.digest, effects_status: write.effectsStatus, attempts: write.attempts, next_attempt_at: write.nextAttemptAt };
  }

  async function spinOf(wallet: string): Promise<WheelSpin | null> {
    const row = await rowOf(wallet);
    return row && toSpin(await ensurePayout(row));
  }

  return {
    table: () => ({
      maxReward: deps.maxReward,
      segments: WHEEL_TABLE.map((s) => ({ reward: capped(s.reward), chancePercent: (s.weight * 100) / TOTAL_WEIGHT })),
    }),
    spinOf,
    async spin(wallet) {
      const earlier = await spinOf(wallet);
      if (earlier) return earlier;
      const segment = segmentAt(draw(TOTAL_WEIGHT));
      // A racing call may store its spin first: either way the stored row is the wallet's result.
      await deps.db.query('INSERT INTO welcome_wheel_spin (wallet_address, segment, reward) VALUES ($1, $2, $3) ON CONFLICT (wallet_address) DO NOTHING', [
        wallet,
        segment,
        capped(WHEEL_TABLE[segment].reward),
      ]);
      const stored = await spinOf(wallet);
      if (!stored) throw new Error('welcome wheel: the spin row vanished');
      return stored;
    },
  };
}
