import type { Cluster, Redis } from 'ioredis';
import type { RedisConnection } from './connection';
import type { Logger } from 'pino';
import { isOutage } from './errors';
import { deliver } from './local-bus';
import { ACQUIRE, ADD_MEMBERS, HIT, MEMBERS, RELEASE, REMOVE_MEMBER, RENEW, runScript } from './lua';
import { toCost, toTtl, type HitResult, type MessageHandler, type SharedStore, type Unsubscribe } from './types';

export interface RedisStoreOptions {
  /** Commands and publishing. */
  client: RedisConnection;
  /** Subscriptions only (a connection in subscriber mode cannot run other commands). */
  subscriber: RedisConnection;
  /** Prepended to every key and channel. */
  keyPrefix?: string;
  logger: Logger;
}

export interface RedisStore extends SharedStore {
  readonly kind: 'redis';
}

/**
 * The Redis backend. Every operation talks to Redis and rejects when it cannot: the
 * failover store decides what to do then. Subscriptions are kept here and re-issued each
 * time the subscriber connection becomes ready, so they survive reconnects.
 */
export function createRedisStore(opts: RedisStoreOptions): RedisStore {
  const { client, subscriber, logger } = opts;
  const prefix = opts.keyPrefix ?? '';
  const k = (key: string) => prefix + key;
  const channels = new Map<string, Set<MessageHandler>>();
  /** SUBSCRIBE commands in flight, so a second subscriber also waits for the first one. */
  const pending = new Map<string, Promise<void>>();

  subscriber.on('message', (channel: string, message: string) => {
    const handlers = channels.get(channel);
    if (!handlers) return;
    for (const handler of [...handlers]) deliver(handler, message, channel.slice(prefix.length), logger);
  });
  subscriber.on('ready', () => {
    if (channels.size === 0) return;
    subscriber.subscribe(...channels.keys()).catch((err: unknown) => {
      logger.debug({ err }, 'shared store: resubscribe failed; retrying on next reconnect');
    });
  });

  const store: RedisStore = {
    kind: 'redis',
    active: 'redis',

    async hit(key: string, windowMs: number, cost = 1): Promise<HitResult> {
      const reply = (await runScript(client, HIT, [k(key)], [toTtl(windowMs, 'windowMs'), toCost(cost)])) as [number, number];
      return { count: Number(reply[0]), resetMs: Number(reply[1]), share: 1 };
    },

    async acquireLease(key, holder, ttlMs) {
      return (await runScript(client, ACQUIRE, [k(key)], [holder, toTtl(ttlMs)])) === 1;
    },

    async renewLease(key, holder, ttlMs) {
      return (await runScript(client, RENEW, [k(key)], [holder, toTtl(ttlMs)])) === 1;
    },

    async releaseLease(key, holder) {
      await runScript(client, RELEASE, [k(key)], [holder]);
    },

    addMember: (set, member, ttlMs) => store.addMembers(set, [member], ttlMs),

    async addMembers(set, members, ttlMs) {
      return Number(await runScript(client, ADD_MEMBERS, [k(set)], [toTtl(ttlMs), ...members]));
    },

    async removeMember(set, member) {
      return Number(await runScript(client, REMOVE_MEMBER, [k(set)], [member]));
    },

    async members(set) {
      return (await runScript(client, MEMBERS, [k(set)], [])) as string[];
    },

    async get(key) {
      return client.get(k(key));
    },

    async set(key, value, ttlMs) {
      await client.set(k(key), value, 'PX', toTtl(ttlMs));
    },

    async del(...keys) {
      if (!keys.length) return;
      // Redis Cluster refuses multi-key commands across hash slots (CROSSSLOT): one DEL per key there.
      if (client.isCluster) await Promise.all(keys.map((key) => client.del(k(key))));
      else await client.del(...keys.map(k));
    },

    async delPrefix(p) {
      const match = `${escapeGlob(k(p))}*`;
      // SCAN walks one server: on a cluster, every master in turn.
      const servers = client.isCluster ? (client as Cluster).nodes('master') : [client as Redis];
      for (const server of servers) {
        let cursor = '0';
        do {
          const [next, found] = await server.scan(cursor, 'MATCH', match, 'COUNT', 500);
          if (found.length && client.isCluster) await Promise.all(found.map((key) => client.unlink(key)));
          else if (found.length) await client.unlink(...found);
          cursor = next;
        } while (cursor !== '0');
      }
    },

    async publish(channel, message) {
      await client.publish(k(channel), message);
    },

    /** Never rejects: see the comment below. */
    async subscribe(channel: string, onMessage: MessageHandler): Promise<Unsubscribe> {
      const name = k(channel);
      let handlers = channels.get(name);
      const first = !handlers;
      if (!handlers) {
        handlers = new Set();
        channels.set(name, handlers);
      }
      const entry: MessageHandler = (m) => onMessage(m);
      handlers.add(entry);
      const unsubscribe = async () => {
        const current = channels.get(name);
        if (!current?.delete(entry) || current.size > 0) return;
        channels.delete(name);
        if (subscriber.status === 'ready') await subscriber.unsubscribe(name);
      };
      // When not connected, or when SUBSCRIBE fails, the 'ready' handler subscribes later:
      // the handler stays registered until `unsubscribe` is called.
      if (first && subscriber.status === 'ready') {
        const command = subscriber.subscribe(name).then(
          () => undefined,
          (err: unknown) => {
            if (isOutage(err)) logger.debug({ err }, 'shared store: subscribe deferred until Redis is back');
            else logger.error({ err, channel }, 'shared store: subscribe refused');
          },
        );
        pending.set(name, command);
        void command.finally(() => pending.get(name) === command && pending.delete(name));
      }
      await pending.get(name);
      return unsubscribe;
    },

    async close() {
      channels.clear();
      await Promise.all([quit(client), quit(subscriber)]);
    },
  };
  return store;
}

/** QUIT when connected, otherwise (or if QUIT fails) drop the connection. */
async function quit(redis: RedisConnection): Promise<void> {
  if (redis.status === 'end') return;
  if (redis.status === 'ready') {
    try {
      await redis.quit();
      return;
    } catch {
      // fall through
    }
  }
  redis.disconnect(false);
}

function escapeGlob(s: string): string {
  return s.replace(/[*?[\]\\]/g, '\\$&');
}
