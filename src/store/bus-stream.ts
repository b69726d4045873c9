/** Starts listening with `push` as the listener; resolves (with the removal) once the listener is live. */
export type Listen<T> = (push: (value: T) => void) => Promise<() => Promise<void>>;

export interface BusStreamOptions {
  /** Events buffered for a subscriber that does not read before the oldest are dropped. Default 1 000. */
  maxQueue?: number;
  /** Called once, when the subscriber first falls `maxQueue` events behind. */
  onOverflow?: () => void;
  /** Called once when the stream ends (`return()`: a `break`, a client leaving). */
  onEnd?: () => void;
}

/**
 * The bus's one async iterator: listening starts at construction (`ready` resolves once it is
 * live) and a subscriber that falls behind loses its oldest events rather than growing the
 * process's memory or stalling the channel's other listeners.
 */
export class BusStream<T> implements AsyncIterableIterator<T> {
  readonly ready: Promise<void>;
  private readonly queue: T[] = [];
  private readonly waiters: Array<(r: IteratorResult<T>) => void> = [];
  private readonly maxQueue: number;
  private remove: (() => Promise<void>) | undefined;
  private finished = false;
  private overflowed = false;
  private consumer: ((value: T) => void) | undefined;

  constructor(
    listen: Listen<T>,
    private readonly opts: BusStreamOptions = {},
  ) {
    this.maxQueue = Math.max(1, opts.maxQueue ?? 1_000);
    this.ready = listen((value) => this.push(value)).then(async (remove) => {
      if (this.finished) await remove();
      else this.remove = remove;
    });
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  /**
   * Hands every later event to `consumer` synchronously, in the bus's own delivery loop, instead of
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
      this.opts.onEnd?.();
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

  private push(value: T): void {
    if (this.finished) return;
    if (this.consumer) return this.consumer(value);
    const waiter = this.waiters.shift();
    if (waiter) return waiter({ value, done: false });
    this.queue.push(value);
    if (this.queue.length <= this.maxQueue) return;
    this.queue.shift();
    if (!this.overflowed) {
      this.overflowed = true;
      this.opts.onOverflow?.();
    }
  }
}
