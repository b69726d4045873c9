import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { ServerStatusDocument } from '../../src/generated/graphql';
import { startApi, type TestApi } from '../helpers/api';
import { wsClient, wsQuery } from '../helpers/client';
import { collect, connectSocket, emitAck, until } from './gateway-helpers';

/** Opens a raw graphql-ws socket; resolves on open or with the refusal status. */
function openRaw(url: string): Promise<{ ws?: WebSocket; refusedStatus?: number; retryAfter?: string }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, 'graphql-transport-ws');
    ws.once('open', () => resolve({ ws }));
    ws.once('unexpected-response', (_req, res) => resolve({ refusedStatus: res.statusCode, retryAfter: res.headers['retry-after'] }));
    ws.once('error', reject);
  });
}

const closeOf = (ws: WebSocket) => new Promise<{ code: number; reason: string }>((resolve) => ws.once('close', (code, reason) => resolve({ code, reason: String(reason) })));

async function init(ws: WebSocket, payload?: Record<string, unknown>): Promise<string> {
  ws.send(JSON.stringify({ type: 'connection_init', payload }));
  return new Promise((resolve) => ws.once('message', (m) => resolve(JSON.parse(String(m)).type)));
}

describe('websocket gateway admission', () => {
  let api: TestApi;
  const noConnectionsLeft = () => until(async () => (await api.store.members('ws:conn:service')).length === 0, 'every connection lease released');
  beforeAll(async () => {
    api = await startApi({ caps: { perIp: 3, perWallet: 1, eventsPerWindow: 5, eventWindowMs: 60_000 } });
  });
  afterAll(async () => api?.close());

  it('refuses connections over the per-IP cap before the upgrade, and frees the slot on close', async () => {
    const open = await Promise.all([openRaw(api.wsUrl), openRaw(api.wsUrl), openRaw(api.wsUrl)]);
    expect(open.every((o) => o.ws)).toBe(true);
    const fourth = await openRaw(api.wsUrl);
    expect(fourth.refusedStatus).toBe(429);
    expect(fourth.retryAfter).toBe('10');
    const closed = closeOf(open[0].ws!);
    open[0].ws!.close();
    await closed;
    await new Promise((r) => setTimeout(r, 100));
    const again = await openRaw(api.wsUrl);
    expect(again.ws).toBeDefined();
    for (const o of [...open.slice(1), again]) o.ws!.close();
    await new Promise((r) => setTimeout(r, 100));
  });

  it('closes a second connection for the same verified wallet with 4429', async () => {
    const token = api.services.tokens.signAccess('0xwallet');
    const first = await openRaw(api.wsUrl);
    expect(await init(first.ws!, { authorization: `Bearer ${token}` })).toBe('connection_ack');
    const second = await openRaw(api.wsUrl);
    const closed = closeOf(second.ws!);
    second.ws!.send(JSON.stringify({ type: 'connection_init', payload: { authorization: `Bearer ${token}` } }));
    expect((await closed).code).toBe(4429);
    first.ws!.close();
    await new Promise((r) => setTimeout(r, 100));
  });

  it('refuses a forged handshake token', async () => {
    const { ws } = await openRaw(api.wsUrl);
    const closed = closeOf(ws!);
    ws!.send(JSON.stringify({ type: 'connection_init', payload: { authorization: 'Bearer not.a.jwt' } }));
    expect(await closed).toEqual({ code: 4403, reason: 'TOKEN_INVALID' });
  });

  it('closes a connection sending a frame over 16 KiB (1009), or messages far beyond the rate (4430)', async () => {
    const big = await openRaw(api.wsUrl);
    const bigClosed = closeOf(big.ws!);
    big.ws!.send('x'.repeat(16 * 1024 + 1));
    expect((await bigClosed).code).toBe(1009);

    const chatty = await openRaw(api.wsUrl);
    const chattyClosed = closeOf(chatty.ws!);
    await init(chatty.ws!);
    // the cap is 5 per window; abuse (closing) starts beyond 4 times that
    for (let i = 0; i < 25; i++) chatty.ws!.send(JSON.stringify({ type: 'ping' }));
    expect((await chattyClosed).code).toBe(4430);
  });

  it('refuses an over-size and an over-rate operation alone, while the same connection keeps receiving its activity subscription', async () => {
    const { ws } = await openRaw(api.wsUrl);
    const received: Array<{ type: string; id?: string; payload?: unknown }> = [];
    ws!.on('message', (m) => received.push(JSON.parse(String(m))));
    await init(ws!);
    const statusQuery = { query: '{ serverStatus { status } }' };
    ws!.send(JSON.stringify({ type: 'subscribe', id: 'feed', payload: { query: 'subscription { activity { kind player summary at } }' } }));
    // 9 KiB: under the 16 KiB frame limit, over the 8 KiB per-event limit
    ws!.send(JSON.stringify({ type: 'subscribe', id: 'big', payload: { ...statusQuery, variables: { pad: 'x'.repeat(9 * 1024) } } }));
    for (const id of ['q1', 'q2', 'q3', 'q4']) ws!.send(JSON.stringify({ type: 'subscribe', id, payload: statusQuery }));
    const byId = (id: string, type: string) => received.find((m) => m.id === id && m.type === type);
    await until(() => byId('big', 'error') && byId('q4', 'error') && byId('q2', 'complete'), 'the refusals and the accepted queries');
    expect(byId('big', 'error')!.payload).toEqual([{ message: expect.stringContaining('8192 bytes'), extensions: { code: 'PAYLOAD_TOO_LARGE' } }]);
    const perConnection = { code: 'RATE_LIMITED', details: { scope: 'connection', retryAfterSeconds: expect.any(Number) } };
    expect(byId('q3', 'error')!.payload).toEqual([{ message: expect.stringContaining('Too many events'), extensions: perConnection }]);
    expect(byId('q4', 'error')!.payload).toEqual([{ message: expect.any(String), extensions: perConnection }]);
    expect(byId('q1', 'next')!.payload).toEqual({ data: { serverStatus: { status: 'ok' } } });

    // the connection stayed open and its subscription goes on
    expect(ws!.readyState).toBe(WebSocket.OPEN);
    const event = { kind: 'bet', player: '0xabc', summary: 'won', at: new Date('2026-01-01T00:00:00Z') };
    await until(async () => {
      await api.services.activity.publish(event);
      return byId('feed', 'next');
    }, 'the activity event on the refused connection', 10_000, 100);
    expect(byId('feed', 'next')!.payload).toEqual({ data: { activity: { ...event, at: '2026-01-01T00:00:00.000Z' } } });
    ws!.close();
    await noConnectionsLeft();
  });

  it('Socket.IO counts against the same per-IP and per-wallet caps as graphql-ws, and refuses a forged token', async () => {
    await noConnectionsLeft();
    const raw = [await openRaw(api.wsUrl), await openRaw(api.wsUrl)];
    const third = await connectSocket(api.url);
    await expect(connectSocket(api.url)).rejects.toMatchObject({ data: { code: 'RATE_LIMITED' } });
    expect((await openRaw(api.wsUrl)).refusedStatus).toBe(429);
    third.close();
    for (const r of raw) r.ws!.close();
    await noConnectionsLeft();

    const token = api.services.tokens.signAccess('0x' + 'ab'.repeat(32));
    const walletWs = await openRaw(api.wsUrl);
    expect(await init(walletWs.ws!, { authorization: `Bearer ${token}` })).toBe('connection_ack');
    await expect(connectSocket(api.url, { token })).rejects.toMatchObject({ data: { code: 'RATE_LIMITED' } });
    await expect(connectSocket(api.url, { token: 'not.a.jwt' })).rejects.toMatchObject({ data: { code: 'TOKEN_INVALID' } });
    walletWs.ws!.close();
    await noConnectionsLeft();
  });

  it('Socket.IO refuses an over-size and an over-rate event in its acknowledgement, keeps the socket and its activity feed, and disconnects abuse', async () => {
    await noConnectionsLeft();
    const socket = await connectSocket(api.url, { token: api.services.tokens.signAccess('0x' + 'cd'.repeat(32)) });
    const activity = collect(socket, 'activity');
    expect(await emitAck(socket, 'chat:send', { room: 'global', text: 'x'.repeat(9 * 1024) })).toMatchObject({ ok: false, error: { code: 'PAYLOAD_TOO_LARGE' } });
    for (let i = 0; i < 4; i++) expect(await emitAck(socket, 'room:join', { room: `game:r${i}` })).toMatchObject({ ok: true });
    // the same refusal shape as the per-wallet chat limit's (gateway-chat.test.ts): when to retry is in the details
    expect(await emitAck(socket, 'room:join', { room: 'game:r9' })).toMatchObject({
      ok: false,
      error: { code: 'RATE_LIMITED', details: { scope: 'connection', retryAfterSeconds: expect.any(Number) } },
    });
    expect(socket.connected).toBe(true);
    await until(async () => {
      await api.services.activity.publish({ kind: 'bet', player: '0xdef', summary: 'lost', at: new Date('2026-01-02T00:00:00Z') });
      return activity.length > 0;
    }, 'an activity event on the refused socket', 10_000, 100);
    expect(activity[0]).toEqual({ kind: 'bet', player: '0xdef', summary: 'lost', at: '2026-01-02T00:00:00.000Z' });

    const gone = new Promise<string>((resolve) => socket.once('disconnect', resolve));
    for (let i = 0; i < 25; i++) socket.emit('typing', { room: 'global' });
    expect(await gone).toBe('io server disconnect');
    await noConnectionsLeft();
  });

  it('counts the refusals and abuse closes of both transports in /metrics', async () => {
    const text = await (await fetch(`${api.url}/metrics`)).text();
    const value = (labels: string) => Number(new RegExp(`^gateway_event_refusals_total\\{${labels}\\} (\\d+)$`, 'm').exec(text)?.[1] ?? 0);
    expect(value('transport="graphql-ws",reason="PAYLOAD_TOO_LARGE"')).toBe(1);
    expect(value('transport="graphql-ws",reason="RATE_LIMITED"')).toBeGreaterThanOrEqual(2);
    expect(value('transport="graphql-ws",reason="abuse"')).toBe(1);
    expect(value('transport="socket.io",reason="PAYLOAD_TOO_LARGE"')).toBe(1);
    expect(value('transport="socket.io",reason="RATE_LIMITED"')).toBeGreaterThanOrEqual(1);
    expect(value('transport="socket.io",reason="abuse"')).toBe(1);
  });

  it('still serves queries over graphql-ws within the caps', async () => {
    await new Promise((r) => setTimeout(r, 200));
    const client = wsClient(api.wsUrl);
    try {
      const result = await wsQuery(client, ServerStatusDocument);
      expect(result.data?.serverStatus.status).toBe('ok');
    } finally {
      await client.dispose();
    }
  });
});
