import type { Config } from '../config';
import type { SharedStore } from '../store';
import { enforceRate, type RateLimit } from '../store/rate-limit';

/** The setting sections a declared limit may read (src/config/index.ts). */
export type LimitSettings = Pick<Config, 'chat'>;

/**
 * A declared operation's own rate limit: charged once per call, whatever the transport (REST,
 * GraphQL over HTTP or graphql-ws, Socket.IO), to the caller's IP or wallet, across replicas.
 * A new limit is a setting and one line in the operation's declaration.
 */
export interface OperationLimit {
  per: 'ip' | 'wallet';
  rate(settings: LimitSettings): RateLimit;
}

const WHO = { ip: 'IP address', wallet: 'wallet' } as const;

/** The one charger of declared limits (services.limits): the refusal is RATE_LIMITED naming the scope, as every limit's. */
export function createOperationLimits(deps: { store: Pick<SharedStore, 'hit'>; settings: LimitSettings }) {
  return {
    async charge(operation: string, limits: readonly OperationLimit[] | undefined, caller: { ip: string; wallet: string | null }): Promise<void> {
      for (const limit of limits ?? []) {
        const id = limit.per === 'ip' ? caller.ip : caller.wallet;
        if (!id) continue;
        const rate = limit.rate(deps.settings);
        await enforceRate(deps.store, `op:${operation}:${limit.per}:${id}`, rate, {
          scope: limit.per,
          message: (charge) => `Too many ${operation} calls: limit is ${charge.limit} per ${rate.windowMs / 1000} s per ${WHO[limit.per]}`,
        });
      }
    },
  };
}

export type OperationLimits = ReturnType<typeof createOperationLimits>;
