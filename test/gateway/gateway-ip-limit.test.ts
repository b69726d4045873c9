/**
 * A limit declared on an operation (src/services/chat/operations.ts: `limits: [{ per: 'ip', … }]`)
 * holds on both websocket transports from one shared budget: wallets behind one address share it,
 * and the refusal is RATE_LIMITED naming the `ip` scope, as every limit's.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Socket } from 'socket.io-client';
import { SendChatMessageDocument } from '../../src/generated/graphql';
import { startApi, type TestApi } from '../helpers/api';
import { loginWithKeypair } from '../helpers/auth';
import { wsClient, wsQuery } from '../helpers/client';
import { connectSocket, emitAck } from './gateway-helpers';

describe('CHAT.MESSAGE_IP_RATE_LIMIT_MAX: chat messages per client address', () => {
  let api: TestApi;
  const sockets: Socket[] = [];

  beforeAll(async () => {
    // a long window keeps every send in one window; the per-wallet limit is far above the per-IP one
    api = await startApi({ env: { CHAT_MESSAGE_IP_RATE_LIMIT_MAX: '4', CHAT_MESSAGE_RATE_LIMIT_MAX: '100', CHAT_RATE_LIMIT_WINDOW_MS: '600000' } });
  });
  afterAll(async () => {
    for (const s of sockets) s.close();
    await api?.close();
  });

  it('four wallets on one address, two over Socket.IO and two over graphql-ws, sending in parallel: exactly four messages pass', async () => {
    const wallets = await Promise.all(Array.from({ length: 4 }, () => loginWithKeypair(api.url)));
    const room = 'game:ip-limit';
    const viaSocketIo = await Promise.all(wallets.slice(0, 2).map((w) => connectSocket(api.url, { token: w.accessToken })));
    sockets.push(...viaSocketIo);
    const viaGraphqlWs = wallets.slice(2).map((w) => wsClient(api.wsUrl, { authorization: `Bearer ${w.accessToken}` }));
    try {
      const [acks, answers] = await Promise.all([
        Promise.all(viaSocketIo.flatMap((s, i) => [0, 1, 2].map((n) => emitAck(s, 'chat:send', { room, text: `sio ${i}.${n}` })))),
        Promise.all(viaGraphqlWs.flatMap((c, i) => [0, 1, 2].map((n) => wsQuery(c, SendChatMessageDocument, { room, text: `ws ${i}.${n}` })))),
      ]);
      const refusals = [...acks.flatMap((a) => (a.ok ? [] : [a.error])), ...answers.flatMap((r) => (r.errors ?? []).map((e) => ({ message: e.message, ...e.extensions })))];
      expect(acks.filter((a) => a.ok).length + answers.filter((r) => !r.errors).length).toBe(4);
      expect(refusals).toHaveLength(8);
      for (const refusal of refusals) {
        expect(refusal).toMatchObject({
          code: 'RATE_LIMITED',
          message: 'Too many sendChatMessage calls: limit is 4 per 600 s per IP address',
          details: { scope: 'ip', retryAfterSeconds: expect.any(Number) },
        });
      }
      const history = (await (await fetch(`${api.url}/api/chat/message?room=${encodeURIComponent(room)}`)).json()) as { items: unknown[] };
      expect(history.items).toHaveLength(4);
    } finally {
      await Promise.all(viaGraphqlWs.map((c) => c.dispose()));
    }
  });
});
