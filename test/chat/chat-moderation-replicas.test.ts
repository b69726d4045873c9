/**
 * Moderation across replicas: two APIs sharing the database and the shared store (the same
 * storePrefix). A ban made through replica A refuses the wallet's Socket.IO and graphql-ws
 * clients connected to replica B within 1 s, an unban through B frees them on A within 1 s, and a
 * removal through A reaches B's subscribers. The websocket event caps per wallet and per IP are
 * one budget across both replicas and both transports.
 */
import { randomBytes } from 'node:crypto';
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChatHistoryDocument, ChatMessageRemovedDocument, SendChatMessageDocument } from '../../src/generated/graphql';
import { startApi, type TestApi } from '../helpers/api';
import { needsService } from '../helpers/env';
import { wsClient, wsQuery, wsSubscribe } from '../helpers/client';
import { collect, connectSocket, emitAck, until, type Ack } from '../gateway/gateway-helpers';

const OPERATOR = `0x${randomBytes(32).toString('hex')}`;
const newWallet = (): string => `0x${randomBytes(32).toString('hex')}`;
/** The promise: a change on one replica holds on the others within this long. */
const WITHIN_MS = 1_000;

const sockets: Socket[] = [];
const clients: Array<ReturnType<typeof wsClient>> = [];
afterAll(async () => {
  for (const s of sockets) s.close();
  await Promise.all(clients.map((c) => c.dispose()));
});

const socketOn = async (api: TestApi, wallet?: string) => {
  const s = await connectSocket(api.url, { token: wallet ? api.services.tokens.signAccess(wallet) : undefined });
  sockets.push(s);
  return s;
};
const wsOn = (api: TestApi, wallet?: string) => {
  const c = wsClient(api.wsUrl, wallet ? { authorization: `Bearer ${api.services.tokens.signAccess(wallet)}` } : undefined);
  clients.push(c);
  return c;
};
/** A graphql-ws operation's errors, whether refused at admission (an `error` message) or by the resolver. */
const wsErrors = async (run: Promise<{ errors?: ReadonlyArray<{ message: string; extensions?: Record<string, unknown> }> }>) => {
  try {
    return (await run).errors ?? [];
  } catch (errors) {
    return errors as Array<{ message: string; extensions?: Record<string, unknown> }>;
  }
};
const codeOf = (ack: Ack) => (ack.ok ? null : ack.error.code);

async function call(api: TestApi, method: string, path: string, body?: unknown) {
  const res = await fetch(`${api.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${api.services.tokens.signAccess(OPERATOR)}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- answers of several shapes, read field by field
  return { status: res.status, body: (await res.json()) as Record<string, any> };
}

// Replicas share bans, events and counters only through Redis (the embedded store is per process).
describe.runIf(needsService('SHARED_STORE_URL'))('bans and removals on every replica', () => {
  let a: TestApi;
  let b: TestApi;
  beforeAll(async () => {
    const storePrefix = `moderation-${randomBytes(4).toString('hex')}`;
    const env = { OPERATOR_WALLETS: OPERATOR, CHAT_MESSAGE_RATE_LIMIT_MAX: '100' };
    a = await startApi({ storePrefix, env });
    b = await startApi({ storePrefix, env, db: a.db });
  }, 90_000);
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  it('a ban through replica A refuses Socket.IO and graphql-ws clients on replica B within 1 s; an unban through B frees clients on A within 1 s', async () => {
    const room = 'game:replica-ban';
    const wallet = newWallet();
    const onB = { socket: await socketOn(b, wallet), ws: wsOn(b, wallet) };
    const onA = { socket: await socketOn(a, wallet), ws: wsOn(a, wallet) };
    expect(await emitAck(onB.socket, 'chat:send', { room, text: 'before' })).toMatchObject({ ok: true });
    expect(await wsErrors(wsQuery(onB.ws, SendChatMessageDocument, { room, text: 'before' }))).toEqual([]);

    const banned = await call(a, 'POST', '/api/admin/chat/bans', { wallet, reason: 'flooding' });
    expect(banned.status).toBe(200);
    const refusedOnSocketIo = until(async () => codeOf(await emitAck(onB.socket, 'chat:send', { room, text: 'still here?' })) === 'CHAT_BANNED', 'CHAT_BANNED on Socket.IO at B', WITHIN_MS);
    const refusedOnGraphqlWs = until(
      async () => (await wsErrors(wsQuery(onB.ws, SendChatMessageDocument, { room, text: 'still here?' })))[0]?.extensions?.code === 'CHAT_BANNED',
      'CHAT_BANNED on graphql-ws at B',
      WITHIN_MS,
    );
    await Promise.all([refusedOnSocketIo, refusedOnGraphqlWs]);
    // reactions and typing too, with the ban's end in the details
    expect(await emitAck(onB.socket, 'typing', { room })).toMatchObject({ ok: false, error: { code: 'CHAT_BANNED', details: { until: null } } });

    const lifted = await call(b, 'DELETE', `/api/admin/chat/bans/${wallet}`);
    expect(lifted.body).toEqual({ wallet, unbanned: true });
    await Promise.all([
      until(async () => (await emitAck(onA.socket, 'chat:send', { room, text: 'free again' })).ok, 'Socket.IO at A accepted again', WITHIN_MS),
      until(async () => (await wsErrors(wsQuery(onA.ws, SendChatMessageDocument, { room, text: 'free again' }))).length === 0, 'graphql-ws at A accepted again', WITHIN_MS),
    ]);
  });

  it('a removal through replica A reaches the Socket.IO and graphql-ws subscribers of replica B', async () => {
    const room = 'game:replica-remove';
    const writer = await socketOn(a, newWallet());
    const send = async (text: string) => {
      const ack = await emitAck(writer, 'chat:send', { room, text });
      if (!ack.ok) throw new Error(`chat:send refused: ${ack.error.code}`);
      return (ack.message as { id: string }).id;
    };
    const reader = await socketOn(b);
    expect(await emitAck(reader, 'room:join', { room })).toMatchObject({ ok: true });
    const removedOnSocketIo = collect<{ id: string }>(reader, 'chat:removed');
    const sub = wsSubscribe(wsOn(b), ChatMessageRemovedDocument, { room });
    try {
      // the graphql-ws subscription goes live asynchronously: remove probes until one is seen
      await until(async () => {
        expect((await call(a, 'DELETE', `/api/admin/chat/messages/${await send('probe')}`)).status).toBe(200);
        return sub.events.length > 0;
      }, 'the removal subscription on B to go live');
      const id = await send('to remove');
      expect((await call(a, 'DELETE', `/api/admin/chat/messages/${id}`)).status).toBe(200);
      await until(() => removedOnSocketIo.some((r) => r.id === id), 'chat:removed at B');
      await until(() => sub.events.some((e) => e.data?.chatMessageRemoved.id === id), 'chatMessageRemoved at B');
      const history = await fetch(`${b.url}/api/chat/message?room=${encodeURIComponent(room)}`).then((r) => r.json() as Promise<{ items: unknown[] }>);
      expect(history.items).toEqual([]);
    } finally {
      sub.dispose();
    }
  });
});

describe.runIf(needsService('SHARED_STORE_URL'))('websocket event caps per wallet and per IP, shared across replicas', () => {
  let c: TestApi;
  let d: TestApi;
  // one window for the whole test; the per-connection limit (60) stays out of the way
  const caps = { eventsPerWallet: 3, eventsPerIp: 8, eventWindowMs: 600_000 };
  beforeAll(async () => {
    const storePrefix = `event-caps-${randomBytes(4).toString('hex')}`;
    c = await startApi({ storePrefix, caps });
    d = await startApi({ storePrefix, caps, db: c.db });
  }, 90_000);
  afterAll(async () => {
    await d?.close();
    await c?.close();
  });

  it('counts one wallet\'s events on Socket.IO at one replica and graphql-ws at the other against one budget, and one IP\'s likewise', async () => {
    const room = 'game:event-caps';
    const wallet = newWallet();
    const socketAtC = await socketOn(c, wallet);
    const wsAtD = wsOn(d, wallet);
    const perWallet = { code: 'RATE_LIMITED', details: { scope: 'events-wallet', retryAfterSeconds: expect.any(Number) } };
    // events 1–3 of the wallet (and of the IP)
    expect(await emitAck(socketAtC, 'chat:send', { room, text: 'one' })).toMatchObject({ ok: true });
    expect(await wsErrors(wsQuery(wsAtD, SendChatMessageDocument, { room, text: 'two' }))).toEqual([]);
    expect(await emitAck(socketAtC, 'chat:send', { room, text: 'three' })).toMatchObject({ ok: true });
    // 4 and 5: over the wallet's 3, on either replica and transport
    const [overWs] = await wsErrors(wsQuery(wsAtD, SendChatMessageDocument, { room, text: 'four' }));
    expect({ message: overWs?.message, ...overWs?.extensions }).toMatchObject({ message: 'Too many events: limit is 3 per 600 s per wallet', ...perWallet });
    expect(await emitAck(socketAtC, 'chat:send', { room, text: 'five' })).toMatchObject({ ok: false, error: perWallet });

    // the IP has sent 5: anonymous connections from it on both replicas get 3 more (6–8), then are refused
    const perIp = { code: 'RATE_LIMITED', details: { scope: 'events-ip' } };
    const anonymousAtC = await socketOn(c);
    const anonymousAtD = wsOn(d);
    expect(await emitAck(anonymousAtC, 'room:join', { room })).toMatchObject({ ok: true });
    expect(await wsErrors(wsQuery(anonymousAtD, ChatHistoryDocument, { room }))).toEqual([]);
    expect(await emitAck(anonymousAtC, 'room:leave', { room })).toMatchObject({ ok: true });
    const [overIp] = await wsErrors(wsQuery(anonymousAtD, ChatHistoryDocument, { room }));
    expect(overIp?.extensions).toMatchObject(perIp);
    expect(await emitAck(anonymousAtC, 'room:join', { room })).toMatchObject({ ok: false, error: perIp });
    // another wallet from the same IP is refused too: the IP's budget is spent
    expect(await emitAck(await socketOn(d, newWallet()), 'chat:send', { room, text: 'hi' })).toMatchObject({ ok: false, error: perIp });
    // only the three accepted messages were stored
    const stored = await c.db.prisma.chatMessage.findMany({ where: { room }, orderBy: { id: 'asc' } });
    expect(stored.map((m) => m.text)).toEqual(['one', 'two', 'three']);
  });
});
