import type { Logger } from 'pino';
import type { Bus, Channel } from './bus';

/** Without the bus (Redis away), a replica still reloads this often. */
const RELOAD_MS = 5_000;

export interface ReplicatedSnapshot<T, E> {
  /** The current snapshot (read on every request: memory only). */
  get(): T;
  /** Loads the first snapshot, then follows the channel and reloads every 5 s. */
  start(): Promise<void>;
  close(): Promise<void>;
  /** After a change committed here: reloads at once, then tells the other replicas over the bus. */
  changed(event: E): Promise<void>;
}

/**
 * Database state that every request reads from memory (operator roles, chat bans), kept current
 * on every replica: reloaded here at once after a change, on the other replicas when the change's
 * message reaches them (milliseconds), and every 5 s regardless, so a lost message or a bus
 * outage delays a change by 5 s at most. Loads may overlap (a message during the periodic
 * reload): an older load's answer never replaces a newer one's.
 */
export function createReplicatedSnapshot<T, E>(opts: { name: string; bus: Bus; channel: Channel<E>; logger: Logger; initial: T; load: () => Promise<T> }): ReplicatedSnapshot<T, E> {
  const { bus, channel, logger, name } = opts;
  let value = opts.initial;
  let loadsStarted = 0;
  let loadApplied = 0;
  let timer: NodeJS.Timeout | null = null;
  let unlisten: (() => Promise<void>) | null = null;

  async function reload(): Promise<void> {
    const load = ++loadsStarted;
    const next = await opts.load();
    if (load < loadApplied) return;
    loadApplied = load;
    value = next;
  }
  const reloadQuietly = () => reload().catch((err: unknown) => logger.warn({ err }, `${name}: reload failed; keeping the last snapshot`));

  return {
    get: () => value,
    async start() {
      await reload();
      unlisten = await bus.listen(channel, () => void reloadQuietly());
      timer = setInterval(() => void reloadQuietly(), RELOAD_MS);
      timer.unref();
    },
    async close() {
      if (timer) clearInterval(timer);
      timer = null;
      await unlisten?.();
      unlisten = null;
    },
    async changed(event) {
      await reload();
      await bus.publish(channel, event).catch((err: unknown) => logger.warn({ err }, `${name}: change not broadcast; other replicas reload within 5 s`));
    },
  };
}
