// graphql-ws: subscriptions and the websocket-only mutations. Loaded by the client on first use (a page that only
// queries never loads it).
import { createClient as createWsClient, type Client as WsClient } from 'graphql-ws/client';
import type { Auth } from './auth.js';
import type { PersistedDocument } from './document.js';
import { fromGraphqlError, PlatformError, type GraphqlErrorPayload } from './errors.js';
import { ActivityDocument, ChatMessageRemovedDocument, ChatMessagesDocument, ChatReactionsDocument, PresenceChangesDocument, ReactToMessageDocument, SendChatMessageDocument, SendTypingDocument, TypingDocument } from './generated/graphql.js';
import { newClientId, type ChatConnection, type RoomHandlers } from './realtime.js';

/** A subscription's listener; `error` ends it. */
export interface Observer<T> {
  next(value: T): void;
  error?(error: PlatformError): void;
  complete?(): void;
}

export interface WsTransportOptions {
  /** `ws(s)://…/graphql`. */
  url: string;
  auth: Auth;
  /** A WebSocket class where the runtime has none (Node before 22: the `ws` package). */
  webSocketImpl?: unknown;
  /** Reconnects after a lost connection before subscriptions fail (default 10). */
  retryAttempts?: number;
}

export interface WsTransport {
  subscribe<R, V>(document: PersistedDocument<R, V>, variables: V, observer: Observer<R>): () => void;
  /** A query or mutation over the websocket (chat writes are websocket-only). */
  execute<R, V>(document: PersistedDocument<R, V>, variables: V): Promise<R>;
  dispose(): Promise<void>;
}

interface CloseLike {
  code: number;
  reason: string;
}
const isCloseLike = (e: unknown): e is CloseLike => typeof e === 'object' && e !== null && 'code' in e && 'reason' in e;

/** graphql-ws's close for a refused handshake token (reason TOKEN_EXPIRED or TOKEN_INVALID). */
const FORBIDDEN = 4403;

function toPlatformError(err: unknown, authFailure: unknown): PlatformError {
  if (authFailure instanceof PlatformError) return authFailure;
  if (err instanceof PlatformError) return err;
  if (Array.isArray(err) && err.length) return fromGraphqlError(err[0] as GraphqlErrorPayload, { errors: err as GraphqlErrorPayload[] });
  if (isCloseLike(err)) {
    if (err.code === FORBIDDEN && (err.reason === 'TOKEN_INVALID' || err.reason === 'TOKEN_EXPIRED')) return new PlatformError(err.reason, `The websocket refused the access token (${err.reason})`);
    return new PlatformError('NETWORK_ERROR', `The websocket closed (${err.code}${err.reason ? ` ${err.reason}` : ''})`, { details: { closeCode: err.code } });
  }
  return new PlatformError('NETWORK_ERROR', err instanceof Error ? err.message : String(err), { cause: err });
}

/**
 * One lazy graphql-ws connection for every subscription: the access token in `connectionParams` at
 * each (re)connect; after a close `4403 TOKEN_EXPIRED` it reconnects at once with a refreshed token
 * and the subscriptions go on; `4403 TOKEN_INVALID` ends them with that code.
 */
export function createWsTransport(opts: WsTransportOptions): WsTransport {
  const { auth } = opts;
  let sentToken: string | null = null;
  let expired = false;
  let authFailure: unknown = null;
  const client: WsClient = createWsClient({
    url: opts.url,
    lazy: true,
    webSocketImpl: opts.webSocketImpl,
    retryAttempts: opts.retryAttempts ?? 10,
    connectionParams: async () => {
      try {
        const token = expired && sentToken ? await auth.tokenAfterRejection(sentToken) : await auth.accessToken();
        authFailure = null;
        expired = false;
        sentToken = token;
        return token ? { authorization: `Bearer ${token}` } : {};
      } catch (err) {
        // refresh refused (the login is over): graphql-ws closes and every subscription gets this error
        authFailure = err;
        throw err;
      }
    },
    shouldRetry: (e) => isCloseLike(e) && !(e.code === FORBIDDEN && e.reason !== 'TOKEN_EXPIRED'),
    retryWait: async (retries) => {
      if (expired) return;
      const ms = Math.min(30_000, 1000 * 2 ** retries) + Math.floor(Math.random() * 2700 + 300);
      await new Promise((resolve) => setTimeout(resolve, ms));
    },
    on: {
      closed: (e) => {
        if (isCloseLike(e) && e.code === FORBIDDEN && e.reason === 'TOKEN_EXPIRED') expired = true;
      },
    },
  });

  const subscribe = <R, V>(document: PersistedDocument<R, V>, variables: V, observer: Observer<R>) =>
    client.subscribe<R>(
      { query: document.__meta__.query, operationName: document.__meta__.operationName, variables: (variables ?? {}) as Record<string, unknown> },
      {
        next: (result) => {
          if (result.errors?.length) observer.error?.(fromGraphqlError(result.errors[0] as GraphqlErrorPayload, { errors: result.errors as GraphqlErrorPayload[], data: result.data }));
          else if (result.data) observer.next(result.data as R);
        },
        error: (err) => observer.error?.(toPlatformError(err, authFailure)),
        complete: () => observer.complete?.(),
      },
    );

  return {
    subscribe,
    execute: <R, V>(document: PersistedDocument<R, V>, variables: V) =>
      new Promise<R>((resolve, reject) => {
        let settled = false;
        subscribe(document, variables, {
          next: (data) => {
            settled = true;
            resolve(data);
          },
          error: reject,
          complete: () => {
            if (!settled) reject(new PlatformError('BAD_RESPONSE', `${document.__meta__.operationName}: no result`));
          },
        });
      }),
    dispose: async () => {
      await client.dispose();
    },
  };
}

/** A send retried after REQUEST_TIMEOUT keeps its clientId: the API answers with the first message. */
async function withSendRetries<T>(send: () => Promise<T>, attempts = 3): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await send();
    } catch (err) {
      if (!(err instanceof PlatformError) || !['REQUEST_TIMEOUT', 'TIMEOUT'].includes(err.code) || attempt >= attempts) throw err;
    }
  }
}

/** Chat over graphql-ws: a room's events are its subscriptions (only those with a handler). */
export function graphqlWsChat(transport: WsTransport): ChatConnection {
  const stops = new Set<() => void>();
  const track = (stop: () => void) => {
    stops.add(stop);
    return () => {
      stops.delete(stop);
      stop();
    };
  };
  return {
    transport: 'graphql-ws',
    async join(room: string, handlers: RoomHandlers) {
      const error = (err: PlatformError) => handlers.error?.(err);
      const subs: Array<() => void> = [];
      if (handlers.message) subs.push(transport.subscribe(ChatMessagesDocument, { room }, { next: (d) => handlers.message!(d.chatMessages), error }));
      if (handlers.removed) subs.push(transport.subscribe(ChatMessageRemovedDocument, { room }, { next: (d) => handlers.removed!(d.chatMessageRemoved), error }));
      if (handlers.reaction) subs.push(transport.subscribe(ChatReactionsDocument, { room }, { next: (d) => handlers.reaction!(d.chatReactions), error }));
      if (handlers.typing) subs.push(transport.subscribe(TypingDocument, { room }, { next: (d) => handlers.typing!(d.typing), error }));
      if (handlers.presence) subs.push(transport.subscribe(PresenceChangesDocument, { room }, { next: (d) => handlers.presence!(d.presence), error }));
      const leave = track(() => subs.forEach((stop) => stop()));
      return { room, leave: async () => leave() };
    },
    async send(room, text, opts = {}) {
      const clientId = opts.clientId ?? newClientId();
      return withSendRetries(async () => (await transport.execute(SendChatMessageDocument, { room, text, clientId })).sendChatMessage);
    },
    async react(messageId, emoji) {
      return (await transport.execute(ReactToMessageDocument, { messageId, emoji })).reactToMessage;
    },
    async typing(room) {
      return (await transport.execute(SendTypingDocument, { room })).sendTyping;
    },
    activity(listener) {
      return track(transport.subscribe(ActivityDocument, {}, { next: (d) => listener(d.activity) }));
    },
    async close() {
      for (const stop of [...stops]) stop();
      stops.clear();
    },
  };
}
