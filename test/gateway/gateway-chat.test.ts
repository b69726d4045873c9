import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Socket } from 'socket.io-client';
import {
  ChatHistoryDocument,
  ChatMessagesDocument,
  ReactToMessageDocument,
  SendChatMessageDocument,
  SendTypingDocument,
  TypingDocument,
} from '../../src/generated/graphql';
import { startApi, type TestApi } from '../helpers/api';
import { loginWithKeypair, postJson, type LoggedIn } from '../helpers/auth';
import { gql, wsClient, wsQuery, wsSubscribe } from '../helpers/client';
import { collect, connectSocket, emitAck, until } from './gateway-helpers';

describe('chat over graphql-ws, Socket.IO and HTTP (one process)', () => {
  let api: TestApi;
  let alice: LoggedIn;
  let bob: LoggedIn;
  const sockets: Socket[] = [];
  const socket = async (token?: string) => {
    const s = await connectSocket(api.url, { token });
    sockets.push(s);
    return s;
  };
  const history = async (room: string, query = '') => {
    const res = await fetch(`${api.url}/api/chat/message?room=${encodeURIComponent(room)}${query}`);
    return { status: res.status, body: (await res.json()) as { items: Array<{ id: string; text: string; author: string }>; nextCursor: string | null; error?: { code: string } } };
  };

  beforeAll(async () => {
    api = await startApi({ caps: { eventsPerWindow: 200 } });
    [alice, bob] = await Promise.all([loginWithKeypair(api.url), loginWithKeypair(api.url)]);
  });
  afterAll(async () => {
    for (const s of sockets) s.close();
    await api?.close();
  });

  it('refuses creating a message over HTTP (GraphQL and REST) with WEBSOCKET_ONLY and writes nothing', async () => {
    const auth = { authorization: `Bearer ${alice.accessToken}` };
    const overGraphql = await gql(api.url, SendChatMessageDocument, { room: 'game:http', text: 'hello' }, auth);
    expect(overGraphql.body.errors?.[0]?.extensions?.code).toBe('WEBSOCKET_ONLY');
    const react = await gql(api.url, ReactToMessageDocument, { messageId: '1', emoji: '👍' }, auth);
    expect(react.body.errors?.[0]?.extensions?.code).toBe('WEBSOCKET_ONLY');
    const typing = await gql(api.url, SendTypingDocument, { room: 'game:http' }, auth);
    expect(typing.body.errors?.[0]?.extensions?.code).toBe('WEBSOCKET_ONLY');
    const overRest = await postJson(`${api.url}/api/chat/message`, { room: 'game:http', text: 'hello' }, auth);
    expect(overRest.status).toBe(426);
    expect(overRest.body?.error?.code).toBe('WEBSOCKET_ONLY');
    expect((await history('game:http')).body.items).toEqual([]);
  });

  it('a message sent over graphql-ws reaches graphql-ws and Socket.IO subscribers, and shows in history over REST and GraphQL', async () => {
    const room = 'game:dice-1';
    const reader = await socket();
    expect(await emitAck(reader, 'room:join', { room })).toMatchObject({ ok: true, room });
    const viaSocketIo = collect<{ id: string; text: string; author: string }>(reader, 'chat:message');

    const listener = wsClient(api.wsUrl);
    const sender = wsClient(api.wsUrl, { authorization: `Bearer ${alice.accessToken}` });
    try {
      const sub = wsSubscribe(listener, ChatMessagesDocument, { room });
      const first = sub.next(10_000);
      // the subscription goes live asynchronously: the first message is sent once it is counted in presence
      await until(async () => (await api.services.presence.counts(room)).online >= 2, 'the graphql-ws subscriber in presence');
      const sent = await wsQuery(sender, SendChatMessageDocument, { room, text: 'gg <b>not html</b>' });
      expect(sent.errors).toBeUndefined();
      expect(sent.data?.sendChatMessage).toMatchObject({ room, author: alice.address, text: 'gg <b>not html</b>' });
      const received = await first;
      expect(received.data?.chatMessages).toEqual(sent.data?.sendChatMessage);
      await until(() => viaSocketIo.length === 1, 'the Socket.IO reader to get the message');
      expect(viaSocketIo[0]).toMatchObject({ id: sent.data!.sendChatMessage.id, text: 'gg <b>not html</b>', author: alice.address });
      sub.dispose();
    } finally {
      await Promise.all([listener.dispose(), sender.dispose()]);
    }

    const writer = await socket(bob.accessToken);
    for (const text of ['two', 'three']) expect(await emitAck(writer, 'chat:send', { room, text })).toMatchObject({ ok: true, message: { text, author: bob.address } });
    const page1 = await history(room, '&limit=2');
    expect(page1.status).toBe(200);
    expect(page1.body.items.map((m) => m.text)).toEqual(['three', 'two']);
    const page2 = await history(room, `&limit=2&cursor=${page1.body.nextCursor}`);
    expect(page2.body.items.map((m) => m.text)).toEqual(['gg <b>not html</b>']);
    expect(page2.body.nextCursor).toBeNull();
    const viaGraphql = await gql(api.url, ChatHistoryDocument, { room, limit: 2 });
    expect(viaGraphql.body.data?.chatHistory.items.map((m) => m.text)).toEqual(['three', 'two']);
    expect(viaGraphql.body.data?.chatHistory.nextCursor).toBe(page1.body.nextCursor);
  });

  it('refuses bad text, rooms and anonymous writers with the same codes on both transports, writing nothing', async () => {
    const room = 'game:rules';
    const writer = await socket(alice.accessToken);
    const anonymous = await socket();
    const bad = ['', '   ', 'x'.repeat(501), 'bell\u0007', 'spoof\u202Etxt.exe', 'nul\u0000'];
    for (const text of bad) {
      const ack = await emitAck(writer, 'chat:send', { room, text });
      expect(ack, JSON.stringify(text)).toMatchObject({ ok: false, error: { code: 'VALIDATION_FAILED' } });
    }
    expect(await emitAck(writer, 'chat:send', { room: 'Lobby', text: 'hi' })).toMatchObject({ ok: false, error: { code: 'VALIDATION_FAILED' } });
    expect(await emitAck(writer, 'room:join', { room: 'game:' + 'x'.repeat(65) })).toMatchObject({ ok: false, error: { code: 'VALIDATION_FAILED' } });
    expect(await emitAck(anonymous, 'chat:send', { room, text: 'hi' })).toMatchObject({ ok: false, error: { code: 'UNAUTHENTICATED' } });
    expect(await emitAck(writer, 'chat:send', { room, text: 'line one\nline two\t✓ 🎲' })).toMatchObject({ ok: true });

    const ws = wsClient(api.wsUrl, { authorization: `Bearer ${alice.accessToken}` });
    try {
      const tooLong = await wsQuery(ws, SendChatMessageDocument, { room, text: 'x'.repeat(501) });
      expect(tooLong.errors?.[0]?.extensions?.code).toBe('VALIDATION_FAILED');
      const control = await wsQuery(ws, SendChatMessageDocument, { room, text: 'bell\u0007' });
      expect(control.errors?.[0]?.extensions?.code).toBe('VALIDATION_FAILED');
    } finally {
      await ws.dispose();
    }
    expect((await history(room)).body.items.map((m) => m.text)).toEqual(['line one\nline two\t✓ 🎲']);
    const badQuery = await history('game:rules', '&limit=1000');
    expect(badQuery.status).toBe(400);
    expect(badQuery.body.error?.code).toBe('VALIDATION_FAILED');
  });

  it('the per-wallet message limit (CHAT.MESSAGE_RATE_LIMIT_MAX) refuses the 11th message in its window with RATE_LIMITED and when to retry, on graphql-ws and Socket.IO alike, from one shared budget', async () => {
    const limit = api.config.chat.messagesPerWindow;
    const refusal = { code: 'RATE_LIMITED', message: expect.stringContaining('per wallet'), details: { scope: 'chat-messages', retryAfterSeconds: expect.any(Number) } };
    const [overWs, overSocketIo, overBoth] = await Promise.all([loginWithKeypair(api.url), loginWithKeypair(api.url), loginWithKeypair(api.url)]);
    // each burst is sent at once, well inside the 10 s window its first message opens
    const wsSends = (client: ReturnType<typeof wsClient>, count: number) =>
      Promise.all(Array.from({ length: count }, (_, i) => wsQuery(client, SendChatMessageDocument, { room: 'game:limit', text: `ws ${i}` })));
    const socketSends = (s: Socket, count: number) => Promise.all(Array.from({ length: count }, (_, i) => emitAck(s, 'chat:send', { room: 'game:limit', text: `sio ${i}` })));

    const ws = wsClient(api.wsUrl, { authorization: `Bearer ${overWs.accessToken}` });
    const shared = wsClient(api.wsUrl, { authorization: `Bearer ${overBoth.accessToken}` });
    try {
      const overGraphqlWs = await wsSends(ws, limit + 1);
      expect(overGraphqlWs.filter((r) => !r.errors)).toHaveLength(limit);
      const refused = overGraphqlWs.flatMap((r) => r.errors ?? []);
      expect(refused).toHaveLength(1);
      expect({ message: refused[0].message, ...refused[0].extensions }).toMatchObject(refusal);

      const acks = await socketSends(await socket(overSocketIo.accessToken), limit + 1);
      expect(acks.filter((a) => a.ok)).toHaveLength(limit);
      expect(acks.filter((a) => !a.ok)).toEqual([{ ok: false, error: refusal }]);

      // one wallet writing on both transports at once draws on one budget
      const [viaWs, viaSocketIo] = await Promise.all([wsSends(shared, 6), socketSends(await socket(overBoth.accessToken), 6)]);
      expect(viaWs.filter((r) => !r.errors).length + viaSocketIo.filter((a) => a.ok).length).toBe(limit);
      for (const error of [...viaWs.flatMap((r) => r.errors ?? []).map((e) => ({ message: e.message, ...e.extensions })), ...viaSocketIo.flatMap((a) => (a.ok ? [] : [a.error]))]) {
        expect(error).toMatchObject(refusal);
      }
    } finally {
      await Promise.all([ws.dispose(), shared.dispose()]);
    }
  });

  it('a reaction sent 20 times in parallel is stored once and broadcast once', async () => {
    const room = 'game:react';
    const reader = await socket();
    await emitAck(reader, 'room:join', { room });
    const reactions = collect<{ count: number; emoji: string }>(reader, 'chat:reaction');
    const messages = collect(reader, 'chat:message');
    const writer = await socket(alice.accessToken);
    const sent = await emitAck(writer, 'chat:send', { room, text: 'react to me' });
    if (!sent.ok) throw new Error(`send refused: ${sent.error.code}`);
    const messageId = (sent.message as { id: string }).id;
    const fan = await socket(bob.accessToken);
    const acks = await Promise.all(Array.from({ length: 20 }, () => emitAck(fan, 'chat:react', { messageId, emoji: '🔥' })));
    expect(acks.every((a) => a.ok)).toBe(true);
    expect(await emitAck(fan, 'chat:react', { messageId, emoji: 'not an emoji' })).toMatchObject({ ok: false, error: { code: 'VALIDATION_FAILED' } });
    expect(await emitAck(fan, 'chat:react', { messageId: '999999999', emoji: '🔥' })).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } });
    // a later message on the same channel arrives after every earlier reaction broadcast
    await emitAck(writer, 'chat:send', { room, text: 'marker' });
    await until(() => messages.length === 2, 'the marker message');
    expect(reactions).toEqual([{ messageId, room, emoji: '🔥', user: bob.address, count: 1 }]);
    expect(await api.db.prisma.chatReaction.count({ where: { messageId: BigInt(messageId) } })).toBe(1);
    const page = await history(room, '&limit=2');
    expect(page.body.items[1]).toMatchObject({ text: 'react to me', reactions: [{ emoji: '🔥', count: 1 }] });
  });

  it('never logs an access token sent in a handshake (Socket.IO auth or graphql-ws connectionParams)', () => {
    const logged = api.logs.raw.join('\n');
    for (const token of [alice.accessToken, bob.accessToken]) expect(logged).not.toContain(token);
  });

  it('a burst of 50 typing events is debounced to at most one broadcast, seen by graphql-ws and Socket.IO subscribers', async () => {
    const room = 'game:typing';
    const reader = await socket();
    await emitAck(reader, 'room:join', { room });
    const typingSeen = collect<{ user: string }>(reader, 'typing');
    const markers = collect(reader, 'chat:message');
    const listener = wsClient(api.wsUrl);
    const sub = wsSubscribe(listener, TypingDocument, { room });
    try {
      const typist = await socket(bob.accessToken);
      let broadcasts = 0;
      const type = async () => {
        const ack = await emitAck(typist, 'typing', { room });
        if (ack.ok && ack.broadcast === true) broadcasts += 1;
        return ack.ok;
      };
      // subscriptions go live asynchronously: type (once per debounce window) until both transports have seen one
      await until(async () => (await type()) && typingSeen.length > 0 && sub.events.length > 0, 'the first typing broadcast on both transports', 10_000, 3_100);
      const before = broadcasts;
      const burst = await Promise.all(Array.from({ length: 50 }, () => type()));
      expect(burst.every(Boolean)).toBe(true);
      expect(broadcasts - before).toBeLessThanOrEqual(1);
      // a later message on the same channel arrives after every earlier typing broadcast
      await emitAck(typist, 'chat:send', { room, text: 'done typing' });
      await until(() => markers.length === 1, 'the marker message');
      expect(typingSeen.length).toBe(broadcasts);
      expect(typingSeen.length).toBeLessThanOrEqual(4);
      expect(typingSeen.every((t) => t.user === bob.address)).toBe(true);
    } finally {
      sub.dispose();
      await listener.dispose();
    }
  });
});
