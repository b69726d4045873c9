// The REST shim, typed from schema/openapi.json (openapi-fetch): for what has no GraphQL form. A separate entry
// point (`@platform/client/rest`) so a page that does not use it does not load it.
import createFetchClient, { type Client as FetchClient } from 'openapi-fetch';
import type { Client } from './client.js';
import { fromWire } from './errors.js';
import type { components, operations, paths } from './generated/openapi.js';

/** The REST shim's OpenAPI document as types (openapi-typescript): `paths` by URL, `components` (schemas), `operations` by operationId. */
export type { paths, components, operations };

/** openapi-fetch's client for the REST shim's paths. */
export type RestClient = FetchClient<paths>;

/**
 * openapi-fetch over `client.fetch`: the access token on every request, a refresh on TOKEN_EXPIRED,
 * `Retry-After` for 429 and 503. `GET('/api/price')`, `POST('/api/chat/reports', { body })`, … answer
 * `{ data, error, response }`; `restError(error)` makes the error a PlatformError.
 */
export function createRestClient(client: Client): RestClient {
  return createFetchClient<paths>({ baseUrl: client.url, fetch: (request) => client.fetch(request) });
}

/** An error body of the REST shim (`{ error: { code, message, details? } }`) as a PlatformError. */
export function restError(body: unknown, response?: Response) {
  const error = (body as { error?: { code?: unknown; message?: unknown; details?: unknown; requestId?: unknown } } | undefined)?.error ?? {};
  return fromWire(error, { status: response?.status });
}
