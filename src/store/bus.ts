import type { Logger } from 'pino';
import type { PubSub } from 'type-graphql';
import { BusStream } from './bus-stream';
import { createSliceQueue } from './slices';
import type { SharedStore, Unsubscribe } from './types';

export { BusStream } from './bus-stream';

declare const payloadType: unique symbol;

/** A channel of the bus and the type of what travels on it (JSON: a Date arrives as a string). */
export interface Channel<T> {
  /** The store channel's name. */
  readonly name: string;
  /** Never set: carries the payload type. */
  readonly [payloadType]?: T;
}

export type PayloadOf<C> = C extends Channel<infer T> ? T : never;

/** Declares a channel once; publishers and subscribers pass the declaration, never its name. */
export function defineChannel<T>(name: string): Channel<T> {
  return { name };
}

/** Declares a family of channels with one payload type, one per key (e.g. per room: `name:key`). */
export function defineChannelFamily<T>(name: string): (key: string) => Channel<T> {
  return (key) => ({ name: `${name}:${key}` });
}

export type BusListener<T> = (event: T) => void;

export interface StreamOptions<T, R> {
  /** Keeps (and maps) the events this subscriber wants; undefined skips one. */
  select?: (event: T) => R | undefined;
  /** Events buffered for a subscriber that does not read. Default 1 000 (oldest dropped beyond). */
  maxQueue?: number;
  onEnd?: () => void;
}

/** type-graphql's `pubSub` over the bus: `@Subscription({ topics: someChannel.name })` resolves here. */
export interface BusPubSub extends PubSub {
  publish(topic: string, ...args: unknown[]): Promise<void>;
  subscribe(topic: string, id?: unknown): BusStream<unknown>;
}

/**
 * The one pub/sub of the process, over the shared store (Redis across replicas, in-process
 * without it, the store's failover between them). One store subscription per channel per
 * process; each message is parsed once and the same frozen object handed to every local
 * listener (graphql-ws subscriptions, Socket.IO, services), whether 10 or 10,000. A publisher
 * serializes once and publishes once.
 */
export interface Bus {
  /** Publishes one event: serialized once, one store publish (rejects when the store refuses). */
  publish<T>(channel: Channel<T>, event: T): Promise<void>;
  /** Adds a listener; resolves (with its removal) once the channel's subscription is live. */
  listen<T>(channel: Channel<T>, listener: BusListener<T>): Promise<() => Promise<void>>;
  /** A bounded async iterator over a channel's events (GraphQL subscriptions). */
  stream<T, R = T>(channel: Channel<T>, opts?: StreamOptions<T, R>): BusStream<R>;
  /** The same bus as type-graphql's `pubSub`. */
  readonly pubSub: BusPubSub;
}

interface ChannelState {
  listeners: Set<BusListener<unknown>>;
  /** Resolves once the store subscription is active. */
  subscribed: Promise<Unsubscribe | null>;
}

export function createBus(store: SharedStore, opts: { logger: Logger }): Bus {
  const { logger } = opts;
  const channels = new Map<string, ChannelState>();
  const deliverInSlices = createSliceQueue();

  function deliver(name: string, message: string): void {
    const state = channels.get(name);
    if (!state) return;
    let event: unknown;
    try {
      event = Object.freeze(JSON.parse(message));
    } catch (err) {
      logger.warn({ err, channel: name }, 'bus dropped a message that is not JSON');
      return;
    }
    // a graphql-ws subscriber is a listener: a room of 25,000 is served in slices (./slices.ts)
    deliverInSlices([...state.listeners], (listeners) => {
      for (const listener of listeners) {
        try {
          listener(event);
        } catch (err) {
          logger.error({ err, channel: name }, 'bus listener threw');
        }
      }
    });
  }

  async function listen(name: string, listener: BusListener<unknown>): Promise<() => Promise<void>> {
    let state = channels.get(name);
    if (!state) {
      const created: ChannelState = { listeners: new Set(), subscribed: Promise.resolve(null) };
      created.subscribed = store.subscribe(name, (m) => deliver(name, m)).catch((err: unknown) => {
        logger.error({ err, channel: name }, 'bus subscribe failed');
        return null;
      });
      channels.set(name, created);
      state = created;
    }
    // Wrapped so that the same function listening twice is two listeners.
    const entry: BusListener<unknown> = (e) => listener(e);
    state.listeners.add(entry);
    await state.subscribed;
    const owner = state;
    return async () => {
      if (!owner.listeners.delete(entry) || owner.listeners.size > 0 || channels.get(name) !== owner) return;
      channels.delete(name);
      const unsubscribe = await owner.subscribed;
      await unsubscribe?.().catch((err: unknown) => logger.warn({ err, channel: name }, 'bus unsubscribe failed'));
    };
  }

  function stream<R>(name: string, select: (event: unknown) => R | undefined, options: Omit<StreamOptions<unknown, R>, 'select'>): BusStream<R> {
    return new BusStream<R>(
      (push) =>
        listen(name, (event) => {
          const value = select(event);
          if (value !== undefined) push(value);
        }),
      {
        maxQueue: options.maxQueue,
        onEnd: options.onEnd,
        onOverflow: () => logger.warn({ channel: name, maxQueue: options.maxQueue ?? 1_000 }, 'bus subscriber too slow: dropping its oldest events'),
      },
    );
  }

  const publishRaw = (name: string, event: unknown) => store.publish(name, JSON.stringify(event ?? null));
  const topicChannel = (topic: string, id?: unknown) => (id === undefined || id === null ? topic : `${topic}:${String(id)}`);

  return {
    publish: (channel, event) => publishRaw(channel.name, event),
    listen: (channel, listener) => listen(channel.name, listener as BusListener<unknown>),
    stream: <T, R = T>(channel: Channel<T>, options: StreamOptions<T, R> = {}) =>
      stream<R>(channel.name, (options.select as ((e: unknown) => R | undefined) | undefined) ?? ((e) => e as R), options),
    pubSub: {
      // type-graphql's publishers commonly fire and forget: a failure is logged, never thrown.
      async publish(topic, ...args) {
        const [id, payload] = args.length >= 2 ? args : [undefined, args[0]];
        try {
          await publishRaw(topicChannel(topic, id), payload);
        } catch (err) {
          logger.error({ err, topic }, 'bus publish failed');
        }
      },
      subscribe: (topic, id) => stream(topicChannel(topic, id), (e) => e, {}),
    },
  };
}
