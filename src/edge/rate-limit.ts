import { AppError } from '../errors';
import type { SharedStore } from '../store';
import { chargeRate, isOverLimit, rateLimited, type RateCharge } from '../store/rate-limit';

/**
 * The edge's rate limits, the same for HTTP, graphql-ws and Socket.IO. Both build on the one
 * helper in src/store/rate-limit.ts (which services use for their own limits), so every refusal is
 * `RATE_LIMITED` with `details.scope` and `details.retryAfterSeconds`.
 */

/** Of one request's charges (one per identity it carries), the one with the least room left: it decides, and a refusal names its scope. */
export function tightestCharge<S extends string>(charges: ReadonlyArray<readonly [scope: S, charge: RateCharge]>): { scope: S; charge: RateCharge } {
  let tightest = charges[0];
  for (const c of charges) if (c[1].limit - c[1].count < tightest[1].limit - tightest[1].count) tightest = c;
  return { scope: tightest[0], charge: tightest[1] };
}

/** What one websocket connection may send: counted in process (no store round trip per event). */
export interface EventLimits {
  /** Events (operations) per `eventWindowMs`; more are refused one by one. */
  eventsPerWindow: number;
  eventWindowMs: number;
  /** Messages per window beyond which the connection itself is closed, as a multiple of `eventsPerWindow`. */
  abuseFactor: number;
  /** Largest event accepted, in bytes. */
  maxEventBytes: number;
}

/**
 * `accept`: go on. `too-large` / `too-many`: refuse this one event with `refusal(verdict)` (the
 * connection and its other subscriptions go on). `abuse`: far beyond the limit: close the connection.
 */
export type EventVerdict = 'accept' | 'too-large' | 'too-many' | 'abuse';

/** One connection's event meter (fixed window), the same for graphql-ws and Socket.IO. */
export function createEventMeter(limits: EventLimits, now: () => number = Date.now) {
  let windowStart = now();
  let seen = 0;
  return {
    /** Counts a message of `bytes`; `refusable` false (protocol pings, completes) only counts towards abuse. */
    judge(bytes: number, refusable = true): EventVerdict {
      const t = now();
      if (t - windowStart >= limits.eventWindowMs) {
        windowStart = t;
        seen = 0;
      }
      seen += 1;
      if (seen > limits.eventsPerWindow * limits.abuseFactor) return 'abuse';
      if (!refusable) return 'accept';
      if (bytes > limits.maxEventBytes) return 'too-large';
      if (seen > limits.eventsPerWindow) return 'too-many';
      return 'accept';
    },
    /** The refusal each verdict stands for (the same codes as HTTP). */
    refusal(verdict: 'too-large' | 'too-many'): AppError {
      if (verdict === 'too-large') return new AppError('PAYLOAD_TOO_LARGE', `Event larger than ${limits.maxEventBytes} bytes`);
      const message = `Too many events: limit is ${limits.eventsPerWindow} per ${limits.eventWindowMs / 1000} s per connection`;
      return rateLimited(message, 'connection', windowStart + limits.eventWindowMs - now());
    },
  };
}

/** What all connections of one IP, of one wallet and of the whole gateway may send together per window (WEBSOCKET.EVENT_RATE_LIMIT_*). */
export interface SharedEventLimits {
  eventsPerService: number;
  eventsPerIp: number;
  eventsPerWallet: number;
  eventWindowMs: number;
}

/** The identities a connection's events are charged to: the gateway (id ''), its client IP, its verified wallet. */
export type EventScope = 'service' | 'ip' | 'wallet';

const PER: Record<EventScope, string> = { service: 'for the whole service', ip: 'per IP', wallet: 'per wallet' };

/**
 * The event caps per service, IP and wallet, counted in the shared store so that every replica and
 * both transports draw on one budget (the per-connection meter above stays in process). One
 * charge per event and scope, coalesced per busy key by the store; the refusal is `RATE_LIMITED`
 * with `details.scope` `events-service` / `events-ip` / `events-wallet`.
 */
export function createSharedEventCaps(store: Pick<SharedStore, 'hit'>, limits: SharedEventLimits) {
  const maxOf: Record<EventScope, number> = { service: limits.eventsPerService, ip: limits.eventsPerIp, wallet: limits.eventsPerWallet };
  const key = (scope: EventScope, id: string) => (scope === 'service' ? 'ws:events:service' : `ws:events:${scope}:${id}`);
  return {
    /** Charges one event to each scope; the refusal of the scope whose window ends last among those over, else null. */
    async charge(scopes: ReadonlyArray<readonly [EventScope, string]>): Promise<AppError | null> {
      const charges = await Promise.all(scopes.map(([scope, id]) => chargeRate(store, key(scope, id), { max: maxOf[scope], windowMs: limits.eventWindowMs })));
      let refused = -1;
      charges.forEach((c, i) => {
        if (isOverLimit(c) && (refused < 0 || c.resetMs > charges[refused].resetMs)) refused = i;
      });
      if (refused < 0) return null;
      const [scope] = scopes[refused];
      const charge = charges[refused];
      return rateLimited(`Too many events: limit is ${charge.limit} per ${limits.eventWindowMs / 1000} s ${PER[scope]}`, `events-${scope}`, charge.resetMs);
    },
  };
}

/**
 * Admits a connection's events in arrival order although each waits on its shared-store charge:
 * `admit(charge, deliver)` calls `deliver(refusal | null)` once this charge and every earlier
 * one have settled, so a later message (a graphql-ws `complete`, a second chat message) never
 * overtakes an earlier one. Only the admission is ordered; what `deliver` starts runs concurrently.
 */
export function createOrderedAdmission(onError: (err: unknown) => void) {
  let previous: Promise<unknown> = Promise.resolve();
  return (charge: Promise<AppError | null> | null, deliver: (refusal: AppError | null) => void): void => {
    const settled = previous.then(() => charge).then(
      (refusal) => refusal,
      (err: unknown) => {
        // the store failed (not an outage, which the store absorbs): the event is admitted
        onError(err);
        return null;
      },
    );
    previous = settled;
    void settled.then(deliver);
  };
}
