/**
 * The fan-out bench's lean subscriber (bench/lean-ws-client.ts) against the real gateway: it
 * completes the WebSocket and graphql-transport-ws handshakes and reports each chat text in order,
 * the same texts a graphql-ws client gets, including frames long enough for a 16-bit length; the
 * lean Socket.IO client (bench/lean-sio-client.ts) likewise over engine.io's websocket transport.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { leanSioSubscribe } from '../../bench/lean-sio-client';
import { leanSubscribe } from '../../bench/lean-ws-client';
import { ChatMessagesDocument, SendChatMessageDocument } from '../../src/generated/graphql';
import { startApi, type TestApi } from '../helpers/api';
import { loginWithKeypair, type LoggedIn } from '../helpers/auth';
import { wsClient, wsQuery, wsSubscribe } from '../helpers/client';
import { until } from './gateway-helpers';

describe('the fan-out bench lean client', () => {
  let api: TestApi;
  let alice: LoggedIn;
  beforeAll(async () => {
    api = await startApi();
    alice = await loginWithKeypair(api.url);
  });
  afterAll(async () => api?.close());

  it('receives every chat text of the room in order, as a graphql-ws subscriber does', async () => {
    const room = 'game:lean-client';
    const lean: string[] = [];
    const subscription = await leanSubscribe(api.url, `subscription { chatMessages(room: "${room}") { id text } }`, (text) => lean.push(text));
    const reference = wsClient(api.wsUrl);
    const sender = wsClient(api.wsUrl, { authorization: `Bearer ${alice.accessToken}` });
    try {
      const referenceSub = wsSubscribe(reference, ChatMessagesDocument, { room });
      await until(async () => (await api.services.presence.counts(room)).online >= 2, 'both subscribers in presence');
      // the last one makes a frame over 125 bytes: the 16-bit length header
      const texts = ['short one', 'second message', `long ${'x'.repeat(200)}`];
      for (const text of texts) {
        const next = referenceSub.next(10_000);
        const sent = await wsQuery(sender, SendChatMessageDocument, { room, text });
        expect(sent.errors).toBeUndefined();
        expect((await next)?.data?.chatMessages.text).toBe(text);
      }
      await until(() => lean.length === texts.length, 'the lean client got every text');
      expect(lean).toEqual(texts);
      referenceSub.dispose();
    } finally {
      subscription.close();
      await Promise.all([reference, sender].map((c) => c.dispose()));
    }
  });

  it('the lean Socket.IO client joins a room over a bare websocket and gets each chat text, as the graphql-ws one does', async () => {
    const room = 'game:lean-sio-client';
    const lean: string[] = [];
    const subscription = await leanSioSubscribe(api.url, ['room:join', { room }], (text) => lean.push(text));
    const sender = wsClient(api.wsUrl, { authorization: `Bearer ${alice.accessToken}` });
    try {
      const texts = ['first', `long ${'y'.repeat(200)}`];
      for (const text of texts) expect((await wsQuery(sender, SendChatMessageDocument, { room, text })).errors).toBeUndefined();
      await until(() => lean.length === texts.length, 'the lean Socket.IO client got every text');
      expect(lean).toEqual(texts);
    } finally {
      subscription.close();
      await sender.dispose();
    }
  });

  it('rejects with the status line when the server refuses the upgrade', async () => {
    const server = createServer();
    server.on('upgrade', (_req, socket) => socket.end('HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\n\r\n'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      await expect(leanSubscribe(`http://127.0.0.1:${port}`, 'subscription { chatMessages(room: "x") { text } }', () => {})).rejects.toThrow(
        'websocket upgrade refused: HTTP/1.1 403 Forbidden',
      );
    } finally {
      server.close();
    }
  });
});
