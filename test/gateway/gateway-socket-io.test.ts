import { describe, expect, it } from 'vitest';
import { PresenceChangesDocument, PresenceDocument } from '../../src/generated/graphql';
import { startApi } from '../helpers/api';
import { gql, wsClient, wsSubscribe } from '../helpers/client';
import { needsService, testEnv } from '../helpers/env';
import { FaultProxy } from '../helpers/fault-proxy';
import { collect, connectSocket, emitAck, until } from './gateway-helpers';

describe('Socket.IO endpoint', () => {
  it('works over long-polling alone; presence counts distinct users (one wallet, two sockets, counts once) on both transports', async () => {
    const api = await startApi();
    try {
      const wallet = '0x' + '12'.repeat(32);
      const token = api.services.tokens.signAccess(wallet);
      const room = 'game:polling';
      const polling = await connectSocket(api.url, { token, transports: ['polling'] });
      const secondTab = await connectSocket(api.url, { token, transports: ['polling'] });
      const anonymous = await connectSocket(api.url, { transports: ['polling'] });
      const received = collect<{ text: string }>(anonymous, 'chat:message');
      const presenceEvents = collect<{ online: number; total: number }>(anonymous, 'presence');
      for (const s of [polling, secondTab, anonymous]) expect(await emitAck(s, 'room:join', { room })).toMatchObject({ ok: true });
      expect(polling.io.engine.transport.name).toBe('polling');

      const ws = wsClient(api.wsUrl);
      const sub = wsSubscribe(ws, PresenceChangesDocument, { room });
      try {
        // the wallet (two sockets) + the anonymous socket + the graphql-ws subscriber
        await until(async () => (await gql(api.url, PresenceDocument, { room })).body.data?.presence.online === 3, 'three distinct users');
        await until(() => sub.events.some((e) => e.data?.presence.online === 3), 'the presence event over graphql-ws');
        await until(() => presenceEvents.some((p) => p.online === 3), 'the presence event over Socket.IO');

        expect(await emitAck(polling, 'chat:send', { room, text: 'over polling' })).toMatchObject({ ok: true });
        await until(() => received.some((m) => m.text === 'over polling'), 'the message over polling');

        secondTab.close();
        anonymous.close();
        await until(async () => (await gql(api.url, PresenceDocument, { room })).body.data?.presence.online === 2, 'the anonymous user to leave, the wallet to stay');
      } finally {
        sub.dispose();
        await ws.dispose();
        polling.close();
      }
    } finally {
      await api.close();
    }
  });

  it.runIf(needsService('SHARED_STORE_URL'))("an event is answered within the request time-out from its arrival, its admission's slow shared-store charge included", async () => {
    const redis = new URL(testEnv.redisUrl!);
    const proxy = await FaultProxy.start({ host: redis.hostname, port: Number(redis.port || 6379) });
    const timeoutMs = 400;
    const api = await startApi({
      store: 'redis',
      env: { SHARED_STORE_URL: `redis://127.0.0.1:${proxy.port}${redis.pathname}`, 'HTTP.REQUEST_TIMEOUT_MS': String(timeoutMs), SHARED_STORE_CALL_TIMEOUT_MS: '1000' },
    });
    try {
      const socket = await connectSocket(api.url, { token: api.services.tokens.signAccess('0x' + '34'.repeat(32)), transports: ['websocket'] });
      expect(await emitAck(socket, 'room:join', { room: 'game:slow-store' })).toMatchObject({ ok: true });
      // each Redis round trip now takes 1.2 s: the admission's charge waits for the store's call deadline (1 s here)
      proxy.set({ kind: 'latency', ms: 600 });
      const sentAt = performance.now();
      const ack = await emitAck(socket, 'chat:send', { room: 'game:slow-store', text: 'through a slow store', clientId: 'slow-store-1' });
      const waitedMs = performance.now() - sentAt;
      expect(ack).toMatchObject({ ok: false, error: { code: 'REQUEST_TIMEOUT' } });
      // (before: the time-out started after the admission, and this answer came `ok` after it)
      expect(waitedMs).toBeLessThan(timeoutMs + 400);
      proxy.set({ kind: 'none' });
      socket.close();
    } finally {
      await api.close();
      await proxy.close();
    }
  });

  it('a graceful shutdown closes Socket.IO websockets with 1012 (clients reconnect elsewhere) and removes their presence at once', async () => {
    // the memory store can still be read after the API closed
    const api = await startApi({ store: 'memory' });
    const socket = await connectSocket(api.url, { transports: ['websocket'] });
    await emitAck(socket, 'room:join', { room: 'global' });
    expect((await api.services.presence.counts('global')).online).toBe(1);
    const reason = new Promise<{ reason: string; code?: number }>((resolve) =>
      socket.once('disconnect', (why, details) => resolve({ reason: why, code: (details as { context?: { code?: number } } | undefined)?.context?.code })),
    );
    await api.close();
    // A closed transport, not a Socket.IO DISCONNECT ("io server disconnect"), after which clients would not reconnect.
    expect(await reason).toEqual({ reason: 'transport close', code: 1012 });
    expect(await api.store.members('presence:room:global')).toEqual([]);
  });
});
