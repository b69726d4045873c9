import type { IncomingMessage } from 'node:http';
import proxyAddr from '@fastify/proxy-addr';
import { createAdapter } from '@socket.io/redis-adapter';
import type { FastifyInstance } from 'fastify';
import type { RedisOptions } from 'ioredis';
import { Server, type DefaultEventsMap } from 'socket.io';
import { AppError, isAppError } from '../errors';
import { createEventMeter, createOrderedAdmission, createSharedEventCaps } from '../edge/rate-limit';
import { toWireError } from '../edge/wire-error';
import type { JsonDepthRule } from '../edge/json-depth';
import type { Logger } from '../observability/logger';
import type { Services } from '../services';
import { chatOperations, type RoomEvent } from '../services/chat';
import { runOperation, type AnyOperation } from '../services/operation';
import { activityChannel } from '../services/activity';
import { createSliceQueue, type Bus, type RedisConnection, type SharedStore } from '../store';
import { handshakeAuthorization, type CallerClaims, type CallerReader } from '../edge/caller';
import { createAccessRule } from '../edge/authorize';
import { WS_CLOSE_SERVICE_RESTART } from '../fastify/drain';
import { createConnectionLeases, type ConnectionCaps, type Scope } from './caps';
import type { GatewayMetrics } from './metrics';

export const SOCKET_IO_PATH = '/socket.io/';

export interface SocketIoDeps {
  services: Pick<Services, 'chat' | 'presence' | 'operators' | 'limits'>;
  /** The caller of the handshake's `auth.token`, read as HTTP reads its Authorization header. */
  readCaller: CallerReader;
  store: SharedStore;
  bus: Bus;
  caps: ConnectionCaps;
  logger: Logger;
  http: { trustedProxyCidrs: string[]; corsOrigins: string[]; requestTimeoutMs: number };
  metrics: GatewayMetrics;
  /** The nesting bound of client JSON (src/edge/json-depth.ts), as on HTTP and graphql-ws. */
  depth: JsonDepthRule;
  /** New clients of the shared store's Redis for the adapter (absent, or `connect` giving null: the in-memory adapter). */
  redis?: { connect: (extra?: RedisOptions) => RedisConnection | null; keyPrefix: string };
}

/** The declared operations that are Socket.IO events. */
const SOCKET_OPERATIONS = [chatOperations].flatMap((set) => set.operations as readonly AnyOperation<SocketIoDeps['services']>[]).filter((op) => op.socket);

interface SocketData {
  connId: string;
  auth: CallerClaims | null;
  operator: boolean;
  scopes: Array<[Scope, string]>;
  rooms: Set<string>;
}

type Ack = (reply: Record<string, unknown>) => void;

/**
 * An event's acknowledgement bounded by the request time-out from the event's arrival, as HTTP's bound
 * counts from the request's (its admission's shared-store charge included): past it the client is
 * acknowledged REQUEST_TIMEOUT (a 503's code) and may retry, and the later answer is dropped; the work
 * runs on (a `chat:send` retried with its clientId is still one message).
 */
function answerWithin(ack: Ack, ms: number): Ack {
  let answered = false;
  const answer: Ack = (reply) => {
    if (answered) return;
    answered = true;
    clearTimeout(timer);
    ack(reply);
  };
  const timer = setTimeout(() => answer({ ok: false, error: toWireError(new AppError('REQUEST_TIMEOUT', `Event did not complete within ${ms} ms`)).error }), ms);
  timer.unref();
  return answer;
}

const EVENT_NAMES: Record<RoomEvent['type'], string> = { message: 'chat:message', removed: 'chat:removed', reaction: 'chat:reaction', typing: 'typing', presence: 'presence' };
const payloadOf = (e: RoomEvent) => {
  switch (e.type) {
    case 'message':
      return e.message;
    case 'removed':
      return e.removed;
    case 'reaction':
      return e.reaction;
    case 'typing':
      return e.typing;
    case 'presence':
      return e.presence;
  }
};
const ioRoom = (room: string) => `chat:${room}`;

/**
 * Socket.IO on the API port at /socket.io/ (long-polling and websocket), a thin adapter over the
 * chat and presence services like the graphql-ws gateway: the same handshake token policy, the
 * same connection leases (caps count both transports together), the same per-event meter.
 * Room events reach this process once through the shared store and are emitted to local sockets
 * only (`io.local`): one store publish per event however many replicas. The Redis adapter carries
 * Socket.IO's own cross-replica requests (fetchSockets, disconnectSockets, serverSideEmit).
 */
export async function registerSocketIo(app: FastifyInstance, deps: SocketIoDeps): Promise<Server> {
  const { services, caps, logger } = deps;
  const leases = createConnectionLeases(deps.store, caps);
  const eventCaps = createSharedEventCaps(deps.store, caps);
  const clientIp = trustedClientIp(deps.http.trustedProxyCidrs);
  const accessRule = createAccessRule(services.operators);
  let draining = false;

  // @fastify/websocket routes every upgrade through Fastify; Socket.IO's upgrades are engine.io's.
  const server = app.server;
  const fastifyUpgrades = server.listeners('upgrade') as Array<(...args: unknown[]) => void>;
  server.removeAllListeners('upgrade');
  server.on('upgrade', (req: IncomingMessage, ...rest: unknown[]) => {
    if (req.url?.startsWith(SOCKET_IO_PATH)) return;
    for (const listener of fastifyUpgrades) listener.call(server, req, ...rest);
  });

  const io = new Server<DefaultEventsMap, DefaultEventsMap, DefaultEventsMap, SocketData>(server, {
    path: SOCKET_IO_PATH,
    serveClient: false,
    destroyUpgrade: false,
    maxHttpBufferSize: caps.maxPayloadBytes,
    cors: { origin: deps.http.corsOrigins, credentials: false },
    allowRequest: (_req, callback) => callback(draining ? 'The server is shutting down' : null, !draining),
  });

  const adapterClients = deps.redis ? redisAdapterClients(deps.redis.connect, logger) : null;
  if (adapterClients) io.adapter(createAdapter(adapterClients.pub, adapterClients.sub, { key: `${deps.redis!.keyPrefix}socket.io` }));

  // Room events go to the room's local sockets in slices (socket.io encodes each slice's packet once):
  // a broadcast to 25,000 sockets would otherwise be one long task that stalls the process.
  const emitInSlices = createSliceQueue();
  const emitLocal = (ids: Iterable<string> | undefined, event: string, payload: unknown) =>
    emitInSlices([...(ids ?? [])], (slice) => io.local.to(slice as string[]).emit(event, payload));
  const roomListeners = new Map<string, { sockets: number; stop: Promise<() => Promise<void>> }>();
  const enterRoom = async (room: string) => {
    const listening = roomListeners.get(room);
    if (listening) return void (listening.sockets += 1);
    const stop = services.chat.listen(room, (event) => emitLocal(io.of('/').adapter.rooms.get(ioRoom(room)), EVENT_NAMES[event.type], payloadOf(event)));
    roomListeners.set(room, { sockets: 1, stop });
    await stop;
  };
  const exitRoom = (room: string) => {
    const listening = roomListeners.get(room);
    if (!listening || --listening.sockets > 0) return;
    roomListeners.delete(room);
    void listening.stop.then((stop) => stop());
  };
  const stopActivity = deps.bus.listen(activityChannel, (event) => emitLocal(io.of('/').sockets.keys(), 'activity', event));

  io.use(async (socket, next) => {
    try {
      const { auth, operator } = deps.readCaller(handshakeAuthorization(socket.handshake.auth));
      const connId = `sio:${socket.id}`;
      const scopes: Array<[Scope, string]> = [['service', ''], ['ip', clientIp(socket.request)], ...(auth ? [['wallet', auth.wallet] as [Scope, string]] : [])];
      const full = await leases.admit(connId, scopes);
      if (full) throw new AppError('RATE_LIMITED', full === 'wallet' ? 'Too many connections for this wallet' : `Too many websocket connections (${full} cap)`, { scope: full });
      socket.data = { connId, auth, operator: operator === true, scopes, rooms: new Set() };
      next();
    } catch (err) {
      const refusal = isAppError(err) ? err : new AppError('INTERNAL', 'Internal error');
      if (!isAppError(err)) logger.error({ err }, 'socket.io: admission failed');
      next(Object.assign(new Error(refusal.message), { data: { code: refusal.code } }));
    }
  });

  io.on('connection', (socket) => {
    const { connId, auth, scopes, rooms } = socket.data;
    const socketIp = scopes.find(([scope]) => scope === 'ip')?.[1] ?? '';
    const caller = { wallet: auth?.wallet ?? null, transport: 'websocket' as const };
    const meter = createEventMeter(caps);
    const admit = createOrderedAdmission((err) => logger.warn({ err }, 'socket.io: event cap charge failed; event admitted'));
    deps.metrics.connections.inc({ transport: 'socket.io' });
    const unhold = leases.hold(connId, scopes);
    void services.presence.connect(connId, caller.wallet).catch((err: unknown) => logger.warn({ err }, 'socket.io: presence connect failed'));

    socket.use((packet, next) => {
      const last = packet.length > 1 && typeof packet[packet.length - 1] === 'function' ? (packet[packet.length - 1] as Ack) : undefined;
      const args = packet.slice(1, last ? -1 : undefined);
      // the handler gets the bounded acknowledgement (socket.io hands it this same packet)
      const ack = last && answerWithin(last, deps.http.requestTimeoutMs);
      if (ack) packet[packet.length - 1] = ack;
      // judged before anything stringifies it (JSON.stringify recurses)
      const tooDeep = args.reduce<AppError | null>((found, arg) => found ?? deps.depth.judge(arg, 'event payload'), null);
      const verdict = meter.judge(tooDeep ? 0 : Buffer.byteLength(JSON.stringify(args)));
      // packets already received keep arriving after the disconnect: nothing more is counted or answered
      if (!socket.connected) return;
      const refuse = (refusal: AppError) => {
        const { error } = toWireError(refusal);
        deps.metrics.refusals.inc({ transport: 'socket.io', reason: error.code });
        ack?.({ ok: false, error });
      };
      if (tooDeep && verdict !== 'abuse') return refuse(tooDeep);
      if (verdict === 'accept') {
        // also charged to the caps per service, IP and wallet (shared store); packets keep their order
        return admit(eventCaps.charge(scopes), (refusal) => {
          if (!socket.connected) return;
          if (refusal) return refuse(refusal);
          next();
        });
      }
      if (verdict === 'abuse') {
        deps.metrics.refusals.inc({ transport: 'socket.io', reason: 'abuse' });
        return void socket.disconnect(true);
      }
      refuse(meter.refusal(verdict));
    });

    const on = (event: string, run: (payload: unknown) => Promise<Record<string, unknown>>) =>
      socket.on(event, async (payload: unknown, ack?: unknown) => {
        const reply: Ack = typeof ack === 'function' ? (ack as Ack) : () => undefined;
        try {
          reply({ ok: true, ...(await run(payload)) });
        } catch (err) {
          const { error, unexpected } = toWireError(err);
          if (unexpected) logger.error({ err, event }, 'socket.io: event failed');
          reply({ ok: false, error });
        }
      });

    on('room:join', async (payload) => {
      const room = services.chat.room(payload);
      if (!rooms.has(room)) {
        if (rooms.size >= caps.roomsPerConnection) throw new AppError('RATE_LIMITED', `A socket may be in at most ${caps.roomsPerConnection} rooms`);
        rooms.add(room);
        await enterRoom(room);
        await socket.join(ioRoom(room));
        await services.presence.join(connId, room);
      }
      return { room, presence: await services.presence.counts(room) };
    });
    on('room:leave', async (payload) => {
      const room = services.chat.room(payload);
      if (rooms.delete(room)) {
        await socket.leave(ioRoom(room));
        exitRoom(room);
        await services.presence.leave(connId, room);
      }
      return { room };
    });
    // the declared operations with a Socket.IO event (src/services/*/operations.ts): access, limits and handler as on every transport
    for (const op of SOCKET_OPERATIONS) {
      const { event, reply } = op.socket!;
      on(event, async (payload) => {
        // the edge's rule, as REST routes and GraphQL operations apply it
        if (op.access !== 'public') accessRule.authorize(socket.data, [op.access]);
        const call = { params: {}, input: payload, caller: socket.data, requestId: connId, ip: socketIp, transport: 'websocket' as const };
        const output = await runOperation(op, services, call);
        return reply ? { [reply]: output } : (output as Record<string, unknown>);
      });
    }

    socket.on('disconnect', () => {
      unhold();
      deps.metrics.connections.dec({ transport: 'socket.io' });
      for (const room of rooms) exitRoom(room);
      rooms.clear();
      void leases.release(connId, scopes).catch((err: unknown) => logger.warn({ err }, 'socket.io: failed to release connection lease'));
      void services.presence.disconnect(connId).catch((err: unknown) => logger.warn({ err }, 'socket.io: presence disconnect failed'));
    });
  });

  // Shutdown: no new handshakes, every connection's transport closed (clients reconnect elsewhere), then the adapter's connections.
  // Not disconnectSockets(): a Socket.IO DISCONNECT packet means "the server ended this session", after which
  // clients do not reconnect by themselves; a closed transport makes them reconnect, and a websocket gets 1012.
  // engine.io keeps its client table protected: track open transports through its public events.
  const engineClients = new Set<{ transport: { name: string; socket?: unknown } }>();
  io.engine.on('connection', (client: { transport: { name: string; socket?: unknown }; once(event: 'close', fn: () => void): void }) => {
    engineClients.add(client);
    client.once('close', () => engineClients.delete(client));
  });
  app.addHook('preClose', async () => {
    draining = true;
    for (const client of engineClients) closeWithServiceRestart(client);
    io.engine.close();
  });
  app.addHook('onClose', async () => {
    await (await stopActivity.catch(() => null))?.();
    await Promise.all([...roomListeners.values()].map(async (l) => (await l.stop)()));
    roomListeners.clear();
    // disconnect, not quit: quit would wait on a Redis that may be away; nothing of the adapter's needs flushing
    for (const client of adapterClients ? [adapterClients.pub, adapterClients.sub] : []) client.disconnect();
  });
  return io;
}

/** The client address as Fastify computes `request.ip` (the same TRUSTED_PROXY_CIDRS), so both transports share the per-IP caps. */
function trustedClientIp(trustedProxyCidrs: string[]): (req: IncomingMessage) => string {
  if (!trustedProxyCidrs.length) return (req) => req.socket.remoteAddress ?? 'unknown';
  const trust = proxyAddr.compile(trustedProxyCidrs);
  return (req) => proxyAddr(req, trust);
}

/**
 * The adapter's publish and subscribe connections. The adapter neither awaits nor handles its
 * Redis commands, so a refusal (Redis away) would be an unhandled rejection: they are caught and
 * logged here. The subscriber queues its subscriptions until connected and re-issues them after a
 * reconnect; the publisher fails fast like the store's (a request lost in an outage is dropped).
 */
function redisAdapterClients(connect: (extra?: RedisOptions) => RedisConnection | null, logger: Logger): { pub: RedisConnection; sub: RedisConnection } | null {
  const pub = connect();
  // no command timeout: a subscription queued while (re)connecting must not be given up
  const sub = connect({ enableOfflineQueue: true, maxRetriesPerRequest: null, autoResubscribe: true, commandTimeout: undefined });
  if (!pub || !sub) return null;
  for (const client of [pub, sub]) {
    client.on('error', (err: Error) => logger.debug({ err: err.message }, 'socket.io adapter: redis connection error'));
    for (const command of ['publish', 'subscribe', 'psubscribe', 'unsubscribe', 'punsubscribe'] as const) {
      const original = (client[command] as (...args: unknown[]) => Promise<unknown>).bind(client);
      (client as unknown as Record<string, unknown>)[command] = (...args: unknown[]) =>
        original(...args).catch((err: Error) => logger.debug({ err: err.message, command }, 'socket.io adapter: redis command failed'));
    }
    void client.connect().catch(() => undefined); // ioredis keeps retrying in the background
  }
  return { pub, sub };
}

/** A websocket transport is closed with 1012 (service restart, as graphql-ws's are: src/fastify/drain.ts); polling ends with engine.io's close packet. */
function closeWithServiceRestart(client: { transport: { name: string; socket?: unknown } }): void {
  const ws = client.transport.name === 'websocket' ? (client.transport.socket as { close?: (code: number, reason: string) => void } | undefined) : undefined;
  ws?.close?.(WS_CLOSE_SERVICE_RESTART, 'Service restart');
}
