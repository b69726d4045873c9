// The slow-consumer rule on real `ws` sockets over loopback: a subscriber that stops reading
// misses frames (counted) once its socket holds more than the limit unsent, while a reading one
// gets every frame, and the backlogged one gets frames again after it drains.
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket, WebSocketServer } from 'ws';
import { socketFrameSink } from '../../src/gateway/socket-sink';
import { until } from '../helpers/until';

const LIMIT = 256 * 1024;
const payload = JSON.stringify({ text: 'x'.repeat(16 * 1024) });

let server: WebSocketServer | undefined;
afterEach(async () => {
  for (const client of server?.clients ?? []) client.terminate();
  await new Promise((resolve) => server?.close(resolve));
});

/** A loopback server, and per client the server's end of its socket and the client itself. */
async function connect(count: number) {
  server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await once(server, 'listening');
  const url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const pairs: Array<{ serverSide: WebSocket; client: WebSocket; received: number }> = [];
  for (let i = 0; i < count; i++) {
    const accepted = once(server, 'connection') as Promise<[WebSocket]>;
    const client = new WebSocket(url);
    await once(client, 'open');
    const pair = { serverSide: (await accepted)[0], client, received: 0 };
    client.on('message', () => pair.received++);
    pairs.push(pair);
  }
  return pairs;
}

describe('slow websocket consumers', () => {
  it('drops frames to a socket over the unsent limit, keeps serving a reading one, and resumes after a drain', async () => {
    const [stalled, reading] = await connect(2);
    // The stalled client stops reading: first the kernel buffers fill, then the server's own.
    (stalled.client as unknown as { _socket: { pause(): void; resume(): void } })._socket.pause();
    const drops = { stalled: 0, reading: 0 };
    const envelope = '{"id":"1","type":"next","payload":';
    const toStalled = socketFrameSink(stalled.serverSide, envelope, () => drops.stalled++, LIMIT);
    const toReading = socketFrameSink(reading.serverSide, envelope, () => drops.reading++, LIMIT);
    const broadcast = async () => {
      toStalled(payload);
      toReading(payload);
      // One event-loop turn per broadcast, as between real ones: the reading client takes its frames.
      await new Promise((resolve) => setImmediate(resolve));
    };
    let sent = 0;
    while (drops.stalled === 0) {
      await broadcast();
      sent++;
      expect(sent).toBeLessThan(10_000);
    }
    for (let i = 0; i < 20; i++) await broadcast();
    expect(drops).toEqual({ stalled: 21, reading: 0 });
    // What is held for the stalled socket stays near the limit (one frame over at most).
    expect(stalled.serverSide.bufferedAmount).toBeLessThanOrEqual(LIMIT + payload.length + 64);
    await until(() => reading.received === sent + 20, 'the reading client to get every frame');

    (stalled.client as unknown as { _socket: { resume(): void } })._socket.resume();
    await until(() => stalled.serverSide.bufferedAmount === 0, 'the stalled socket to drain');
    toStalled(payload);
    // Every frame sent before the first drop, then the one sent after the drain.
    await until(() => stalled.received === sent, 'the drained client to get the frames before the drops and the one after');
  });
});
