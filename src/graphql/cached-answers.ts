import { createHash } from 'node:crypto';
import type { ApolloServerPlugin, GraphQLRequestContext } from '@apollo/server';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { LRUCache } from 'lru-cache';
import Negotiator from 'negotiator';
import { ownedBytes } from '../owned-bytes';
import type { KeyValueCache } from '../store/kv-cache';
import { staleSweeper } from '../store/stale-purge';
import { addRouteHook, routeMethods } from '../fastify/route-hooks';
import { hasValidHost } from './host';
import { cacheableHint, type operationCachePolicies } from './cache-policy';
import type { GraphqlContext } from './context';

declare module 'fastify' {
  interface FastifyRequest {
    /** An anonymous GraphQL read that missed the cached answers: the answer Apollo sends fills them (src/graphql/cached-answers.ts). */
    cachedAnswerMiss: CachedAnswerMiss | null;
  }
}

/** Decoded answers (bytes as a Buffer) kept per process in front of the response cache, by size. */
const LOCAL_ANSWERS_MAX_BYTES = 16 * 1024 * 1024;
/** An answer's own objects beside its body and key (the Answer, its ArrayBuffer, the LRU's entry), about. */
const ANSWER_OVERHEAD_BYTES = 256;
/** Documents (hash and operation name) whose verdict (public query or not) is remembered. */
const KNOWN_DOCUMENTS = 2000;
/** Variables longer than this are hashed into the key. */
const MAX_KEY_VARIABLES_CHARS = 256;
/** How long a miss waits for the same answer another request is already getting from Apollo before running Apollo itself. */
const COALESCE_WAIT_MS = 2_000;
/** Apollo's media types (its MEDIA_TYPES), in the order it offers them. */
const MEDIA = {
  json: 'application/json; charset=utf-8',
  graphqlResponse: 'application/graphql-response+json; charset=utf-8',
  callback: 'application/json; callbackSpec=1.0; charset=utf-8',
  html: 'text/html',
} as const;
const SINGLE_RESULT_TYPES = [MEDIA.json, MEDIA.graphqlResponse, MEDIA.callback];
const LANDING_PAGE_CHOICES = [MEDIA.json, MEDIA.graphqlResponse, 'multipart/mixed; deferSpec=20220824', 'multipart/mixed; incrementalSpec=v0.2', 'multipart/mixed', MEDIA.html];

const CACHE_CONTROL_CACHEABLE = /^max-age=(\d+), (public|private)$/;
const JSON_CONTENT_TYPE = /^application\/json\s*(;|$)/i;

interface Answer {
  /** The exact bytes Apollo sent (encoded once: a string body is encoded to UTF-8 on every send). */
  body: Buffer;
  /** Its strong ETag (src/http/etag.ts), hashed once at the fill. */
  etag: string;
  maxAge: number;
  /** Its `Cache-Control` scope: `private` answers are anonymous callers' own (see `createCachedAnswers`). */
  scope: 'public' | 'private';
  /** When Apollo produced it (ms since the epoch): the `Age` header counts from here. */
  cacheTime: number;
  /** The operation's name for the operation metrics (null: anonymous). */
  name: string | null;
}

/** A miss Apollo is answering: requests for the same key meanwhile wait for its answer (undefined: none to share). */
interface Flight {
  /** performance.now() when its request took off: one older than COALESCE_WAIT_MS is replaced, never waited on. */
  startedAt: number;
  answer: Promise<Answer | undefined>;
  settle(answer: Answer | undefined): void;
}

interface CachedAnswerMiss {
  key: string;
  documentKey: string;
  /** Set on the request that runs Apollo for this key while others wait for it. */
  flight: Flight | null;
}

interface Verdict {
  /** A query whose cache policy (from the document's hints) has a positive max-age, PUBLIC or PRIVATE. */
  cacheableQuery: boolean;
  name: string | null;
}

/** A request the cached answers may answer: its key, and what the answer is sent with. */
interface Ask {
  key: string;
  documentKey: string;
  contentType: string;
  startedAt: bigint;
}

/** What the hook reads from a GET query string or a POST body; null when anything is unusual (Apollo then answers). */
interface ReadRequest {
  documentHash: string;
  operationName: string | null | undefined;
  variables: string;
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const answered = (reply: FastifyReply) => reply.sent || reply.raw.headersSent;

/** The flight's answer, or undefined once `COALESCE_WAIT_MS` passed or the request ended first. */
function awaitFlight(flight: Flight, signal: AbortSignal | null): Promise<Answer | undefined> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, COALESCE_WAIT_MS, undefined);
    const onAbort = () => resolve(undefined);
    signal?.addEventListener('abort', onAbort, { once: true });
    void flight.answer.then((answer) => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      resolve(answer);
    });
  });
}
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
/** A query-string parameter's JSON (undefined when it is repeated or not JSON). */
const parseJson = (v: unknown): unknown => {
  if (typeof v !== 'string') return undefined;
  try {
    return JSON.parse(v);
  } catch {
    return undefined;
  }
};

/**
 * Cached answers sent from a Fastify hook, before Apollo: an anonymous GraphQL read (GET or POST)
 * whose operation the cache policy makes cacheable, and whose answer is in the response
 * cache (this process's tier, then the shared store), is answered by `serve` (a preHandler: the
 * security headers, CORS, admission and the auth check have run) with the bytes, `Cache-Control`,
 * `Age` and ETag Apollo's answer had; a miss goes through Apollo, and `fill` (an onSend hook)
 * stores the answer it sent. The key is the operation's hash (the persisted-query hash, which
 * is the SHA-256 of the document, or the document's), its operation name, its variables as sent
 * and the data generations read at the start of the request (a bump during execution files the
 * answer under the old generation, never to be read). Authenticated and operator requests never
 * use it (Apollo's response cache keeps their PUBLIC and PRIVATE answers per session), and an
 * answer is only stored when Apollo's own run said: a query, cacheable by its hints, no errors.
 * PRIVATE answers are included: PRIVATE means "depends on the caller's wallet" (Apollo's response
 * cache keys them by it), and every caller reaching the hook has none, so an anonymous answer is
 * every anonymous caller's; it keeps its `private` Cache-Control, so no shared cache downstream stores it.
 * Misses of one key while Apollo answers it (an expiry under load) wait for that answer, up to
 * COALESCE_WAIT_MS or the end of their own request, instead of each running Apollo (a CDN's
 * collapsed forwarding, per process).
 * Anything unusual in a request (a repeated parameter, a non-JSON body, an Accept header Apollo
 * would refuse or answer with its landing page, a registration carrying both the document and its
 * hash) goes to Apollo, which answers or refuses it as before.
 */
export function createCachedAnswers(opts: {
  cache: KeyValueCache;
  generations: () => string;
  /** A hit is an answered operation for the metrics too. */
  onHit?: (name: string | null, startedAt: bigint) => void;
}) {
  const local = new LRUCache<string, Answer>({ maxSize: LOCAL_ANSWERS_MAX_BYTES, sizeCalculation: (a, key) => a.body.length + key.length + ANSWER_OVERHEAD_BYTES });
  const keptAnswer = staleSweeper(local);
  const verdicts = new LRUCache<string, Verdict>({ max: KNOWN_DOCUMENTS });
  const documentHashes = new LRUCache<string, string>({ maxSize: 4 * 1024 * 1024, sizeCalculation: (_h, source) => Math.max(1, source.length) });
  const negotiated = new LRUCache<string, { contentType: string | null; prefersHtml: boolean }>({ max: 256 });
  /** Misses Apollo is answering now, by key: concurrent misses of one answer (an expiry under load) run Apollo once. */
  const flights = new Map<string, Flight>();

  function takeOff(key: string): Flight {
    let settle!: Flight['settle'];
    const answer = new Promise<Answer | undefined>((resolve) => (settle = resolve));
    const flight: Flight = { startedAt: performance.now(), answer, settle };
    flights.set(key, flight);
    return flight;
  }
  /** The leading request is done: its answer (or none) goes to the requests waiting for it. */
  function land(miss: CachedAnswerMiss, answer: Answer | undefined): void {
    const { flight, key } = miss;
    if (!flight) return;
    miss.flight = null;
    flight.settle(answer);
    if (flights.get(key) === flight) flights.delete(key);
  }

  /**
   * The content type Apollo answers this Accept header with (its `chooseContentTypeForSingleResultResponse`,
   * with the same negotiator), or null when Apollo would refuse it (406) or, for a GET, send its landing page.
   */
  const contentTypeFor = (accept: string | undefined, method: string): string | null => {
    if (!accept) return MEDIA.json;
    let n = negotiated.get(accept);
    if (!n) {
      const negotiator = new Negotiator({ headers: { accept } });
      n = { contentType: negotiator.mediaType(SINGLE_RESULT_TYPES) ?? null, prefersHtml: negotiator.mediaType(LANDING_PAGE_CHOICES) === MEDIA.html };
      negotiated.set(accept, n);
    }
    return method === 'GET' && n.prefersHtml ? null : n.contentType;
  };

  const documentHashOf = (source: string) => {
    let h = documentHashes.get(source);
    if (h === undefined) documentHashes.set(source, (h = sha256(source)));
    return h;
  };
  const documentKey = (documentHash: string, operationName: string | null | undefined) => (operationName == null ? documentHash : `${documentHash}#${operationName}`);

  /** The parts of the key from a GET query string or a JSON POST body, as Apollo would read them. */
  function readRequest(request: FastifyRequest): ReadRequest | null {
    let query: unknown, operationName: unknown, variables: unknown, extensions: unknown;
    if (request.method === 'POST') {
      if (!JSON_CONTENT_TYPE.test(request.headers['content-type'] ?? '') || !isRecord(request.body)) return null;
      ({ query, operationName, variables, extensions } = request.body);
      if (variables != null && !isRecord(variables)) return null;
      if (extensions != null && !isRecord(extensions)) return null;
      variables = variables == null ? '' : JSON.stringify(variables);
    } else if (request.method === 'GET') {
      const contentType = request.headers['content-type'];
      // Apollo's GET rules: no content type but JSON's, and its CSRF prevention (a JSON content type or a preflight header).
      if (contentType !== undefined ? !JSON_CONTENT_TYPE.test(contentType) : !request.headers['apollo-require-preflight'] && !request.headers['x-apollo-operation-name']) return null;
      ({ query, operationName, variables, extensions } = request.query as Record<string, unknown>);
      // Both are JSON objects in the query string (Apollo refuses anything else); variables are keyed as sent.
      if (variables !== undefined && !isRecord(parseJson(variables))) return null;
      if (extensions !== undefined && !isRecord((extensions = parseJson(extensions)))) return null;
      variables ??= '';
    } else return null;
    if (operationName != null && typeof operationName !== 'string') return null;
    const persisted = isRecord(extensions) ? extensions.persistedQuery : undefined;
    let documentHash: string;
    if (persisted !== undefined) {
      // A registration (document and hash) goes through Apollo, which stores it; a hash alone is the key.
      if (query !== undefined || !isRecord(persisted) || persisted.version !== 1 || typeof persisted.sha256Hash !== 'string') return null;
      documentHash = persisted.sha256Hash;
    } else if (typeof query === 'string' && query) documentHash = documentHashOf(query);
    else return null;
    const text = variables as string;
    return { documentHash, operationName, variables: text.length > MAX_KEY_VARIABLES_CHARS ? sha256(text) : text };
  }

  function decode(text: string): Answer | null {
    const newline = text.indexOf('\n');
    if (newline < 0) return null;
    try {
      const meta = JSON.parse(text.slice(0, newline)) as Omit<Answer, 'body'>;
      return { ...meta, body: ownedBytes(text.slice(newline + 1)) };
    } catch {
      return null;
    }
  }

  /** Decoded answers, then the response cache (an answer read from it is kept decoded here until it expires). */
  async function lookup(key: string): Promise<Answer | undefined> {
    const known = local.get(key);
    if (known) return known;
    const text = await opts.cache.get(key);
    const answer = text === undefined ? null : decode(text);
    if (!answer) return undefined;
    const remainingMs = answer.cacheTime + answer.maxAge * 1000 - Date.now();
    if (remainingMs <= 0) return undefined;
    local.set(key, answer, { ttl: remainingMs });
    keptAnswer();
    return answer;
  }

  /** What a request that may have a cached answer asks for; undefined when Apollo must answer it. */
  function askOf(request: FastifyRequest): Ask | undefined {
    if (request.auth !== null || request.operator || request.headers.upgrade !== undefined) return undefined;
    const startedAt = process.hrtime.bigint();
    const contentType = contentTypeFor(request.headers.accept, request.method);
    if (contentType === null) return undefined;
    const read = readRequest(request);
    if (!read) return undefined;
    const document = documentKey(read.documentHash, read.operationName);
    if (verdicts.get(document)?.cacheableQuery === false) return undefined;
    return { key: `ans:${opts.generations()}:${document}:${read.variables}`, documentKey: document, contentType, startedAt };
  }

  /**
   * preHandler of the GraphQL routes: a cached public answer, or nothing (Apollo runs). A callback
   * hook: a document known not to be a cacheable query (most requests that reach Apollo) passes
   * without a promise.
   */
  function serve(request: FastifyRequest, reply: FastifyReply, done: (err?: Error) => void): void {
    const ask = askOf(request);
    if (!ask) return done();
    answerFromCache(request, reply, ask).then((sent) => (sent ? undefined : done()), done);
  }

  /** Sends the cached answer and resolves true, or resolves false (Apollo answers; a miss is marked for the fill). */
  async function answerFromCache(request: FastifyRequest, reply: FastifyReply, { key, documentKey: document, contentType, startedAt }: Ask): Promise<boolean> {
    let answer = await lookup(key);
    if (!answer) {
      // While the lookup waited, another request got this answer from Apollo (kept here from its fill),
      // or is getting it: then wait for it rather than run Apollo again.
      answer = local.get(key);
      const current = answer ? undefined : flights.get(key);
      const flight = current && performance.now() - current.startedAt < COALESCE_WAIT_MS ? current : undefined;
      if (flight) answer = await awaitFlight(flight, request.abandonedSignal);
      if (answered(reply)) return true;
      if (!answer) {
        request.cachedAnswerMiss = { key, documentKey: document, flight: flight ? null : takeOff(key) };
        return false;
      }
    }
    // A malformed Host is answered 400 by the GraphQL handler (./apollo.ts, ./host.ts).
    if (!hasValidHost(request)) return false;
    opts.onHit?.(answer.name, startedAt);
    reply
      .code(200)
      .header('content-type', contentType)
      .header('cache-control', `max-age=${answer.maxAge}, ${answer.scope}`)
      .header('age', String(Math.max(0, Math.round((Date.now() - answer.cacheTime) / 1000))));
    // POST answers carry no ETag (src/http/etag.ts, which also answers a matching If-None-Match with 304).
    if (request.method === 'GET') reply.header('etag', answer.etag);
    reply.send(answer.body);
    return true;
  }

  /** onSend (before the ETag hook): stores the answer Apollo sent for a marked request when it is a clean cacheable query answer. */
  function fill(request: FastifyRequest, reply: FastifyReply, payload: unknown): unknown {
    const miss = request.cachedAnswerMiss;
    if (miss === null) return payload;
    const cacheControl = CACHE_CONTROL_CACHEABLE.exec(String(reply.getHeader('cache-control') ?? ''));
    const verdict = verdicts.get(miss.documentKey);
    if (reply.statusCode !== 200 || typeof payload !== 'string' || !cacheControl || !verdict?.cacheableQuery || reply.getHeader('age') !== undefined) {
      land(miss, undefined);
      return payload;
    }
    const meta: Omit<Answer, 'body'> = {
      etag: `"${createHash('sha1').update(payload).digest('base64url')}"`,
      maxAge: Number(cacheControl[1]),
      scope: cacheControl[2] as Answer['scope'],
      cacheTime: Date.now(),
      name: verdict.name,
    };
    if (request.method === 'GET') reply.header('etag', meta.etag);
    // Into the response cache (this process's tier of it, or Redis) for the other replicas, in the
    // background as Apollo's response cache writes (a failure only makes their next read miss), and
    // decoded here at once: a lookup that was waiting on the store meanwhile finds it here.
    opts.cache.set(miss.key, `${JSON.stringify(meta)}\n${payload}`, { ttl: meta.maxAge }).catch((err: unknown) => request.log.warn({ err }, 'cached answers: could not store an answer'));
    const answer: Answer = { ...meta, body: ownedBytes(payload) };
    local.set(miss.key, answer, { ttl: meta.maxAge * 1000 });
    keptAnswer();
    land(miss, answer);
    return payload;
  }

  return {
    /**
     * Apollo learns, per document and operation name, whether its answers may be served here: a
     * query whose hints make it cacheable. Runs after the policy accepted the operation.
     */
    plugin(policyOf: ReturnType<typeof operationCachePolicies>): ApolloServerPlugin<GraphqlContext> {
      return {
        async requestDidStart() {
          return {
            async didResolveOperation(rc) {
              if (!rc.operation || !rc.document) return;
              const key = documentKey(rc.queryHash, rc.request.operationName);
              // The schema's hints are fixed: a document's verdict, once known, does not change.
              if (verdicts.get(key)) return;
              const hint = policyOf(rc.document, rc.operation);
              verdicts.set(key, { cacheableQuery: rc.operation.operation === 'query' && cacheableHint(hint), name: rc.operationName });
            },
          };
        },
      };
    },
    /** Apollo's response cache leaves these requests to the hook (no second copy of their answers). */
    owns: (rc: GraphQLRequestContext<GraphqlContext>) => rc.contextValue.auth === null && !rc.contextValue.operator && rc.contextValue.transport === 'http',
    serve,
    fill,
    /** onResponse: a leading request that ended without an answer to share (aborted, failed before onSend) releases its waiters. */
    release(request: FastifyRequest): void {
      if (request.cachedAnswerMiss) land(request.cachedAnswerMiss, undefined);
    },
  };
}

export type CachedAnswers = ReturnType<typeof createCachedAnswers>;

/**
 * The hooks: `serve` as a preHandler (and `release` as an onResponse hook) of the GraphQL routes registered after this (POST, and GET
 * beside the websocket upgrade), `fill` as an onSend hook of every route (it returns at once for
 * a request `serve` did not mark); register before the ETag hook, which then reuses the fill's tag.
 */
export function registerCachedAnswers(app: FastifyInstance, answers: CachedAnswers): void {
  app.decorateRequest('cachedAnswerMiss', null);
  app.addHook('onRoute', (route) => {
    if (route.url !== '/graphql' || !routeMethods(route).some((m) => m === 'GET' || m === 'POST')) return;
    addRouteHook(route, 'preHandler', answers.serve);
    addRouteHook(route, 'onSend', (request, reply, payload, done) => done(null, request.cachedAnswerMiss === null ? payload : answers.fill(request, reply, payload)));
    addRouteHook(route, 'onResponse', (request, _reply, done) => (answers.release(request), done()));
  });
}
