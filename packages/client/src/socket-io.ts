// Socket.IO: typed events and acknowledgements of docs/realtime.md. Loaded by the client on first use.
import { io, type ManagerOptions, type Socket, type SocketOptions } from 'socket.io-client';
import type { Auth } from './auth.js';
import { fromWire, PlatformError } from './errors.js';
import { newClientId, type Ack, type Activity, type ChatConnection, type ChatMessage, type ChatReaction, type ClientToServerEvents, type JoinAck, type LeaveAck, type RoomHandlers, type ServerToClientEvents, type TypingAck } from './realtime.js';

/** socket.io-client's socket typed with the API's events and acknowledgements. */
export type TypedSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

/** How the Socket.IO connection is made (`client.socket()` passes the client's URL and auth). */
export interface SocketTransportOptions {
  /** The API's base URL; the socket connects to `/socket.io/` there. */
  url: string;
  auth: Auth;
  /** How long an event waits for its acknowledgement (default 10 000 ms): then `TIMEOUT`. */
  ackTimeoutMs?: number;
  /** Passed to socket.io-client's `io()` (transports, reconnection, …); `path` and `auth` are the client's. */
  options?: Partial<ManagerOptions & SocketOptions>;
}

/** A Socket.IO connection with each client event as a method; an `{ ok: false }` acknowledgement throws its PlatformError. */
export interface PlatformSocket {
  /** socket.io-client's socket, typed with the API's events. */
  readonly socket: TypedSocket;
  join(room: string): Promise<JoinAck>;
  leave(room: string): Promise<LeaveAck>;
  /** A `clientId` is generated when not given; a send retried after a time-out reuses it (one message). */
  send(room: string, text: string, opts?: { clientId?: string }): Promise<ChatMessage>;
  react(messageId: string, emoji: string): Promise<ChatReaction>;
  typing(room: string): Promise<TypingAck>;
  on<E extends keyof ServerToClientEvents>(event: E, listener: ServerToClientEvents[E]): () => void;
  /** A refused handshake that a refresh cannot mend (TOKEN_INVALID, RATE_LIMITED, …). */
  onError(listener: (error: PlatformError) => void): () => void;
  close(): void;
}

type AckOf<E extends keyof ClientToServerEvents> = Parameters<Parameters<ClientToServerEvents[E]>[1]>[0];
type Ok<E extends keyof ClientToServerEvents> = Omit<Extract<AckOf<E>, { ok: true }>, 'ok'>;

/**
 * The handshake carries the access token (`auth: { token }`), fetched afresh at every (re)connect; a
 * handshake refused with `TOKEN_EXPIRED` is retried at once with a refreshed token, and the rooms joined
 * are joined again after every reconnect (a new connection starts in none).
 */
export function createSocket(opts: SocketTransportOptions): PlatformSocket {
  const { auth } = opts;
  const ackTimeoutMs = opts.ackTimeoutMs ?? 10_000;
  const rooms = new Set<string>();
  const errorListeners = new Set<(error: PlatformError) => void>();
  let sentToken: string | null = null;
  let expired = false;
  let connectedOnce = false;

  const handshakeToken = async (): Promise<string | null> => (expired && sentToken ? auth.tokenAfterRejection(sentToken) : auth.accessToken());

  const socket: TypedSocket = io(opts.url.replace(/\/$/, ''), {
    ...opts.options,
    path: '/socket.io/',
    auth: (cb) => {
      handshakeToken().then(
        (token) => {
          expired = false;
          sentToken = token;
          cb(token ? { token } : {});
        },
        (err: unknown) => {
          // the login is over: connect anonymously (reads go on; writes answer UNAUTHENTICATED)
          sentToken = null;
          expired = false;
          for (const listener of errorListeners) listener(err instanceof PlatformError ? err : new PlatformError('UNAUTHENTICATED', String(err)));
          cb({});
        },
      );
    },
  });

  socket.on('connect_error', (err) => {
    const code = (err as { data?: { code?: unknown } }).data?.code;
    if (code === 'TOKEN_EXPIRED') {
      expired = true;
      socket.connect();
      return;
    }
    // a refusal by the API's middleware stops socket.io's own reconnection: tell the application
    if (typeof code === 'string' && !socket.active) {
      const error = fromWire({ code, message: err.message });
      for (const listener of errorListeners) listener(error);
    }
  });
  socket.on('connect', () => {
    if (connectedOnce) for (const room of rooms) void emit('room:join', { room }).catch(() => undefined);
    connectedOnce = true;
  });

  async function emit<E extends keyof ClientToServerEvents>(event: E, payload: Parameters<ClientToServerEvents[E]>[0]): Promise<Ok<E>> {
    let reply: Ack<unknown>;
    try {
      // socket.io-client's ack typing cannot follow a generic event name
      reply = (await (socket.timeout(ackTimeoutMs) as unknown as { emitWithAck(ev: string, p: unknown): Promise<Ack<unknown>> }).emitWithAck(event, payload));
    } catch (err) {
      throw new PlatformError('TIMEOUT', `${event}: no acknowledgement within ${ackTimeoutMs} ms`, { cause: err });
    }
    if (!reply.ok) throw fromWire(reply.error);
    return reply as unknown as Ok<E>;
  }

  return {
    socket,
    async join(room) {
      const ack = await emit('room:join', { room });
      rooms.add(ack.room);
      return ack;
    },
    async leave(room) {
      rooms.delete(room);
      return emit('room:leave', { room });
    },
    async send(room, text, sendOpts = {}) {
      const clientId = sendOpts.clientId ?? newClientId();
      for (let attempt = 1; ; attempt++) {
        try {
          return (await emit('chat:send', { room, text, clientId })).message;
        } catch (err) {
          if (!(err instanceof PlatformError) || !['REQUEST_TIMEOUT', 'TIMEOUT'].includes(err.code) || attempt >= 3) throw err;
        }
      }
    },
    async react(messageId, emoji) {
      return (await emit('chat:react', { messageId, emoji })).reaction;
    },
    async typing(room) {
      return emit('typing', { room });
    },
    on(event, listener) {
      socket.on(event, listener as never);
      return () => void socket.off(event, listener as never);
    },
    onError(listener) {
      errorListeners.add(listener);
      return () => errorListeners.delete(listener);
    },
    close() {
      rooms.clear();
      socket.disconnect();
    },
  };
}

/** Chat over Socket.IO: a room's events are the socket's events for that room. */
export function socketIoChat(ps: PlatformSocket): ChatConnection {
  const stops = new Set<() => void>();
  const listen = <E extends keyof ServerToClientEvents>(event: E, listener: ServerToClientEvents[E]) => {
    const stop = ps.on(event, listener);
    stops.add(stop);
    return () => {
      stops.delete(stop);
      stop();
    };
  };
  return {
    transport: 'socket.io',
    async join(room: string, handlers: RoomHandlers) {
      const inRoom = <T extends { room: string }>(handler: ((payload: T) => void) | undefined) => (payload: T) => {
        if (payload.room === room) handler?.(payload);
      };
      const offs = [
        handlers.message && listen('chat:message', inRoom(handlers.message)),
        handlers.removed && listen('chat:removed', inRoom(handlers.removed)),
        handlers.reaction && listen('chat:reaction', inRoom(handlers.reaction)),
        handlers.typing && listen('typing', inRoom(handlers.typing)),
        handlers.presence && listen('presence', inRoom(handlers.presence)),
        handlers.error && (() => ps.onError(handlers.error!))(),
      ].filter((off): off is () => void => typeof off === 'function');
      try {
        const ack = await ps.join(room);
        handlers.presence?.(ack.presence);
      } catch (err) {
        offs.forEach((off) => off());
        throw err;
      }
      return {
        room,
        leave: async () => {
          offs.forEach((off) => off());
          await ps.leave(room);
        },
      };
    },
    send: (room, text, opts) => ps.send(room, text, opts),
    react: (messageId, emoji) => ps.react(messageId, emoji),
    typing: (room) => ps.typing(room),
    activity: (listener: (activity: Activity) => void) => listen('activity', listener),
    async close() {
      for (const stop of [...stops]) stop();
      stops.clear();
    },
  };
}
