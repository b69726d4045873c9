import type { LockKey } from './lock-key';

export type { LockKey };

/** A held session-level advisory lock. */
export interface Lease {
  readonly key: bigint;
  /** Aborted when the lease ends: released, or lost (its connection died); see `lost`. */
  readonly signal: AbortSignal;
  /** True once the lock was lost without release() (another process may now hold it). */
  readonly lost: boolean;
  release(): Promise<void>;
}

export type LockOutcome<T> = { acquired: true; value: T } | { acquired: false };

export class LeaseLostError extends Error {
  override name = 'LeaseLostError';
}

/** Shared bookkeeping for lease implementations. */
export class LeaseState implements Lease {
  readonly #controller = new AbortController();
  #lost = false;
  #released = false;

  constructor(
    readonly key: bigint,
    private readonly unlock: () => Promise<void>,
  ) {}

  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  get lost(): boolean {
    return this.#lost;
  }

  get ended(): boolean {
    return this.#lost || this.#released;
  }

  markLost(cause: unknown): void {
    if (this.ended) return;
    this.#lost = true;
    this.#controller.abort(new LeaseLostError(`advisory lock ${this.key} lost`, { cause }));
  }

  async release(): Promise<void> {
    if (this.ended) return;
    this.#released = true;
    this.#controller.abort(new Error('released'));
    await this.unlock();
  }
}
