import type { KindKey } from '../chain-events/kinds';
import type { Logger } from '../observability/logger';

/** What domains may react to, and what each event carries. */
export interface HookEvents {
  /** The indexer committed a batch of chain events (emitted after its transaction, only when rows were inserted). */
  chainIndexed: {
    kind: KindKey;
    events: ReadonlyArray<{ timestampMs: number; data: unknown }>;
    /** Live news: neither a backfill nor a replay of stored rows. */
    news: boolean;
  };
  /** A wallet logged in (signature or zkLogin); `at` is the auth service's clock. */
  walletLoggedIn: { wallet: string; at: Date };
}

export type HookName = keyof HookEvents;
export type HookHandler<N extends HookName> = (payload: HookEvents[N]) => void | Promise<void>;

export interface Hooks {
  /** Subscribes a domain; returns the unsubscribe. */
  on<N extends HookName>(name: N, handler: HookHandler<N>): () => void;
  /** Runs every subscriber later, never in the emitter's path: nothing to await, a subscriber's error is logged. */
  emit<N extends HookName>(name: N, payload: HookEvents[N]): void;
}

export function createHooks(logger: Logger): Hooks {
  const log = logger.child({ component: 'hooks' });
  const handlers = new Map<HookName, Set<HookHandler<never>>>();
  return {
    on(name, handler) {
      const set = handlers.get(name) ?? new Set();
      handlers.set(name, set);
      set.add(handler as HookHandler<never>);
      return () => void set.delete(handler as HookHandler<never>);
    },
    emit(name, payload) {
      for (const handler of handlers.get(name) ?? []) {
        Promise.resolve()
          .then(() => (handler as HookHandler<typeof name>)(payload))
          .catch((err: unknown) => log.warn({ err, hook: name }, 'a hook subscriber failed'));
      }
    },
  };
}
