/** Broadcast subscriptions over graphql-ws: executed and serialized once per event and operation per process, spliced into each subscriber's frame. */
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
  return { socket, nexts: () => frames.filter((f) => JSON.parse(f).type === 'next') };
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

  it('an alias named like the splice placeholder is delivered as it is', async () => {
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
});
