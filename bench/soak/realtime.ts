// The soak's realtime side: a few hundred live subscribers of one chat room (lean graphql-ws
// clients, bench/lean-ws-client.ts, plus some Socket.IO clients), spread over both replicas, and
// wallets sending chat messages over Socket.IO and graphql-ws. A message's text carries its send
// time: each delivery to a subscriber is timed (`chat.delivery`), each send's acknowledgement too.
import { io, type Socket } from 'socket.io-client';
import WebSocket from 'ws';
import { leanSubscribe, type LeanSubscription } from '../lean-ws-client';
import { randomIp } from './mix';
import type { Recorder } from './recorder';
import type { Wallet } from './wallets';

// a game's room (rooms are `global` or `game:<id>`): the soak's traffic stays apart from the global one
const ROOM = 'game:soak';
const SUBSCRIPTION = `subscription { chatMessages(room: "${ROOM}") { id text } }`;

export interface Realtime {
  /** Starts sending: `perSecond` messages in all, alternating transports and wallets. */
  startChat(perSecond: number): void;
  close(): void;
}

interface Sender {
  transport: 'sio' | 'gqlws';
  send(text: string): Promise<{ ok: boolean; code?: string }>;
  close(): void;
}

/** Every connection comes from its own client address (X-Forwarded-For), as the HTTP mix's requests do. */
const forwarded = (ip = randomIp()) => ({ 'x-forwarded-for': ip });

function sioConnect(url: string, token?: string, ip?: string): Promise<Socket> {
  const socket = io(url, { path: '/socket.io/', transports: ['websocket'], extraHeaders: forwarded(ip), auth: token ? { token } : {}, forceNew: true, reconnection: false, timeout: 30_000 });
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve(socket));
    socket.once('connect_error', reject);
  });
}

async function sioSender(url: string, wallet: Wallet): Promise<Sender> {
  const socket = await sioConnect(url, wallet.accessToken, wallet.ip);
  return {
    transport: 'sio',
    send: async (text) => {
      const ack = (await socket.timeout(30_000).emitWithAck('chat:send', { room: ROOM, text })) as { ok: boolean; error?: { code: string } };
      return { ok: ack.ok, code: ack.error?.code };
    },
    close: () => socket.disconnect(),
  };
}

function gqlwsSender(url: string, wallet: Wallet): Promise<Sender> {
  const ws = new WebSocket(`${url.replace('http', 'ws')}/graphql`, 'graphql-transport-ws', { headers: forwarded(wallet.ip) });
  const waiting = new Map<string, (answer: { ok: boolean; code?: string }) => void>();
  let next = 0;
  return new Promise((resolve, reject) => {
    ws.once('error', reject);
    ws.once('open', () => ws.send(JSON.stringify({ type: 'connection_init', payload: { authorization: `Bearer ${wallet.accessToken}` } })));
    ws.on('message', (raw) => {
      const m = JSON.parse(String(raw)) as { type: string; id?: string; payload?: { errors?: Array<{ extensions?: { code?: string } }> } | Array<{ extensions?: { code?: string } }> };
      if (m.type === 'connection_ack')
        resolve({
          transport: 'gqlws',
          send: (text) =>
            new Promise((done) => {
              const id = String(++next);
              waiting.set(id, done);
              ws.send(JSON.stringify({ type: 'subscribe', id, payload: { query: 'mutation($r: String!, $t: String!) { sendChatMessage(room: $r, text: $t) { id } }', variables: { r: ROOM, t: text } } }));
            }),
          close: () => ws.close(),
        });
      else if (m.type === 'ping') ws.send(JSON.stringify({ type: 'pong' }));
      else if ((m.type === 'next' || m.type === 'error') && m.id) {
        const errors = Array.isArray(m.payload) ? m.payload : m.payload?.errors;
        waiting.get(m.id)?.(errors?.length ? { ok: false, code: errors[0]?.extensions?.code ?? 'GRAPHQL_ERROR' } : { ok: true });
        waiting.delete(m.id);
      }
    });
  });
}

export async function startRealtime(opts: { urls: string[]; subscribers: number; socketIoSubscribers: number; senders: Wallet[]; recorder: Recorder }): Promise<Realtime> {
  const { urls, recorder } = opts;
  const onText = (text: string) => {
    const sentAt = /^soak (\d+)/.exec(text)?.[1];
    if (sentAt) recorder.record('chat.delivery', Date.now() - Number(sentAt), 'ok');
  };
  const subscriptions: LeanSubscription[] = [];
  for (let i = 0; i < opts.subscribers; i += 100) {
    const batch = Array.from({ length: Math.min(100, opts.subscribers - i) }, (_, j) => leanSubscribe(urls[(i + j) % urls.length]!, SUBSCRIPTION, onText, { headers: forwarded() }));
    subscriptions.push(...(await Promise.all(batch)));
  }
  const listeners = await Promise.all(
    Array.from({ length: opts.socketIoSubscribers }, async (_, i) => {
      const socket = await sioConnect(urls[i % urls.length]!);
      socket.on('chat:message', (m: { text?: string }) => m.text && onText(m.text));
      await socket.emitWithAck('room:join', { room: ROOM });
      return socket;
    }),
  );
  const senders = await Promise.all(opts.senders.map((w, i) => (i % 2 ? gqlwsSender(urls[i % urls.length]!, w) : sioSender(urls[i % urls.length]!, w))));
  let timer: NodeJS.Timeout | undefined;
  let turn = 0;
  return {
    startChat(perSecond) {
      timer = setInterval(() => {
        const sender = senders[turn++ % senders.length]!;
        const started = performance.now();
        const op = `chat.send.${sender.transport}`;
        sender.send(`soak ${Date.now()}`).then(
          (a) => recorder.record(op, performance.now() - started, a.ok ? 'ok' : a.code === 'RATE_LIMITED' ? 'limited' : 'error', a.code),
          (err: Error) => recorder.record(op, performance.now() - started, 'error', err.message),
        );
      }, 1000 / perSecond);
    },
    close() {
      clearInterval(timer);
      for (const s of senders) s.close();
      for (const l of listeners) l.disconnect();
      for (const s of subscriptions) s.close();
    },
  };
}
