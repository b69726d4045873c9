import type { ConnectionCaps } from './caps';

/**
 * `accept`: go on. `too-large` / `too-many`: refuse this one event with an error (the connection
 * and its other subscriptions go on). `abuse`: far beyond the limit: close the connection.
 */
export type EventVerdict = 'accept' | 'too-large' | 'too-many' | 'abuse';

/** One connection's event meter (fixed window), the same for graphql-ws and Socket.IO. */
export function createEventMeter(caps: Pick<ConnectionCaps, 'eventsPerWindow' | 'eventWindowMs' | 'abuseFactor' | 'maxEventBytes'>, now: () => number = Date.now) {
  let windowStart = now();
  let seen = 0;
  return {
    /** Counts a message of `bytes`; `refusable` false (protocol pings, completes) only counts towards abuse. */
    judge(bytes: number, refusable = true): EventVerdict {
      const t = now();
      if (t - windowStart >= caps.eventWindowMs) {
        windowStart = t;
        seen = 0;
      }
      seen += 1;
      if (seen > caps.eventsPerWindow * caps.abuseFactor) return 'abuse';
      if (!refusable) return 'accept';
      if (bytes > caps.maxEventBytes) return 'too-large';
      if (seen > caps.eventsPerWindow) return 'too-many';
      return 'accept';
    },
  };
}

/** The refusal each verdict stands for (same codes as HTTP). */
export function refusalOf(verdict: 'too-large' | 'too-many', caps: Pick<ConnectionCaps, 'eventsPerWindow' | 'eventWindowMs' | 'maxEventBytes'>) {
  return verdict === 'too-large'
    ? { code: 'PAYLOAD_TOO_LARGE' as const, message: `Event larger than ${caps.maxEventBytes} bytes` }
    : { code: 'RATE_LIMITED' as const, message: `Too many events: limit is ${caps.eventsPerWindow} per ${caps.eventWindowMs / 1000} s per connection` };
}
