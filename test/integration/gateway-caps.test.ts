import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { ServerStatusDocument } from '../../src/generated/graphql';
import { startApi, type TestApi } from '../helpers/api';
import { wsClient, wsQuery } from '../helpers/client';

/** Opens a raw graphql-ws socket; resolves on open or with the refusal status. */
function openRaw(url: string): Promise<{ ws?: WebSocket; refusedStatus?: number }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, 'graphql-transport-ws');
    ws.once('open', () => resolve({ ws }));
    ws.once('unexpected-response', (_req, res) => resolve({ refusedStatus: res.statusCode }));
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
  beforeAll(async () => {
    api = await startApi({ caps: { perIp: 3, perWallet: 1, eventsPerWindow: 5, eventWindowMs: 60_000 } });
  });
  afterAll(async () => api?.close());

  it('refuses connections over the per-IP cap before the upgrade, and frees the slot on close', async () => {
    const open = await Promise.all([openRaw(api.wsUrl), openRaw(api.wsUrl), openRaw(api.wsUrl)]);
    expect(open.every((o) => o.ws)).toBe(true);
    const fourth = await openRaw(api.wsUrl);
    expect(fourth.refusedStatus).toBe(429);
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
    expect((await closed).code).toBe(4403);
  });

  it('closes a connection sending a message over 16 KiB (1009) or too many messages (4430)', async () => {
    const big = await openRaw(api.wsUrl);
    const bigClosed = closeOf(big.ws!);
    big.ws!.send('x'.repeat(16 * 1024 + 1));
    expect((await bigClosed).code).toBe(1009);

    const chatty = await openRaw(api.wsUrl);
    const chattyClosed = closeOf(chatty.ws!);
    await init(chatty.ws!);
    for (let i = 0; i < 6; i++) chatty.ws!.send(JSON.stringify({ type: 'ping' }));
    expect((await chattyClosed).code).toBe(4430);
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
