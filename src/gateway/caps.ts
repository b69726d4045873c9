import { renewMembers, type SharedStore } from '../store';

export interface ConnectionCaps {
  perService: number;
  perIp: number;
  perWallet: number;
  /** Events (operations) a single connection may send per `eventWindowMs`; more are refused one by one. */
  eventsPerWindow: number;
  eventWindowMs: number;
  /** Messages per window beyond which the connection itself is closed (abuse), as a multiple of `eventsPerWindow`. */
  abuseFactor: number;
  /** Largest event accepted, in bytes; a larger one is refused (PAYLOAD_TOO_LARGE) and the connection stays. */
  maxEventBytes: number;
  /** Largest websocket frame or Socket.IO packet, in bytes: beyond it the transport closes the connection. */
  maxPayloadBytes: number;
}

export const DEFAULT_CAPS: ConnectionCaps = {
  perService: 10_000,
  perIp: 20,
  perWallet: 5,
  eventsPerWindow: 60,
  eventWindowMs: 10_000,
  abuseFactor: 4,
  maxEventBytes: 8 * 1024,
  maxPayloadBytes: 16 * 1024,
};

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
