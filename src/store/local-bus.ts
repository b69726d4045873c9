import type { Logger } from 'pino';
import type { MessageHandler, Unsubscribe } from './types';

/**
 * In-process channels. Delivery is asynchronous (a microtask per message), as it is
 * through Redis, so a publisher never runs subscriber code on its own stack.
 */
export class LocalBus {
  private readonly channels = new Map<string, Set<MessageHandler>>();

  constructor(private readonly logger: Logger) {}

  publish(channel: string, message: string): void {
    const handlers = this.channels.get(channel);
    if (!handlers?.size) return;
    const targets = [...handlers];
    queueMicrotask(() => {
      for (const handler of targets) deliver(handler, message, channel, this.logger);
    });
  }

  subscribe(channel: string, handler: MessageHandler): Unsubscribe {
    let handlers = this.channels.get(channel);
    if (!handlers) {
      handlers = new Set();
      this.channels.set(channel, handlers);
    }
    // Wrap so that subscribing the same function twice gives two independent subscriptions.
    const entry: MessageHandler = (m) => handler(m);
    handlers.add(entry);
    return async () => {
      const current = this.channels.get(channel);
      if (!current?.delete(entry)) return;
      if (current.size === 0) this.channels.delete(channel);
    };
  }

  clear(): void {
    this.channels.clear();
  }
}

/** Runs one subscriber; a throwing subscriber is logged and never affects the others. */
export function deliver(handler: MessageHandler, message: string, channel: string, logger: Logger): void {
  try {
    handler(message);
  } catch (err) {
    logger.error({ err, channel }, 'shared store subscriber threw');
  }
}
