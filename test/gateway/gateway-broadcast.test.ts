/** Broadcast subscriptions over graphql-ws: executed and serialized once per event and operation per process, written into each subscriber's own `next` frame. */
import { print } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { ChatMessagesDocument, SendChatMessageDocument } from '../../src/generated/graphql';
import { startApi, type TestApi } from '../helpers/api';
import { loginWithKeypair, type LoggedIn } from '../helpers/auth';
import { wsClient, wsQuery, wsSubscribe } from '../helpers/client';
import { until } from './gateway-helpers';

const SUBSCRIBERS = 25;

async function executions(api: TestApi): Promise<number> {
  const text = await (await fetch(`${api.url}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith('gateway_broadcast_executions_total '));
  return Number(line?.split(' ')[1] ?? NaN);
}

/** A bare graphql-transport-ws client that keeps every frame as received. */
async function rawSubscriber(api: TestApi, id: string, query: string, variables: Record<string, unknown>) {
  const socket = new WebSocket(api.wsUrl, 'graphql-transport-ws');
  const frames: string[] = [];
  socket.on('message', (data) => frames.push(String(data)));
  await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
  socket.send(JSON.stringify({ type: 'connection_init' }));
  await until(() => frames.some((f) => JSON.parse(f).type === 'connection_ack'), 'connection_ack');
  socket.send(JSON.stringify({ type: 'subscribe', id, payload: { query, variables } }));
  return { socket, frames, nexts: () => frames.filter((f) => JSON.parse(f).type === 'next') };
}

describe('broadcast subscriptions', () => {
  let api: TestApi;
  let alice: LoggedIn;
  beforeAll(async () => {
    api = await startApi({ caps: { eventsPerWindow: 500, perIp: 100 } });
    alice = await loginWithKeypair(api.url);
  });
  afterAll(async () => api?.close());

  it('one execution per event and operation for many subscribers, each frame carrying its own id and the same payload', async () => {
    const room = 'game:broadcast-1';
    const clients = Array.from({ length: SUBSCRIBERS }, () => wsClient(api.wsUrl));
    const sender = wsClient(api.wsUrl, { authorization: `Bearer ${alice.accessToken}` });
    const query = print(ChatMessagesDocument);
    const raw = await rawSubscriber(api, 'my-own-id-"quoted"', query, { room });
    const narrow = await rawSubscriber(api, 'narrow', 'subscription Narrow($room: String!) { chatMessages(room: $room) { id text } }', { room });
    try {
      const subs = clients.map((c) => wsSubscribe(c, ChatMessagesDocument, { room }));
      const received = subs.map((s) => s.next(10_000));
      await until(async () => (await api.services.presence.counts(room)).online >= SUBSCRIBERS + 2, 'every subscriber in presence');
      const before = await executions(api);

      const sent = await wsQuery(sender, SendChatMessageDocument, { room, text: 'to everyone "quoted" </script>' });
      expect(sent.errors).toBeUndefined();
      const results = await Promise.all(received);
      for (const r of results) expect(r).toEqual({ data: { chatMessages: sent.data!.sendChatMessage } });
      await until(() => raw.nexts().length === 1 && narrow.nexts().length === 1, 'the raw subscribers got their frames');

      // the full-selection operation ran once for 26 subscribers, the narrow one once for its one subscriber
      expect((await executions(api)) - before).toBe(2);
      const frame = JSON.parse(raw.nexts()[0]!);
      expect(frame).toEqual({ id: 'my-own-id-"quoted"', type: 'next', payload: { data: { chatMessages: sent.data!.sendChatMessage } } });
      expect(JSON.parse(narrow.nexts()[0]!)).toEqual({
        id: 'narrow',
        type: 'next',
        payload: { data: { chatMessages: { id: sent.data!.sendChatMessage.id, text: 'to everyone "quoted" </script>' } } },
      });
      for (const s of subs) s.dispose();
    } finally {
      raw.socket.close();
      narrow.socket.close();
      await Promise.all([...clients, sender].map((c) => c.dispose()));
    }
  });

  it('an aliased field is delivered under its alias', async () => {
    const room = 'game:broadcast-2';
    const before = await executions(api);
    const aliased = await rawSubscriber(api, 'alias', 'subscription A($room: String!) { broadcastRef: chatMessages(room: $room) { text } }', { room });
    const sender = wsClient(api.wsUrl, { authorization: `Bearer ${alice.accessToken}` });
    try {
      await until(async () => (await api.services.presence.counts(room)).online >= 1, 'the subscriber in presence');
      await wsQuery(sender, SendChatMessageDocument, { room, text: 'aliased' });
      await until(() => aliased.nexts().length === 1, 'the aliased frame');
      expect(JSON.parse(aliased.nexts()[0]!)).toEqual({ id: 'alias', type: 'next', payload: { data: { broadcastRef: { text: 'aliased' } } } });
      expect((await executions(api)) - before).toBe(1);
    } finally {
      aliased.socket.close();
      await sender.dispose();
    }
  });

  it('two subscriptions on one connection each get their frames in order; after `complete` that id gets no more', async () => {
    const room = 'game:broadcast-3';
    const query = 'subscription M($room: String!) { chatMessages(room: $room) { text } }'
    const both = await rawSubscriber(api, 'first', query, { room });
    both.socket.send(JSON.stringify({ type: 'subscribe', id: 'second', payload: { query, variables: { room } } }));
    const sender = wsClient(api.wsUrl, { authorization: `Bearer ${alice.accessToken}` });
    const texts = (id: string) => both.nexts().map((f) => JSON.parse(f) as { id: string; payload: { data: { chatMessages: { text: string } } } }).filter((f) => f.id === id).map((f) => f.payload.data.chatMessages.text);
    try {
      await until(async () => (await api.services.presence.counts(room)).online >= 1, 'the subscriber in presence');
      // the second subscription is live once a message reaches it
      for (let i = 0; texts('second').length === 0; i++) {
        await wsQuery(sender, SendChatMessageDocument, { room, text: `probe ${i}` });
        await until(() => texts('first').length > i, 'the probe on the first subscription');
      }
      const probes = texts('first').length;
      for (const text of ['one', 'two', 'three']) await wsQuery(sender, SendChatMessageDocument, { room, text });
      await until(() => texts('first').length === probes + 3 && texts('second').slice(-3).join() === 'one,two,three', 'three messages on both');
      expect(texts('first').slice(-3)).toEqual(['one', 'two', 'three']);

      both.socket.send(JSON.stringify({ type: 'complete', id: 'second' }));
      const secondCount = texts('second').length;
      await wsQuery(sender, SendChatMessageDocument, { room, text: 'after complete' });
      await wsQuery(sender, SendChatMessageDocument, { room, text: 'and one more' });
      await until(() => texts('first').at(-1) === 'and one more', 'the first subscription still receiving');
      // frames of one connection arrive in the order written: one for `second` about the first message would be here by now
      expect(texts('second').length).toBe(secondCount);
      expect(both.frames.map((f) => JSON.parse(f) as { type: string }).filter((f) => f.type === 'error')).toEqual([]);
    } finally {
      both.socket.close();
      await sender.dispose();
    }
  });
});
