import { AppError } from '../errors';
import type { SharedStore } from './types';

/** A fixed-window limit: at most `max` charges per `windowMs`. */
export interface RateLimit {
  max: number;
  windowMs: number;
}

/** One charge against a limit. */
export interface RateCharge {
  /** Charges in the current window, this one included. */
  count: number;
  /** The limit this process applies: `max` times the store's share (a Redis outage divides it between replicas), at least 1. */
  limit: number;
  /** Milliseconds until the window resets. */
  resetMs: number;
}

/** Whole seconds until a retry can pass, at least 1: `details.retryAfterSeconds` and the HTTP `Retry-After`. */
export const retryAfterSeconds = (resetMs: number): number => Math.max(1, Math.ceil(resetMs / 1000));

export const isOverLimit = (charge: RateCharge): boolean => charge.count > charge.limit;

/** Charges one unit to `key` in the shared store: every replica and transport counts against one budget. */
export async function chargeRate(store: Pick<SharedStore, 'hit'>, key: string, limit: RateLimit): Promise<RateCharge> {
  const hit = await store.hit(key, limit.windowMs);
  return { count: hit.count, limit: Math.max(1, Math.floor(limit.max * hit.share)), resetMs: hit.resetMs };
}

/** The refusal of every rate limit: `RATE_LIMITED` naming the limit that refused (`scope`) and when to retry. */
export function rateLimited(message: string, scope: string, resetMs: number): AppError {
  return new AppError('RATE_LIMITED', message, { scope, retryAfterSeconds: retryAfterSeconds(resetMs) });
}

export interface RateRefusal {
  scope: string;
  /** The refusal's message, from the charge that went over (its `limit` is the one in force). */
  message: (charge: RateCharge) => string;
}

/** Charges `key` and throws `rateLimited` once the window's count is over the limit. */
export async function enforceRate(store: Pick<SharedStore, 'hit'>, key: string, limit: RateLimit, refusal: RateRefusal): Promise<RateCharge> {
  const charge = await chargeRate(store, key, limit);
  if (isOverLimit(charge)) throw rateLimited(refusal.message(charge), refusal.scope, charge.resetMs);
  return charge;
}
