import type { PersistedDocument } from './document.js';
import { fromGraphqlError, fromWire, PlatformError, type GraphqlErrorPayload } from './errors.js';

/** How refusals that say when to come back (`429`, `503` with `Retry-After`) are retried. */
export interface RetryOptions {
  /** Retries after a 429 or 503 (default 2); 0 turns retrying off. */
  attempts?: number;
  /** The longest wait honoured, in ms (default 10 000): a longer `Retry-After` is reported at once instead. */
  maxDelayMs?: number;
}

export interface HttpDeps {
  /** The API's base URL (`https://api.example.com`). */
  url: string;
  fetch: typeof fetch;
  retry: Required<RetryOptions>;
  persistedQueries: boolean;
  sleep: (ms: number) => Promise<void>;
}

interface GraphqlBody<T> {
  data?: T | null;
  errors?: GraphqlErrorPayload[];
  error?: { code?: string; message?: string; details?: Record<string, unknown>; requestId?: string };
}

/** Seconds from a `Retry-After` header (seconds or an HTTP date), else from `details.retryAfterSeconds`. */
export function retryAfterSeconds(res: Response, details?: Record<string, unknown>): number | undefined {
  const header = res.headers.get('retry-after');
  if (header) {
    const seconds = Number(header);
    if (Number.isFinite(seconds)) return Math.max(0, seconds);
    const date = Date.parse(header);
    if (!Number.isNaN(date)) return Math.max(0, (date - Date.now()) / 1000);
  }
  const fromDetails = details?.retryAfterSeconds;
  return typeof fromDetails === 'number' ? fromDetails : undefined;
}

/**
 * `fetch` that honours `Retry-After`: a `429` (and a `503` when `idempotent`) is sent again after the
 * wait it names, up to `retry.attempts` times and only when the wait is within `retry.maxDelayMs`.
 * `request` builds each attempt (a body cannot be sent twice).
 */
export async function fetchWithRetry(deps: HttpDeps, request: () => Request, idempotent: boolean): Promise<Response> {
  for (let attempt = 0; ; attempt++) {
    let res: Response;
    try {
      res = await deps.fetch(request());
    } catch (err) {
      throw new PlatformError('NETWORK_ERROR', `The API did not answer: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
    }
    const retryable = res.status === 429 || (res.status === 503 && idempotent);
    if (!retryable || attempt >= deps.retry.attempts) return res;
    const wait = retryAfterSeconds(res);
    if (wait === undefined || wait * 1000 > deps.retry.maxDelayMs) return res;
    await res.body?.cancel().catch(() => undefined);
    await deps.sleep(wait * 1000);
  }
}

const hasCode = (errors: GraphqlErrorPayload[] | undefined, code: string) => errors?.some((e) => e.extensions?.code === code) ?? false;

/**
 * GraphQL over HTTP with automatic persisted queries: a query is a `GET` naming its hash (cacheable
 * by URL), a mutation a `POST` of the hash; on `PERSISTED_QUERY_NOT_FOUND` the text is sent once by
 * `POST` and the hash used again afterwards. Without persisted queries every operation is a `POST` of its text.
 */
export function createGraphqlHttp(deps: HttpDeps) {
  let persisted = deps.persistedQueries;
  const endpoint = `${deps.url.replace(/\/$/, '')}/graphql`;

  const build = (meta: PersistedDocument['__meta__'], variables: unknown, token: string | null, withText: boolean): Request => {
    const headers: Record<string, string> = { accept: 'application/graphql-response+json, application/json;q=0.9' };
    if (token) headers.authorization = `Bearer ${token}`;
    const extensions = withText && !persisted ? undefined : { persistedQuery: { version: 1, sha256Hash: meta.hash } };
    const hasVariables = variables !== undefined && variables !== null && Object.keys(variables).length > 0;
    if (meta.operation === 'query' && !withText && persisted) {
      const params = new URLSearchParams({ operationName: meta.operationName });
      if (hasVariables) params.set('variables', JSON.stringify(variables));
      params.set('extensions', JSON.stringify(extensions));
      // Apollo's CSRF rule: a GET with a non-simple header (a browser preflights it)
      return new Request(`${endpoint}?${params}`, { method: 'GET', headers: { ...headers, 'apollo-require-preflight': 'true' } });
    }
    const body = { operationName: meta.operationName, ...(hasVariables ? { variables } : {}), ...(withText ? { query: meta.query } : {}), ...(extensions ? { extensions } : {}) };
    return new Request(endpoint, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  };

  return async function execute<R, V>(document: PersistedDocument<R, V>, variables: V, token: string | null): Promise<R> {
    const meta = document.__meta__;
    if (!meta) throw new TypeError('Not a generated document of @platform/client (no __meta__)');
    if (meta.operation === 'subscription') throw new TypeError(`${meta.operationName} is a subscription: use client.subscribe`);
    let withText = !persisted;
    for (;;) {
      const res = await fetchWithRetry(deps, () => build(meta, variables, token, withText), meta.operation === 'query');
      const text = await res.text();
      let body: GraphqlBody<R>;
      try {
        body = JSON.parse(text) as GraphqlBody<R>;
      } catch {
        throw new PlatformError('BAD_RESPONSE', `${meta.operationName}: HTTP ${res.status} without a JSON body`, { status: res.status });
      }
      if (!withText && hasCode(body.errors, 'PERSISTED_QUERY_NOT_FOUND')) {
        withText = true;
        continue;
      }
      if (hasCode(body.errors, 'PERSISTED_QUERY_NOT_SUPPORTED')) {
        persisted = false;
        withText = true;
        continue;
      }
      const retryAfter = res.status === 429 || res.status === 503 ? retryAfterSeconds(res) : undefined;
      const requestId = res.headers.get('x-request-id') ?? undefined;
      if (body.errors?.length) throw fromGraphqlError(body.errors[0]!, { status: res.status, data: body.data ?? undefined, errors: body.errors, retryAfterSeconds: retryAfter, requestId });
      if (body.error) throw fromWire(body.error, { status: res.status, retryAfterSeconds: retryAfter, requestId });
      if (!res.ok || body.data === undefined || body.data === null) throw new PlatformError('BAD_RESPONSE', `${meta.operationName}: HTTP ${res.status} without data`, { status: res.status });
      return body.data;
    }
  };
}
