import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Socket } from 'socket.io-client';
import { startApi, type TestApi } from '../helpers/api';
import { loginWithKeypair } from '../helpers/auth';
import { connectSocket, emitAck } from './gateway-helpers';

describe('chat limits set in the environment reach the limiters', () => {
  let api: TestApi;
  const sockets: Socket[] = [];

  beforeAll(async () => {
    // Shell-friendly names, as an operator's environment spells them; a long window keeps the count in one window.
    api = await startApi({ env: { CHAT_MESSAGE_RATE_LIMIT_MAX: '2', CHAT_RATE_LIMIT_WINDOW_MS: '600000', WEBSOCKET_ROOMS_PER_CONNECTION_MAX: '1' } });
  });
  afterAll(async () => {
    for (const s of sockets) s.close();
    await api?.close();
  });

  it('CHAT.MESSAGE_RATE_LIMIT_MAX and CHAT.RATE_LIMIT_WINDOW_MS bound one wallet\'s messages', async () => {
    const alice = await loginWithKeypair(api.url);
    const writer = await connectSocket(api.url, { token: alice.accessToken });
    sockets.push(writer);
    const room = 'game:limit-settings';
    for (const text of ['one', 'two']) expect(await emitAck(writer, 'chat:send', { room, text })).toMatchObject({ ok: true });
    const refused = await emitAck(writer, 'chat:send', { room, text: 'three' });
    expect(refused).toMatchObject({ ok: false, error: { code: 'RATE_LIMITED', message: 'Too many chat messages: limit is 2 per 600 s per wallet' } });
  });

  it('WEBSOCKET.ROOMS_PER_CONNECTION_MAX bounds the rooms of one Socket.IO connection', async () => {
    const reader = await connectSocket(api.url);
    sockets.push(reader);
    expect(await emitAck(reader, 'room:join', { room: 'game:first' })).toMatchObject({ ok: true });
    expect(await emitAck(reader, 'room:join', { room: 'game:second' })).toMatchObject({ ok: false, error: { code: 'RATE_LIMITED', message: 'A socket may be in at most 1 rooms' } });
  });
});
