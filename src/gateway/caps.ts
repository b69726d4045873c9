import type { Config } from '../config';
import { renewMembers, type SharedStore } from '../store';

/**
 * Connections per service, IP and wallet, and each connection's event limits: the WEBSOCKET.*
 * settings (src/config/settings.ts says what each means).
 */
export type ConnectionCaps = Config['websocket'];

/** A connection's membership lease is renewed while it lives, so a crashed replica's entries expire. */
export const LEASE_TTL_MS = 90_000;
export const LEASE_RENEW_MS = 30_000;

export type Scope = 'service' | 'ip' | 'wallet';

/**
 * Connection leases in the shared store, one set per scope. `admit` adds the connection to
 * each set and backs out (returning the scope that is full) if any set is over its cap.
 */
export function createConnectionLeases(store: SharedStore, caps: ConnectionCaps) {
  const key = (scope: Scope, id: string) => (scope === 'service' ? 'ws:conn:service' : `ws:conn:${scope}:${id}`);
  const capOf = (scope: Scope) => (scope === 'service' ? caps.perService : scope === 'ip' ? caps.perIp : caps.perWallet);
  const held = new Map<string, Array<[Scope, string]>>();
  let timer: NodeJS.Timeout | undefined;

  const renewHeld = () =>
    renewMembers(
      store,
      (add) => {
        for (const [connId, scopes] of held) for (const [scope, id] of scopes) add(key(scope, id), connId);
      },
      LEASE_TTL_MS,
    ).catch(() => undefined);

  return {
    async admit(connId: string, scopes: Array<[Scope, string]>): Promise<Scope | null> {
      const added: string[] = [];
      for (const [scope, id] of scopes) {
        const k = key(scope, id);
        const count = await store.addMember(k, connId, LEASE_TTL_MS);
        added.push(k);
        if (count > capOf(scope)) {
          await Promise.all(added.map((a) => store.removeMember(a, connId)));
          return scope;
        }
      }
      return null;
    },
    /**
     * Keeps a live connection's leases renewed (its `scopes` array is read at each pass, so scopes
     * added later count) until the returned function is called. One pass every LEASE_RENEW_MS for
     * all connections, one store command per set and 1,000 connections.
     */
    hold(connId: string, scopes: Array<[Scope, string]>): () => void {
      held.set(connId, scopes);
      if (!timer) {
        timer = setInterval(() => void renewHeld(), LEASE_RENEW_MS);
        timer.unref();
      }
      return () => {
        held.delete(connId);
        if (held.size === 0 && timer) {
          clearInterval(timer);
          timer = undefined;
        }
      };
    },
    async release(connId: string, scopes: Array<[Scope, string]>): Promise<void> {
      await Promise.all(scopes.map(([scope, id]) => store.removeMember(key(scope, id), connId)));
    },
  };
}
