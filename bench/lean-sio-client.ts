// A Socket.IO client for the fan-out load generator, as lean as bench/lean-ws-client.ts's: the
// websocket transport opened directly (`?EIO=4&transport=websocket`, no long-polling first), the
// engine.io and socket.io packets of protocol v4/v5 written and read by hand. Only what the bench
// needs: connect to the main namespace (with `auth`), one event with an acknowledgement, answer the
// server's pings, and the chat text of each event that carries one.
import { chatTextOf, openLeanWebSocket, type LeanSubscription } from './lean-ws-client';

/** engine.io packet types (first byte) and socket.io's within a `4` message. */
const EIO_OPEN = 0x30; // '0'
const EIO_PING = 0x32; // '2'
const EIO_MESSAGE = 0x34; // '4'
const SIO_CONNECT = 0x30; // '0'
const SIO_EVENT = 0x32; // '2'
const SIO_ACK = 0x33; // '3'
const SIO_CONNECT_ERROR = 0x34; // '4'

/**
 * Connects to `${url}${path}`, joins with `join` = [event, payload] once connected, and resolves
 * when that event is acknowledged `ok: true` (the acknowledgement must carry it). Every event with a
 * `"text"` field calls `onText`.
 */
export function leanSioSubscribe(
  url: string,
  join: [event: string, payload: unknown],
  onText: (text: string) => void,
  opts: { path?: string; auth?: Record<string, unknown>; localAddress?: string } = {},
): Promise<LeanSubscription> {
  return new Promise((resolve, reject) => {
    const ws = openLeanWebSocket({
      url,
      path: `${opts.path ?? '/socket.io/'}?EIO=4&transport=websocket`,
      localAddress: opts.localAddress,
      onOpen: () => undefined,
      onMessage: (data, start, end) => {
        const type = data[start];
        if (type === EIO_PING) return ws.send('3');
        if (type === EIO_OPEN) return ws.send(`40${opts.auth ? JSON.stringify(opts.auth) : ''}`);
        if (type !== EIO_MESSAGE) return;
        const sio = data[start + 1];
        if (sio === SIO_EVENT) {
          const text = chatTextOf(data, start, end);
          if (text !== undefined) onText(text);
        } else if (sio === SIO_CONNECT) ws.send(`420${JSON.stringify(join)}`);
        else if (sio === SIO_ACK) {
          const reply = data.toString('utf8', start, end);
          if (reply.includes('"ok":true')) resolve({ close: ws.close });
          else {
            ws.close();
            reject(new Error(`socket.io ${join[0]} refused: ${reply}`));
          }
        } else if (sio === SIO_CONNECT_ERROR) {
          ws.close();
          reject(new Error(`socket.io connect refused: ${data.toString('utf8', start, end)}`));
        }
      },
      onError: reject,
    });
  });
}
