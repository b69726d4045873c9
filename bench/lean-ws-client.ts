// Lean websocket subscribers for the fan-out driver that cost the driver as little CPU as the
// protocols allow: the RFC 6455 opening handshake and frames by hand on a plain TCP socket whose
// reads land in one reused buffer (`net.connect`'s `onread`), so a delivery is one read callback and
// a byte search, with no stream, no `ws` receiver, no per-read allocation and no JSON parse. The
// driver shares the machine's two cores with the servers it measures; what it spends per frame is
// taken from them. Server frames are unmasked (RFC 6455 §5.1); client frames are masked.
// graphql-transport-ws here (`leanSubscribe`); Socket.IO over the same socket in bench/lean-sio-client.ts.
import { createHash, randomBytes } from 'node:crypto';
import net from 'node:net';

const WS_GUID = '258EAFA5-E914-47DA-95CA-C5AB0DC85B11';
const OP_TEXT = 0x1;
const OP_CLOSE = 0x8;
const OP_PING = 0x9;
const OP_PONG = 0xa;
const TEXT_FIELD = Buffer.from('"text":"');
const NEXT_TYPE = Buffer.from('"type":"next"');
const HEADER_END = Buffer.from('\r\n\r\n');
/** Every socket's reads land here in turn: each read is handled before the next one happens. */
const READ_BUFFER = Buffer.allocUnsafe(64 * 1024);

/** One masked client frame (RFC 6455 §5.2–5.3). */
function clientFrame(opcode: number, payload: Buffer): Buffer {
  const head = payload.length < 126 ? 2 : 4;
  const frame = Buffer.allocUnsafe(head + 4 + payload.length);
  frame[0] = 0x80 | opcode;
  if (head === 2) frame[1] = 0x80 | payload.length;
  else {
    frame[1] = 0x80 | 126;
    frame.writeUInt16BE(payload.length, 2);
  }
  const mask = randomBytes(4);
  mask.copy(frame, head);
  for (let i = 0; i < payload.length; i++) frame[head + 4 + i] = payload[i] ^ mask[i & 3];
  return frame;
}

export interface LeanSubscription {
  close(): void;
}

/** The chat text (`"text":"…"`, ASCII: the bench sends ASCII) of the message in `data[start, end)`, if it has one. */
export function chatTextOf(data: Buffer, start: number, end: number): string | undefined {
  const at = data.indexOf(TEXT_FIELD, start);
  if (at === -1 || at >= end) return undefined;
  const from = at + TEXT_FIELD.length;
  return data.toString('latin1', from, data.indexOf(0x22, from));
}

export interface LeanWebSocketOptions {
  url: string;
  /** The request target, with its query. */
  path: string;
  protocol?: string;
  /** The source address (127.0.0.x): each source address has its own ephemeral ports towards a server. */
  localAddress?: string;
  /** Headers added to the upgrade request (e.g. a forwarded client address). */
  headers?: Record<string, string>;
  /** Called once the upgrade is accepted. */
  onOpen(): void;
  /** Each text message, in `data[start, end)` (the bytes are only valid during the call). */
  onMessage(data: Buffer, start: number, end: number): void;
  onError(err: Error): void;
}

/** A client websocket on a plain TCP socket; `send` writes one masked text frame. */
export function openLeanWebSocket(opts: LeanWebSocketOptions): { send(text: string): void; close(): void } {
  const { hostname, port } = new URL(opts.url);
  const key = randomBytes(16).toString('base64');
  const accept = createHash('sha1').update(key + WS_GUID).digest('base64');
  let pending: Buffer | null = null;
  let upgraded = false;
  /** Handles every whole frame in `data`; returns the bytes of an unfinished one. */
  const onFrames = (data: Buffer): Buffer | null => {
    let at = 0;
    while (data.length - at >= 2) {
      const opcode = data[at] & 0x0f;
      let length = data[at + 1] & 0x7f;
      let head = 2;
      if (length === 126) {
        if (data.length - at < 4) break;
        length = data.readUInt16BE(at + 2);
        head = 4;
      } else if (length === 127) {
        if (data.length - at < 10) break;
        length = Number(data.readBigUInt64BE(at + 2));
        head = 10;
      }
      if (data.length - at < head + length) break;
      const start = at + head;
      if (opcode === OP_TEXT) opts.onMessage(data, start, start + length);
      else if (opcode === OP_PING) socket.write(clientFrame(OP_PONG, data.subarray(start, start + length)));
      else if (opcode === OP_CLOSE) socket.destroy();
      at = start + length;
    }
    return at < data.length ? Buffer.from(data.subarray(at)) : null;
  };
  /** Always true: keep reading. */
  const onRead = (nread: number): boolean => {
    let data = READ_BUFFER.subarray(0, nread);
    if (pending) data = Buffer.concat([pending, data]);
    if (!upgraded) {
      const end = data.indexOf(HEADER_END);
      if (end === -1) {
        pending = Buffer.from(data);
        return true;
      }
      const head = data.toString('latin1', 0, end);
      if (!head.startsWith('HTTP/1.1 101') || !head.includes(accept)) {
        socket.destroy();
        opts.onError(new Error(`websocket upgrade refused: ${head.split('\r\n')[0]}`));
        return true;
      }
      upgraded = true;
      data = data.subarray(end + HEADER_END.length);
      opts.onOpen();
    }
    pending = onFrames(data);
    return true;
  };
  const socket = net.connect({ host: hostname, port: Number(port), localAddress: opts.localAddress, onread: { buffer: READ_BUFFER, callback: onRead } });
  socket.once('error', opts.onError);
  socket.once('connect', () => {
    socket.write(
      `GET ${opts.path} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
        `Sec-WebSocket-Key: ${key}\r\nSec-WebSocket-Version: 13\r\n${opts.protocol ? `Sec-WebSocket-Protocol: ${opts.protocol}\r\n` : ''}` +
        `${Object.entries(opts.headers ?? {})
          .map(([name, value]) => `${name}: ${value}\r\n`)
          .join('')}\r\n`,
    );
  });
  return { send: (text) => void socket.write(clientFrame(OP_TEXT, Buffer.from(text))), close: () => socket.destroy() };
}

/**
 * Connects to `${url}/graphql`, subscribes with each of `queries` (ids 1, 2, …) once acknowledged,
 * and calls `onText` with the chat text of each `next` message that has one. Resolves once the
 * subscribe messages are sent.
 */
export function leanSubscribe(
  url: string,
  queries: string | string[],
  onText: (text: string) => void,
  opts: { localAddress?: string; headers?: Record<string, string> } = {},
): Promise<LeanSubscription> {
  return new Promise((resolve, reject) => {
    const ws = openLeanWebSocket({
      url,
      path: '/graphql',
      protocol: 'graphql-transport-ws',
      localAddress: opts.localAddress,
      headers: opts.headers,
      onOpen: () => ws.send(JSON.stringify({ type: 'connection_init' })),
      onMessage: (data, start, end) => {
        const next = data.indexOf(NEXT_TYPE, start);
        if (next !== -1 && next < end) {
          const text = chatTextOf(data, start, end);
          if (text !== undefined) onText(text);
          return;
        }
        const message = JSON.parse(data.toString('utf8', start, end)) as { type: string };
        if (message.type === 'connection_ack') {
          [queries].flat().forEach((query, i) => ws.send(JSON.stringify({ type: 'subscribe', id: String(i + 1), payload: { query } })));
          resolve({ close: ws.close });
        } else if (message.type === 'ping') ws.send(JSON.stringify({ type: 'pong' }));
      },
      onError: reject,
    });
  });
}
