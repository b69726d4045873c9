import { io, type Socket } from 'socket.io-client';

export type Ack = { ok: true; [k: string]: unknown } | { ok: false; error: { code: string; message: string; details?: Record<string, unknown> } };

/** A Socket.IO client on the API's `/socket.io/`; resolves once connected, rejects with the connect_error. */
export function connectSocket(apiUrl: string, opts: { token?: string; transports?: Array<'polling' | 'websocket'> } = {}): Promise<Socket> {
  const socket = io(apiUrl, {
    path: '/socket.io/',
    auth: opts.token ? { token: opts.token } : {},
    transports: opts.transports ?? ['polling', 'websocket'],
    reconnection: false,
    forceNew: true,
    // the default 20 s handshake timeout is short on a loaded CI machine running several API processes
    timeout: 45_000,
  });
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve(socket));
    socket.once('connect_error', (err) => {
      socket.close();
      reject(err);
    });
  });
}

export const emitAck = (socket: Socket, event: string, payload: unknown, timeoutMs = 10_000): Promise<Ack> => socket.timeout(timeoutMs).emitWithAck(event, payload) as Promise<Ack>;

/** Collects one server event's payloads from the moment it is called. */
export function collect<T = Record<string, unknown>>(socket: Socket, event: string) {
  const items: T[] = [];
  socket.on(event, (payload: T) => items.push(payload));
  return items;
}

export { until } from '../helpers/until';
