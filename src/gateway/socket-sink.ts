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
  send(data: string): void;
}

/** Writes each shared payload into the subscriber's own `next` envelope, unless the socket is closed or backlogged. */
export function socketFrameSink(socket: FrameSocket, envelope: string, onDrop: () => void, maxUnsentBytes = MAX_UNSENT_BYTES): (payload: string) => void {
  return (payload) => {
    if (socket.readyState !== socket.OPEN) return;
    if (socket.bufferedAmount > maxUnsentBytes) return onDrop();
    socket.send(`${envelope}${payload}}`);
  };
}
