import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { CloseCode, makeServer } from 'graphql-ws';
import type { ExecutionArgs, ExecutionResult, GraphQLError } from 'graphql';
import type { WebSocket } from 'ws';
import { AppError } from '../errors';
import { createEventMeter, createOrderedAdmission, createSharedEventCaps } from '../edge/rate-limit';
import { toWireError } from '../edge/wire-error';
import type { JsonDepthRule } from '../edge/json-depth';
import type { Logger } from '../observability/logger';
import { connectionParamsAuthorization, type CallerClaims, type CallerReader } from '../edge/caller';
import type { SharedStore } from '../store';
import type { GraphqlPolicy } from '../graphql/policy';
import type { PresenceService } from '../services/presence';
import { createConnectionLeases, type ConnectionCaps, type Scope } from './caps';
import { createBroadcastResults } from './broadcast-results';
import { socketFrameSink } from './socket-sink';
import type { GatewayMetrics } from './metrics';

interface ConnectionExtra {
  connId: string;
  request: FastifyRequest;
  auth: CallerClaims | null;
  /** The connection presented the operator token (services/auth/operator-token.ts). */
  operator?: boolean;
  scopes: Array<[Scope, string]>;
  /** Running operations by subscription id, for the operation metrics. */
  operations: Map<string, { name: string | null | undefined; type: string; failed: boolean; startedAt: bigint }>;
  /** Set once the upgrade completed (broadcast results are written to it directly). */
  socket?: WebSocket;
}

export interface GatewayOptions {
  policy: GraphqlPolicy;
  /** The caller of the handshake's `connectionParams.authorization`, read as HTTP reads its header. */
  readCaller: CallerReader;
  store: SharedStore;
  logger: Logger;
  caps: ConnectionCaps;
  presence: PresenceService;
  metrics: GatewayMetrics;
  /** The nesting bound of client JSON (src/edge/json-depth.ts), as on HTTP and Socket.IO. */
  depth: JsonDepthRule;
}

/** A connection cap frees when some connection closes, which no window predicts: clients are told to wait this long. */
const CAPPED_RETRY_AFTER_SECONDS = 10;

/**
 * Close codes beyond graphql-ws's own (4430: events far beyond the per-connection rate, see
 * src/edge/rate-limit.ts). A refused handshake token closes with graphql-ws's Forbidden (4403) and the
 * refusal's code as the reason (TOKEN_INVALID / TOKEN_EXPIRED), the code HTTP answers with.
 */
export const GATEWAY_CLOSE = { TooManyConnections: 4429, TooManyMessages: 4430 } as const;

/**
 * graphql-ws on the same path as HTTP GraphQL. Connection caps per service and per IP are
 * checked before the upgrade (refused with 429); the per-wallet cap once the handshake's
 * token is verified (closed with 4429).
 */
export function createGraphqlWsGateway(opts: GatewayOptions) {
  const leases = createConnectionLeases(opts.store, opts.caps);
  const eventCaps = createSharedEventCaps(opts.store, opts.caps);
  const { policy } = opts;
  const format = (errors: readonly GraphQLError[]) => errors.map((e) => policy.formatError(e.toJSON(), e));
  const finish = (extra: ConnectionExtra, id: string) => {
    const running = extra.operations.get(id);
    if (!running) return;
    extra.operations.delete(id);
    policy.recordOperation(running);
  };
  // Execution goes through the HTTP executor (graphql-jit plans keyed as Apollo keys them: query hash and resolved operation name).
  const plans = new WeakMap<ExecutionArgs, { documentKey: string; operationName: string | undefined }>();
  const run = (args: ExecutionArgs, rootValue?: unknown) => {
    const plan = plans.get(args);
    // onSubscribe returns every operation's arguments: without them the plan key would be wrong.
    if (!plan) throw new Error('graphql-ws operation not prepared by the policy');
    return policy.executor.run({ ...plan, document: args.document, variables: args.variableValues ?? undefined, contextValue: args.contextValue, rootValue });
  };
  const broadcast = createBroadcastResults({ onExecuted: () => opts.metrics.broadcastExecutions.inc(), execute: run });
  const server = makeServer<Record<string, unknown> | undefined, ConnectionExtra>({
    schema: policy.schema,
    execute: (args) => run(args),
    subscribe: (args) => broadcast.subscribe(args),
    // The whole policy runs here: when onSubscribe returns arguments, graphql-ws neither parses nor validates.
    onSubscribe: (ctx, id, payload) => {
      const startedAt = process.hrtime.bigint();
      const prepared = policy.prepare({ ...payload, transport: 'ws' });
      if ('errors' in prepared) {
        policy.recordOperation({ name: payload.operationName, type: prepared.operation?.operation, failed: true, startedAt });
        return prepared.errors;
      }
      ctx.extra.operations.set(id, { name: prepared.operation.name?.value, type: prepared.operation.operation, failed: false, startedAt });
      const args = {
        schema: policy.schema,
        document: prepared.document,
        operationName: payload.operationName,
        variableValues: payload.variables,
        contextValue: policy.context({ requestId: `${ctx.extra.connId}:${id}`, ip: ctx.extra.request.ip, auth: ctx.extra.auth, operator: ctx.extra.operator === true, transport: 'ws', connectionId: ctx.extra.connId }),
      };
      plans.set(args, { documentKey: prepared.documentKey, operationName: prepared.operation.name?.value });
      const socket = ctx.extra.socket;
      if (socket) {
        // The upgraded request's socket is the stream `ws` writes to (absent for Fastify's injected test sockets: `ws` then sends).
        const stream = ctx.extra.request.raw.socket ?? null;
        broadcast.direct(args, socketFrameSink(socket, stream, id, () => opts.metrics.slowConsumerDrops.inc({ transport: 'graphql-ws' })));
      }
      return args;
    },
    onNext: (ctx, id, _payload, _args, result) => {
      if (!result.errors?.length) return undefined;
      const running = ctx.extra.operations.get(id);
      if (running) running.failed = true;
      return { ...result, errors: format(result.errors) } as unknown as ExecutionResult;
    },
    onError: (ctx, id, _payload, errors) => {
      const running = ctx.extra.operations.get(id);
      if (running) running.failed = true;
      finish(ctx.extra, id);
      return format(errors);
    },
    onComplete: (ctx, id) => finish(ctx.extra, id),
    onConnect: async (ctx) => {
      // a refused token throws its AppError: the socket is closed with it (closeOfRefusal)
      const caller = opts.readCaller(connectionParamsAuthorization(ctx.connectionParams));
      ctx.extra.operator = caller.operator === true;
      ctx.extra.auth = caller.auth;
      if (ctx.extra.auth) {
        const walletScope: [Scope, string] = ['wallet', ctx.extra.auth.wallet];
        const full = await leases.admit(ctx.extra.connId, [walletScope]);
        if (full) throw new AppError('RATE_LIMITED', 'Too many connections for this wallet');
        ctx.extra.scopes.push(walletScope);
      }
      await opts.presence.connect(ctx.extra.connId, ctx.extra.auth?.wallet ?? null);
      return true;
    },
  });

  /** Pre-upgrade admission: returns an error when the service or IP cap is reached. */
  async function admitUpgrade(request: FastifyRequest): Promise<AppError | null> {
    const connId = randomUUID();
    const scopes: Array<[Scope, string]> = [
      ['service', ''],
      ['ip', request.ip],
    ];
    const full = await leases.admit(connId, scopes);
    if (full) return new AppError('RATE_LIMITED', `Too many websocket connections (${full} cap)`, { scope: full, retryAfterSeconds: CAPPED_RETRY_AFTER_SECONDS });
    (request as unknown as { wsAdmission: ConnectionExtra }).wsAdmission = { connId, request, auth: null, scopes, operations: new Map() };
    return null;
  }

  function handle(socket: WebSocket, request: FastifyRequest): void {
    const extra = (request as unknown as { wsAdmission: ConnectionExtra }).wsAdmission;
    extra.socket = socket;
    const meter = createEventMeter(opts.caps);
    const admit = createOrderedAdmission((err) => opts.logger.warn({ err }, 'graphql-ws: event cap charge failed; event admitted'));
    opts.metrics.connections.inc({ transport: 'graphql-ws' });
    const unhold = leases.hold(extra.connId, extra.scopes);
    const closed = server.opened(
      {
        protocol: socket.protocol,
        send: (data) =>
          new Promise<void>((resolve) => {
            if (socket.readyState !== socket.OPEN) return resolve();
            socket.send(data, () => resolve());
          }),
        close: (code, reason) => socket.close(code, reason),
        onMessage: (cb) =>
          socket.on('message', (data) => {
            const text = String(data);
            const operation = subscribeId(text);
            const verdict = meter.judge(Buffer.byteLength(text), operation !== null);
            if (verdict === 'abuse') {
              // messages already received keep arriving while the close is under way: counted once
              if (socket.readyState !== socket.OPEN) return;
              opts.metrics.refusals.inc({ transport: 'graphql-ws', reason: 'abuse' });
              return socket.close(GATEWAY_CLOSE.TooManyMessages, 'Too many messages');
            }
            // Refused alone: an `error` for this operation; the connection's other subscriptions go on.
            const refuse = (id: string, refusal: AppError) => {
              const { code, message, details } = toWireError(refusal).error;
              opts.metrics.refusals.inc({ transport: 'graphql-ws', reason: code });
              socket.send(JSON.stringify({ type: 'error', id, payload: [{ message, extensions: { code, details } }] }));
            };
            if (verdict !== 'accept' && operation !== null) return refuse(operation, meter.refusal(verdict));
            const tooDeep = opts.depth.judgeText(text, 'message');
            if (tooDeep && operation !== null) return refuse(operation, tooDeep);
            if (tooDeep) {
              // not an operation (connection_init, …): refused as graphql-ws refuses any message it cannot read
              opts.metrics.refusals.inc({ transport: 'graphql-ws', reason: tooDeep.code });
              return socket.close(CloseCode.BadRequest, tooDeep.message);
            }
            // operations are also charged to the caps per service, IP and wallet (shared store); messages keep their order
            admit(operation !== null ? eventCaps.charge(extra.scopes) : null, (refusal) => {
              if (socket.readyState !== socket.OPEN) return;
              if (refusal && operation !== null) return refuse(operation, refusal);
              cb(text).catch((err: unknown) => socket.close(...closeOfRefusal(err)));
            });
          }),
      },
      extra,
    );
    socket.once('close', (code, reason) => {
      unhold();
      opts.metrics.connections.dec({ transport: 'graphql-ws' });
      void opts.presence.disconnect(extra.connId).catch((err) => opts.logger.warn({ err }, 'failed to leave presence'));
      void leases.release(extra.connId, extra.scopes).catch((err) => opts.logger.warn({ err }, 'failed to release connection lease'));
      void closed(code, String(reason));
    });
  }

  return { admitUpgrade, handle };
}

export function registerGraphqlWs(
  app: FastifyInstance,
  gateway: ReturnType<typeof createGraphqlWsGateway>,
  httpGetHandler: (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>,
): void {
  app.route({
    method: 'GET',
    url: '/graphql',
    preValidation: async (request) => {
      if (request.headers.upgrade?.toLowerCase() !== 'websocket') return;
      const refusal = await gateway.admitUpgrade(request);
      if (refusal) throw refusal;
    },
    handler: httpGetHandler,
    wsHandler: (socket, request) => gateway.handle(socket, request),
  });
}

/** The close of a connection whose handshake was refused: a bad token, a full per-wallet cap, or a failure. */
function closeOfRefusal(err: unknown): [code: number, reason: string] {
  if (!(err instanceof AppError)) return [CloseCode.InternalServerError, 'Internal error'];
  if (err.code === 'TOKEN_INVALID' || err.code === 'TOKEN_EXPIRED') return [CloseCode.Forbidden, err.code];
  if (err.code === 'RATE_LIMITED') return [GATEWAY_CLOSE.TooManyConnections, err.message];
  return [CloseCode.InternalServerError, 'Internal error'];
}

/** The id of a graphql-ws `subscribe` message (an operation), else null (pings, completes, or not parsable: graphql-ws judges those). */
function subscribeId(text: string): string | null {
  try {
    const message = JSON.parse(text) as { type?: unknown; id?: unknown };
    return message.type === 'subscribe' && typeof message.id === 'string' ? message.id : null;
  } catch {
    return null;
  }
}
