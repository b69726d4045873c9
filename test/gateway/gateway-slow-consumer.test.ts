// The broadcast sink on real `ws` sockets over loopback, both ways it writes (whole frames to the
// connection's stream, or through `ws.send`): a subscriber that stops reading misses frames
// (counted) once its socket holds more than the limit unsent, while a reading one gets every
// frame, and the backlogged one gets frames again after it drains; frames of every length header
// (7-bit, 16-bit, 64-bit) arrive as the JSON they carry.
import { once } from 'node:events';
import type { IncomingMessage } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket, WebSocketServer } from 'ws';
import { socketFrameSink } from '../../src/gateway/socket-sink';
import { until } from '../helpers/until';

const LIMIT = 256 * 1024;
const json = JSON.stringify({ text: 'x'.repeat(16 * 1024) });
const payload = Buffer.from(json);

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
  const pairs: Array<{ serverSide: WebSocket; stream: Socket; client: WebSocket; received: number; texts: string[] }> = [];
  for (let i = 0; i < count; i++) {
    const accepted = once(server, 'connection') as Promise<[WebSocket, IncomingMessage]>;
    const client = new WebSocket(url);
    await once(client, 'open');
    const [serverSide, request] = await accepted;
    const pair = { serverSide, stream: request.socket, client, received: 0, texts: [] as string[] };
    client.on('message', (data, binary) => {
      pair.received++;
      if (!binary) pair.texts.push(String(data));
    });
    pairs.push(pair);
  }
  return pairs;
}

describe.each([
  ['written to the stream', true],
  ['sent by ws', false],
])('broadcast frames %s', (_way, direct) => {
  const sinkOf = (pair: { serverSide: WebSocket; stream: Socket }, onDrop: () => void, limit = LIMIT, id = '1') => socketFrameSink(pair.serverSide, direct ? pair.stream : null, id, onDrop, limit);

  it('each is the JSON it carries in its own envelope, at every length header', async () => {
    const [pair] = await connect(1);
    const sink = sinkOf(pair, () => undefined, Infinity, 'an "id"');
    const bodies = [{ n: 1 }, { text: 'é'.repeat(60) }, { text: 'x'.repeat(200) }, { text: 'y'.repeat(70_000) }];
    for (const body of bodies) sink(Buffer.from(JSON.stringify(body)));
    await until(() => pair.texts.length === bodies.length, 'every frame');
    expect(pair.texts.map((t) => JSON.parse(t))).toEqual(bodies.map((payload) => ({ id: 'an "id"', type: 'next', payload })));
  });

  it('drops frames to a socket over the unsent limit, keeps serving a reading one, and resumes after a drain', async () => {
    const [stalled, reading] = await connect(2);
    // The stalled client stops reading: first the kernel buffers fill, then the server's own.
    (stalled.client as unknown as { _socket: { pause(): void; resume(): void } })._socket.pause();
    const drops = { stalled: 0, reading: 0 };
    const toStalled = sinkOf(stalled, () => drops.stalled++);
    const toReading = sinkOf(reading, () => drops.reading++);
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
