import { randomInt } from 'node:crypto';
import type { Db } from '../../db/client';
import type { PayoutStatus } from './model';

/**
 * The welcome wheel: one spin per wallet, drawn on the server. The primary key on the wallet
 * decides parallel first spins (INSERT … ON CONFLICT DO NOTHING): every caller then answers with
 * the one stored row, so a second spin, or a racing one, returns the first result.
 */
export interface WheelSegment {
  /** Whole reward units as paid (after the GENERAL.WELCOME_WHEEL_MAX_REWARD cap). */
  reward: number;
  /** Chance of landing here, in percent (the weights below over their sum). */
  chancePercent: number;
}

export interface WheelSpin {
  wallet: string;
  segment: number;
  reward: number;
  /** `pending` until a chain writer pays it; then `paid` with the transaction digest. */
  payout: { status: PayoutStatus; txDigest: string | null };
  /** ISO 8601 */
  spunAt: string;
}

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
  payout_status: WheelSpin['payout']['status'];
  payout_tx_digest: string | null;
  spun_at: Date | string;
}

const toSpin = (r: Row): WheelSpin => ({
  wallet: r.wallet_address,
  segment: Number(r.segment),
  reward: Number(r.reward),
  payout: { status: r.payout_status, txDigest: r.payout_tx_digest },
  spunAt: new Date(r.spun_at).toISOString(),
});

const COLUMNS = 'wallet_address, segment, reward, payout_status, payout_tx_digest, spun_at';

export function createWelcomeWheelService(deps: { db: Db; maxReward: number; draw?: (max: number) => number }): WelcomeWheelService {
  const draw = deps.draw ?? ((max: number) => randomInt(max));
  const capped = (reward: number) => Math.min(reward, deps.maxReward);

  async function spinOf(wallet: string): Promise<WheelSpin | null> {
    const rows = await deps.db.query<Row>(`SELECT ${COLUMNS} FROM welcome_wheel_spin WHERE wallet_address = $1`, [wallet]);
    return rows[0] ? toSpin(rows[0]) : null;
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
      const inserted = await deps.db.query<Row>(
        `INSERT INTO welcome_wheel_spin (wallet_address, segment, reward) VALUES ($1, $2, $3)
           ON CONFLICT (wallet_address) DO NOTHING RETURNING ${COLUMNS}`,
        [wallet, segment, capped(WHEEL_TABLE[segment].reward)],
      );
      if (inserted[0]) return toSpin(inserted[0]);
      // A racing call stored its spin first: that one is the wallet's result.
      const winner = await spinOf(wallet);
      if (!winner) throw new Error('welcome wheel: conflicting spin row vanished');
      return winner;
    },
  };
}
