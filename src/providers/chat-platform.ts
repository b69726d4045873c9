import { setTimeout as sleep } from 'node:timers/promises';
import PQueue from 'p-queue';
import type { Logger } from '../observability/logger';

/**
 * Relay of local chat messages to the external chat platform through its incoming webhook (the
 * Discord-style wire format: `POST {webhookUrl}` with JSON `{ content, username, allowed_mentions }`,
 * answered 204 or 200; 429 carries `retry_after` in seconds, also as the `Retry-After` header).
 *
 * Calls go through a p-queue with bounded concurrency; 429, 5xx, timeouts and network failures are
 * retried with exponential backoff (or the platform's `retry_after`), other 4xx are dropped.
 * `relay()` only enqueues: a platform outage never blocks local chat. The webhook URL carries the
 * platform's token, so it is never logged (only its host).
 */
export interface ChatPlatformRelay {
  relay(message: { room: string; author: string; text: string }): void;
  /** Resolves once every queued relay has been delivered or given up (tests, shutdown). */
  idle(): Promise<void>;
  close(): Promise<void>;
}

export interface ChatPlatformOptions {
  webhookUrl: string;
  logger: Logger;
  /** Calls in flight at once. Default 2. */
  concurrency?: number;
  /** Attempts per message, the first included. Default 5. */
  maxAttempts?: number;
  /** First retry delay; doubles per attempt (capped at 30 s). Default 500 ms. */
  baseDelayMs?: number;
  /** Per-call timeout. Default 5,000 ms. */
  timeoutMs?: number;
  /** Relays waiting beyond this are dropped (logged): memory stays bounded in a long outage. Default 1,000. */
  maxQueued?: number;
}

const MAX_DELAY_MS = 30_000;

class RetryableError extends Error {
  constructor(
    message: string,
    readonly retryAfterMs?: number,
  ) {
    super(message);
  }
}

/** `0x1234…cdef`: the platform shows who wrote without the full address. */
const displayName = (wallet: string) => (wallet.length > 12 ? `${wallet.slice(0, 6)}…${wallet.slice(-4)}` : wallet);

export function createChatPlatformRelay(opts: ChatPlatformOptions): ChatPlatformRelay {
  const log = opts.logger.child({ component: 'chat-platform', host: new URL(opts.webhookUrl).host });
  const queue = new PQueue({ concurrency: opts.concurrency ?? 2 });
  const maxAttempts = opts.maxAttempts ?? 5;
  const baseDelayMs = opts.baseDelayMs ?? 500;
  const timeoutMs = opts.timeoutMs ?? 5_000;
  const maxQueued = opts.maxQueued ?? 1_000;
  const closing = new AbortController();

  async function post(body: string): Promise<void> {
    let res: Response;
    try {
      res = await fetch(opts.webhookUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
        signal: AbortSignal.any([AbortSignal.timeout(timeoutMs), closing.signal]),
      });
    } catch (err) {
      throw new RetryableError(`unreachable: ${(err as Error).name}`);
    }
    if (res.ok) return void (await res.body?.cancel());
    const text = await res.text().catch(() => '');
    if (res.status === 429) throw new RetryableError('rate limited', retryAfterMs(res, text));
    if (res.status >= 500) throw new RetryableError(`answered ${res.status}`);
    throw new Error(`refused with ${res.status}`);
  }

  async function deliver(body: string, room: string): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        await post(body);
        return;
      } catch (err) {
        const retryable = err instanceof RetryableError && attempt < maxAttempts && !closing.signal.aborted;
        if (!retryable) return log.warn({ room, attempt, reason: (err as Error).message }, 'chat relay: message dropped');
        const delay = Math.min(MAX_DELAY_MS, err.retryAfterMs ?? baseDelayMs * 2 ** (attempt - 1));
        log.info({ room, attempt, delayMs: delay, reason: err.message }, 'chat relay: retrying');
        await sleep(delay, undefined, { signal: closing.signal, ref: false }).catch(() => undefined);
      }
    }
  }

  return {
    relay(message) {
      if (closing.signal.aborted) return;
      if (queue.size >= maxQueued) return log.warn({ room: message.room, queued: queue.size }, 'chat relay: queue full, message dropped');
      const body = JSON.stringify({ content: message.text, username: displayName(message.author), allowed_mentions: { parse: [] } });
      void queue.add(() => deliver(body, message.room));
    },
    idle: () => queue.onIdle(),
    async close() {
      closing.abort();
      queue.clear();
      await queue.onIdle();
    },
  };
}

function retryAfterMs(res: Response, text: string): number | undefined {
  try {
    const seconds = (JSON.parse(text) as { retry_after?: unknown }).retry_after;
    if (typeof seconds === 'number' && seconds >= 0) return Math.ceil(seconds * 1000);
  } catch {
    // not JSON: fall back to the header
  }
  const header = Number(res.headers.get('retry-after'));
  return Number.isFinite(header) && header >= 0 ? Math.ceil(header * 1000) : undefined;
}
