import type { Logger } from 'pino';
import type { SharedStore, Unsubscribe } from './types';

export type FanoutListener = (event: unknown) => void;

interface ChannelState {
  listeners: Set<FanoutListener>;
  /** Resolves once the store subscription is active. */
  subscribed: Promise<Unsubscribe | null>;
}

/**
 * Process-local fan-out of store channels: one store subscription per channel per process, and
 * each message parsed once and handed (frozen) to every local listener, whether 10 or 10,000.
 * A publisher serializes once and publishes once; this is the receiving half of that contract.
 */
export interface Fanout {
  /** Adds a listener; resolves (with its removal) once the channel's subscription is live. */
  listen(channel: string, listener: FanoutListener): Promise<() => Promise<void>>;
  /** A bounded async iterator over a channel's events (GraphQL subscriptions). */
  stream<T>(channel: string, select: (event: unknown) => T | undefined, opts?: { maxQueue?: number; onEnd?: () => void }): LiveStream<T>;
  /** Publishes one event: serialized once, one store publish. */
  publish(channel: string, event: unknown): Promise<void>;
}

export function createFanout(store: SharedStore, logger: Logger): Fanout {
  const channels = new Map<string, ChannelState>();

  function deliver(channel: string, message: string): void {
    const state = channels.get(channel);
    if (!state) return;
    let event: unknown;
    try {
      event = Object.freeze(JSON.parse(message));
    } catch (err) {
      logger.warn({ err, channel }, 'fan-out dropped a message that is not JSON');
      return;
    }
    for (const listener of state.listeners) {
      try {
        listener(event);
      } catch (err) {
        logger.error({ err, channel }, 'fan-out listener threw');
      }
    }
  }

  const fanout: Fanout = {
    async listen(channel, listener) {
      let state = channels.get(channel);
      if (!state) {
        const created: ChannelState = { listeners: new Set(), subscribed: Promise.resolve(null) };
        created.subscribed = store.subscribe(channel, (m) => deliver(channel, m)).catch((err: unknown) => {
          logger.error({ err, channel }, 'fan-out subscribe failed');
          return null;
        });
        channels.set(channel, created);
        state = created;
      }
      const entry: FanoutListener = (e) => listener(e);
      state.listeners.add(entry);
      await state.subscribed;
      const owner = state;
      return async () => {
        if (!owner.listeners.delete(entry) || owner.listeners.size > 0 || channels.get(channel) !== owner) return;
        channels.delete(channel);
        const unsubscribe = await owner.subscribed;
        await unsubscribe?.().catch((err: unknown) => logger.warn({ err, channel }, 'fan-out unsubscribe failed'));
      };
    },
    stream(channel, select, opts = {}) {
      return new LiveStream(fanout, channel, select, Math.max(1, opts.maxQueue ?? 1_000), opts.onEnd);
    },
    async publish(channel, event) {
      await store.publish(channel, JSON.stringify(event));
    },
  };
  return fanout;
}

/** One subscriber's bounded queue (oldest dropped when a slow client falls behind). */
export class LiveStream<T> implements AsyncIterableIterator<T> {
  readonly ready: Promise<void>;
  private readonly queue: T[] = [];
  private readonly waiters: Array<(r: IteratorResult<T>) => void> = [];
  private remove: (() => Promise<void>) | undefined;
  private finished = false;
  private consumer: ((value: T) => void) | undefined;

  constructor(
    fanout: Fanout,
    channel: string,
    private readonly select: (event: unknown) => T | undefined,
    private readonly maxQueue: number,
    private readonly onEnd?: () => void,
  ) {
    this.ready = fanout.listen(channel, (e) => this.push(e)).then(async (remove) => {
      if (this.finished) await remove();
      else this.remove = remove;
    });
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  /**
   * Hands every later event to `consumer` synchronously, in the fan-out's own loop, instead of
   * queueing it for `next()` (events already queued are handed over first). The consumer bounds
   * its own backlog; `return()` still ends the stream.
   */
  attach(consumer: (value: T) => void): void {
    this.consumer = consumer;
    for (const value of this.queue.splice(0)) consumer(value);
  }

  next(): Promise<IteratorResult<T>> {
    if (this.queue.length) return Promise.resolve({ value: this.queue.shift()!, done: false });
    if (this.finished) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  async return(): Promise<IteratorResult<T>> {
    if (!this.finished) {
      this.finished = true;
      this.queue.length = 0;
      for (const w of this.waiters.splice(0)) w({ value: undefined, done: true });
      this.onEnd?.();
    }
    await this.ready;
    const remove = this.remove;
    this.remove = undefined;
    await remove?.();
    return { value: undefined, done: true };
  }

  async throw(err?: unknown): Promise<IteratorResult<T>> {
    await this.return();
    throw err;
  }

  private push(event: unknown): void {
    if (this.finished) return;
    const value = this.select(event);
    if (value === undefined) return;
    if (this.consumer) return this.consumer(value);
    const waiter = this.waiters.shift();
    if (waiter) return waiter({ value, done: false });
    this.queue.push(value);
    if (this.queue.length > this.maxQueue) this.queue.shift();
  }
}
