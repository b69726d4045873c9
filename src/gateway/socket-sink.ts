import { ownedBytes } from '../owned-bytes';

/**
 * Over this many bytes unsent to one websocket (its `bufferedAmount`: what the kernel has not
 * taken yet), broadcast frames to it are dropped and counted instead of queued, so a consumer that
 * stops reading cannot grow the server's memory; its other operations and everyone else go on.
 */
export const MAX_UNSENT_BYTES = 1024 * 1024;

/** The parts of a `ws` WebSocket the sink uses. */
export interface FrameSocket {
  readonly readyState: number;
  readonly OPEN: number;
  readonly bufferedAmount: number;
  /** The negotiated extensions ('' for none). */
  readonly extensions: string;
  send(data: Buffer, options: { binary: boolean }): void;
}

/** The connection's byte stream under the WebSocket (the upgraded request's socket), written to directly. */
export interface FrameStream {
  write(chunk: Buffer): boolean;
}

/** `}`, closing the `next` envelope. */
const CLOSE_BRACE = 0x7d;

/**
 * Writes each shared payload (UTF-8, encoded once per event for every subscriber) into the
 * subscriber's own `next` envelope (encoded once per subscription), unless the socket is closed
 * or backlogged. With no extension negotiated (no permessage-deflate: the server offers none)
 * `ws` writes every frame of its own synchronously, so the sink writes the whole WebSocket frame
 * (RFC 6455: FIN, text, unmasked, its length) to the stream itself: one buffer and one write,
 * where `ws.send` frames a string with a second buffer, a UTF-8 encoding and a corked two-part
 * write per subscriber. Frames keep their order with the ones `ws` writes, and `bufferedAmount`
 * counts them (it reads the stream's own backlog). Otherwise, or without the stream, `ws` sends it.
 */
export function socketFrameSink(socket: FrameSocket, stream: FrameStream | null, id: string, onDrop: () => void, maxUnsentBytes = MAX_UNSENT_BYTES): (payload: Buffer) => void {
  const envelope = ownedBytes(`{"id":${JSON.stringify(id)},"type":"next","payload":`);
  return (payload) => {
    if (socket.readyState !== socket.OPEN) return;
    if (socket.bufferedAmount > maxUnsentBytes) return onDrop();
    const length = envelope.length + payload.length + 1;
    const direct = stream !== null && socket.extensions === '';
    const head = !direct ? 0 : length < 126 ? 2 : length < 65_536 ? 4 : 10;
    const frame = Buffer.allocUnsafe(head + length);
    if (direct) {
      frame[0] = 0x81; // FIN, opcode 1 (text)
      if (head === 2) frame[1] = length;
      else if (head === 4) {
        frame[1] = 126;
        frame.writeUInt16BE(length, 2);
      } else {
        frame[1] = 127;
        frame.writeBigUInt64BE(BigInt(length), 2);
      }
    }
    envelope.copy(frame, head);
    payload.copy(frame, head + envelope.length);
    frame[head + length - 1] = CLOSE_BRACE;
    if (direct) stream.write(frame);
    else socket.send(frame, { binary: false });
  };
}
