import type { Logger } from 'pino';
import type { PubSub } from 'type-graphql';
import type { SharedStore, Unsubscribe } from './types';

export interface PubSubOptions {
  logger: Logger;
  /** Events buffered per subscriber before the oldest are dropped. Default 1 000. */
  maxQueue?: number;
  /** Channel namespace inside the store. Default 'gql:'. */
  channelPrefix?: string;
}

/**
 * type-graphql's `pubSub` over the shared store: payloads travel as JSON, so with Redis an
 * event published in one replica reaches subscribers in every replica.
 *
 * - `publish(topic, payload)` or `publish(topic, id, payload)` (pairs with
 *   `@Subscription({ topics, topicId })`); it never rejects: failures are logged, because
 *   callers commonly fire and forget.
 * - `subscribe(topic, id?)` starts listening at once and returns the iterator; `ready`
 *   resolves when the subscription is active, and `return()` (a `break`, a client leaving)
 *   ends it.
 */
export interface StorePubSub extends PubSub {
  publish(topic: string, ...args: unknown[]): Promise<void>;
  subscribe(topic: string, id?: unknown): StoreSubscription;
}

export function createPubSub(store: SharedStore, opts: PubSubOptions): StorePubSub {
  const prefix = opts.channelPrefix ?? 'gql:';
  const maxQueue = Math.max(1, opts.maxQueue ?? 1_000);
  const channel = (topic: string, id?: unknown) => (id === undefined || id === null ? prefix + topic : `${prefix}${topic}:${String(id)}`);

  return {
    async publish(topic, ...args) {
      const [id, payload] = args.length >= 2 ? args : [undefined, args[0]];
      try {
        await store.publish(channel(topic, id), JSON.stringify(payload ?? null));
      } catch (err) {
        opts.logger.error({ err, topic }, 'pubsub publish failed');
      }
    },
    subscribe(topic, id) {
      return new StoreSubscription(store, channel(topic, id), opts.logger, maxQueue);
    },
  };
}

/** One subscriber's bounded queue of decoded payloads. */
export class StoreSubscription implements AsyncIterableIterator<unknown> {
  readonly ready: Promise<void>;
  private readonly queue: unknown[] = [];
  private readonly waiters: Array<{ resolve: (r: IteratorResult<unknown>) => void; reject: (e: unknown) => void }> = [];
  private unsubscribe: Unsubscribe | undefined;
  private failure: unknown;
  private finished = false;
  private warnedOverflow = false;

  constructor(
    store: SharedStore,
    private readonly channel: string,
    private readonly logger: Logger,
    private readonly maxQueue: number,
  ) {
    this.ready = store.subscribe(channel, (m) => this.push(m)).then(
      async (unsubscribe) => {
        if (this.finished) await unsubscribe();
        else this.unsubscribe = unsubscribe;
      },
      (err: unknown) => {
        logger.error({ err, channel }, 'pubsub subscribe failed');
        this.fail(err);
      },
    );
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  next(): Promise<IteratorResult<unknown>> {
    if (this.queue.length) return Promise.resolve({ value: this.queue.shift(), done: false });
    if (this.failure !== undefined) return Promise.reject(this.failure);
    if (this.finished) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve, reject) => this.waiters.push({ resolve, reject }));
  }

  async return(): Promise<IteratorResult<unknown>> {
    this.finish();
    await this.ready;
    const unsubscribe = this.unsubscribe;
    this.unsubscribe = undefined;
    await unsubscribe?.();
    return { value: undefined, done: true };
  }

  async throw(err?: unknown): Promise<IteratorResult<unknown>> {
    await this.return();
    throw err;
  }

  private push(message: string): void {
    if (this.finished) return;
    let payload: unknown;
    try {
      payload = JSON.parse(message);
    } catch (err) {
      this.logger.warn({ err, channel: this.channel }, 'pubsub dropped a message that is not JSON');
      return;
    }
    const waiter = this.waiters.shift();
    if (waiter) return waiter.resolve({ value: payload, done: false });
    this.queue.push(payload);
    if (this.queue.length > this.maxQueue) {
      this.queue.shift();
      if (!this.warnedOverflow) {
        this.warnedOverflow = true;
        this.logger.warn({ channel: this.channel, maxQueue: this.maxQueue }, 'pubsub subscriber too slow: dropping oldest events');
      }
    }
  }

  private finish(): void {
    if (this.finished) return;
    this.finished = true;
    this.queue.length = 0;
    for (const w of this.waiters.splice(0)) w.resolve({ value: undefined, done: true });
  }

  private fail(err: unknown): void {
    this.failure = err;
    this.finished = true;
    for (const w of this.waiters.splice(0)) w.reject(err);
  }
}
