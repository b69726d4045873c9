import { createAuth, type Auth } from './auth.js';
import type { PersistedDocument, VariablesArg } from './document.js';
import { isPlatformError, PlatformError } from './errors.js';
import { createGraphqlHttp, fetchWithRetry, type HttpDeps, type RetryOptions } from './http.js';
import type { ChatConnection } from './realtime.js';
import type { Observer, WsTransport } from './graphql-ws.js';
import type { PlatformSocket, SocketTransportOptions } from './socket-io.js';
import { memoryStorage, type TokenStorage } from './tokens.js';

/** What `createClient` takes; only `url` is required. */
export interface ClientOptions {
  /** The API's base URL (`https://api.example.com`): GraphQL at `/graphql`, REST at `/api`, Socket.IO at `/socket.io/`. */
  url: string;
  auth?: {
    /** Where the tokens live (default: memory; `webStorage()` shares them between tabs). */
    storage?: TokenStorage;
  };
  /** Automatic persisted queries (default true): queries as cacheable `GET`s naming their hash. */
  persistedQueries?: boolean;
  /** `Retry-After` handling for 429 and 503 (default: 2 retries, waits up to 10 s). */
  retry?: RetryOptions;
  fetch?: typeof fetch;
  /** graphql-ws: a WebSocket class where the runtime has none, and reconnect attempts. */
  webSocket?: { impl?: unknown; retryAttempts?: number };
  /** Socket.IO: acknowledgement time-out and socket.io-client options. */
  socketIo?: Pick<SocketTransportOptions, 'ackTimeoutMs' | 'options'>;
  /** The clock that judges when an access token needs refreshing (default `Date.now`). */
  now?: () => number;
}

/** The client: GraphQL over HTTP and graphql-ws, chat over either transport, the login, and `fetch` for REST. */
export interface Client {
  readonly url: string;
  /** Wallet login, refresh (single-flight) and logout. */
  readonly auth: Auth;
  /** A query over HTTP (a persisted-query `GET`); a refused expired token is refreshed and the query sent again. */
  query<R, V>(document: PersistedDocument<R, V>, ...variables: VariablesArg<V>): Promise<R>;
  /** A mutation over HTTP (chat writes are websocket-only: use `chat()`). */
  mutate<R, V>(document: PersistedDocument<R, V>, ...variables: VariablesArg<V>): Promise<R>;
  /** A subscription over graphql-ws (loaded on first use); the returned function ends it. */
  subscribe<R, V>(document: PersistedDocument<R, V>, variables: V, observer: Observer<R>): () => void;
  /** Chat (rooms, messages, reactions, typing, presence, activity) over graphql-ws (default) or Socket.IO. */
  chat(opts?: { transport?: 'graphql-ws' | 'socket.io' }): Promise<ChatConnection>;
  /** The typed Socket.IO connection (one per client, loaded on first use). */
  socket(): Promise<PlatformSocket>;
  /** `fetch` with the access token, a refresh on TOKEN_EXPIRED and `Retry-After`: what the REST client sends through. */
  fetch(input: string | URL | Request, init?: RequestInit): Promise<Response>;
  /** Closes the websockets (the tokens stay in their storage). */
  close(): Promise<void>;
}

const tokenRefused = async (res: Response): Promise<'TOKEN_EXPIRED' | 'TOKEN_INVALID' | null> => {
  if (res.status !== 401) return null;
  try {
    const body = (await res.clone().json()) as { error?: { code?: string }; errors?: Array<{ extensions?: { code?: string } }> };
    const code = body.error?.code ?? body.errors?.[0]?.extensions?.code;
    return code === 'TOKEN_EXPIRED' || code === 'TOKEN_INVALID' ? code : null;
  } catch {
    return null;
  }
};

/** A client of the API at `options.url`; nothing is connected until the first call (websockets on first use). */
export function createClient(options: ClientOptions): Client {
  const url = options.url.replace(/\/$/, '');
  const now = options.now ?? Date.now;
  const deps: HttpDeps = {
    url,
    fetch: options.fetch ?? ((input, init) => globalThis.fetch(input, init)),
    retry: { attempts: options.retry?.attempts ?? 2, maxDelayMs: options.retry?.maxDelayMs ?? 10_000 },
    persistedQueries: options.persistedQueries ?? true,
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  };
  const http = createGraphqlHttp(deps);
  const auth = createAuth({ storage: options.auth?.storage ?? memoryStorage(), execute: http, now });

  /** Runs with the current token; once more with the next one when the API says it expired. */
  const withToken = async <T>(run: (token: string | null) => Promise<T>): Promise<T> => {
    const token = await auth.accessToken();
    try {
      return await run(token);
    } catch (err) {
      if (!token || !isPlatformError(err, 'TOKEN_EXPIRED')) throw err;
      return run(await auth.tokenAfterRejection(token));
    }
  };

  let ws: Promise<WsTransport> | null = null;
  const wsTransport = () =>
    (ws ??= import('./graphql-ws.js').then(({ createWsTransport }) =>
      createWsTransport({ url: `${url.replace(/^http/, 'ws')}/graphql`, auth, webSocketImpl: options.webSocket?.impl, retryAttempts: options.webSocket?.retryAttempts }),
    ));
  let socket: Promise<PlatformSocket> | null = null;
  const socketTransport = () => (socket ??= import('./socket-io.js').then(({ createSocket }) => createSocket({ url, auth, ...options.socketIo })));

  const execute = <R, V>(document: PersistedDocument<R, V>, variables: V | undefined) => withToken((token) => http(document, variables as V, token));

  return {
    url,
    auth,
    query: (document, ...[variables]) => execute(document, variables),
    mutate: (document, ...[variables]) => execute(document, variables),
    subscribe(document, variables, observer) {
      let stop: (() => void) | null = null;
      let stopped = false;
      wsTransport().then(
        (transport) => {
          if (!stopped) stop = transport.subscribe(document, variables, observer);
        },
        (err: unknown) => observer.error?.(new PlatformError('NETWORK_ERROR', `graphql-ws could not be loaded: ${String(err)}`, { cause: err })),
      );
      return () => {
        stopped = true;
        stop?.();
      };
    },
    async chat(opts = {}) {
      if (opts.transport === 'socket.io') {
        const [ps, { socketIoChat }] = await Promise.all([socketTransport(), import('./socket-io.js')]);
        return socketIoChat(ps);
      }
      const [transport, { graphqlWsChat }] = await Promise.all([wsTransport(), import('./graphql-ws.js')]);
      return graphqlWsChat(transport);
    },
    socket: socketTransport,
    fetch(input, init) {
      const template = new Request(typeof input === 'string' && input.startsWith('/') ? `${url}${input}` : input, init);
      const idempotent = ['GET', 'HEAD', 'OPTIONS'].includes(template.method);
      const send = async (token: string | null) => {
        const res = await fetchWithRetry(
          deps,
          () => {
            const request = template.clone();
            if (token) request.headers.set('authorization', `Bearer ${token}`);
            return request;
          },
          idempotent,
        );
        if ((await tokenRefused(res)) === 'TOKEN_EXPIRED') throw new PlatformError('TOKEN_EXPIRED', 'The access token expired', { status: 401 });
        return res;
      };
      return withToken(send);
    },
    async close() {
      const [transport, ps] = await Promise.all([ws, socket]);
      ws = null;
      socket = null;
      ps?.close();
      await transport?.dispose();
    },
  };
}
