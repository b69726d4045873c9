import { afterEach, describe, expect, it } from 'vitest';
import { createBus, createMemoryStore, type SharedStore } from '../../src/store';
import { createPresenceService, type PresenceService } from '../../src/services/presence/service';
import { roomChannel, type RoomEvent } from '../../src/services/chat/room-events';
import { captureLogger } from '../helpers/logs';
import { until } from './gateway-helpers';

/** The store as the services see it, counting what crosses it. */
function counting(store: SharedStore) {
  const calls = { publish: 0, subscribe: 0 };
  const wrapped: SharedStore = Object.assign(Object.create(store) as SharedStore, {
    publish: (channel: string, message: string) => {
      calls.publish += 1;
      return store.publish(channel, message);
    },
    subscribe: (channel: string, handler: (m: string) => void) => {
      calls.subscribe += 1;
      return store.subscribe(channel, handler);
    },
  });
  return { store: wrapped, calls };
}

describe('bus fan-out and presence over the shared store (embedded memory store)', () => {
  const closers: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const close of closers.splice(0).reverse()) await close();
  });

  it('one publish per event; one store subscription and one decode per process, the same object for 1,000 local listeners', async () => {
    const { logger } = captureLogger();
    const memory = createMemoryStore({ logger });
    closers.push(() => memory.close());
    const { store, calls } = counting(memory);
    const bus = createBus(store, { logger });
    const seen: unknown[] = [];
    const removals = await Promise.all(Array.from({ length: 1_000 }, () => bus.listen(roomChannel('global'), (e) => seen.push(e))));
    expect(calls.subscribe).toBe(1);
    await bus.publish(roomChannel('global'), { type: 'typing', typing: { room: 'global', user: '0x1', at: 'now' } });
    expect(calls.publish).toBe(1);
    await until(() => seen.length === 1_000, 'every listener');
    expect(new Set(seen).size).toBe(1); // decoded once, shared (frozen)
    expect(Object.isFrozen(seen[0])).toBe(true);
    await Promise.all(removals.map((remove) => remove()));
    await bus.publish(roomChannel('global'), { type: 'typing', typing: { room: 'global', user: '0x1', at: 'later' } });
    const again = await bus.listen(roomChannel('global'), () => undefined);
    expect(calls.subscribe).toBe(2); // the last removal unsubscribed; a new listener subscribes again
    await again();
  });

  it("a replica that stops renewing (crashed) leaves presence after its lease; the survivor's count and broadcast follow", async () => {
    const { logger } = captureLogger();
    const store = createMemoryStore({ logger });
    closers.push(() => store.close());
    const bus = createBus(store, { logger });
    const start = (heartbeatMs: number): PresenceService => {
      const presence = createPresenceService({ store, bus, logger, leaseMs: 600, heartbeatMs, sweepMs: 100 });
      closers.push(() => presence.close());
      return presence;
    };
    const survivor = start(200);
    const crashed = start(60_000); // never renews within the test: as if killed
    const events: RoomEvent[] = [];
    closers.push(await bus.listen(roomChannel('global'), (e) => events.push(e)));

    await survivor.connect('a1', '0xaaa');
    await survivor.join('a1', 'global');
    await crashed.connect('b1', '0xbbb');
    await crashed.join('b1', 'global');
    await crashed.connect('b2', null);
    await crashed.join('b2', 'global');
    await until(async () => (await survivor.counts('global')).online === 3, 'three users');
    expect(await survivor.counts('global')).toEqual({ room: 'global', online: 3, total: 3 });

    await until(async () => (await survivor.counts('global')).online === 1, "the crashed replica's users to leave", 5_000);
    expect((await survivor.counts('global')).total).toBe(1);
    await until(() => events.some((e) => e.type === 'presence' && e.presence.online === 1), 'the presence broadcast');
  });
});
