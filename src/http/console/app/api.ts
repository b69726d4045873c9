// The API from the browser, as the signed-in operator wallet, through openapi-fetch: every path,
// parameter, body and answer is typed from the /api OpenAPI document (src/generated/openapi.ts,
// npm run openapi:types). The access token lives in memory only; the refresh token (and who it
// belongs to) in sessionStorage, so a reload of this tab stays signed in and closing the tab forgets it.
import createClient, { type Client } from 'openapi-fetch';
import type { components, paths } from '../../../generated/openapi';

export type Api = Client<paths>;
type Json<R> = R extends { content: { 'application/json': infer B } } ? B : never;
/** The JSON answer (200) of an operation: `Answer<'/api/admin/operators', 'get'>`. */
export type Answer<P extends keyof paths, M extends keyof paths[P]> = paths[P][M] extends { responses: { 200: infer R } } ? Json<R> : never;
/** The JSON body an operation takes. */
export type Input<P extends keyof paths, M extends keyof paths[P]> = paths[P][M] extends { requestBody: infer B } ? Json<B> : never;

type ErrorCode = components['schemas']['ErrorResponse']['error']['code'];
const STORED = 'operator-console.session';

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/** An error answer (`{ error: { code, message, details } }`, components.schemas.ErrorResponse) with its HTTP status. */
export class ApiError extends Error {
  readonly code: string;
  /** VALIDATION_FAILED: each field's problem (`details.issues`), its path as `a.b`. */
  readonly issues: { path: string; message: string }[];
  constructor(
    readonly status: number,
    error: { code?: string; message?: string; issues?: unknown },
  ) {
    super(error.message ?? `HTTP ${status}`);
    this.code = error.code ?? `HTTP_${status}`;
    this.issues = Array.isArray(error.issues) ? error.issues.filter(isRecord).map(({ path, message }) => ({ path: pathText(path), message: text(message) ?? '' })) : [];
  }
  /** Whether the API refused with `code`, one of the document's error codes. */
  is(code: ErrorCode): boolean {
    return this.code === code;
  }
}

/** An issue's path, given as an array or a JSON pointer. */
const pathText = (path: unknown) => (Array.isArray(path) ? path.join('.') : typeof path === 'string' ? path.replace(/^\//, '').replaceAll('/', '.') : '');

/** The error of an answer that is not 2xx: the API's error body, or the status when there is none (a proxy's page). */
function refusal(response: Response, body: unknown): ApiError {
  const error = isRecord(body) && isRecord(body.error) ? body.error : undefined;
  if (!error) return new ApiError(response.status, { message: `${response.status} ${response.statusText}` });
  return new ApiError(response.status, { code: text(error.code), message: text(error.message), issues: isRecord(error.details) ? error.details.issues : undefined });
}

/** What an openapi-fetch call resolves to: `{ data, response }` for a 2xx answer, `{ error, response }` otherwise. */
type Outcome = { data?: unknown; error?: unknown; response: Response };
/** The answer of a 2xx outcome (the error variant, whose `data` is optional `never`, drops out). */
type Data<R> = R extends { data: infer D } ? D : never;

/** The answer of a call, or its refusal thrown as an ApiError. */
async function answer<R extends Outcome>(call: Promise<R>): Promise<Data<R>> {
  const { data, error, response } = await call;
  if (!response.ok) throw refusal(response, error);
  // A 2xx answer: openapi-fetch parsed its body as the operation's 200 schema (none for a 204, typed `never`).
  return data as Data<R>;
}

/** A client for this origin's API: the document's paths start at /api, the page is at <prefix>/console/. */
function client(): Api {
  const api = createClient<paths>({
    baseUrl: new URL('..', location.href).href,
    cache: 'no-store',
    fetch: (request) =>
      fetch(request).catch(() => {
        throw new ApiError(0, { code: 'NETWORK_ERROR', message: 'The API could not be reached.' });
      }),
  });
  return api;
}

interface Stored {
  address: string;
  wallet: string;
  refreshToken: string;
}
export type Who = { address: string; wallet: string } | null;
type Tokens = components['schemas']['AuthTokens'];

function load(): Stored | null {
  try {
    const stored: unknown = JSON.parse(sessionStorage.getItem(STORED) ?? 'null');
    if (!isRecord(stored)) return null;
    const { address, wallet, refreshToken } = stored;
    return typeof address === 'string' && typeof wallet === 'string' && typeof refreshToken === 'string' ? { address, wallet, refreshToken } : null;
  } catch {
    return null;
  }
}

/**
 * The operator's session: sign-in with a wallet signature, the access token refreshed before it
 * expires and once more when the API says it did, sign-out.
 */
export function createSession({ onChange }: { onChange: (who: Who) => void }) {
  const publicApi = client();
  let stored = load();
  let access: { token: string; expiresAt: number } | null = null;
  /** One refresh at a time: a refresh token is single use, and a second use revokes the login. */
  let refreshing: Promise<string> | null = null;

  const save = (next: Stored | null) => {
    stored = next;
    if (next) sessionStorage.setItem(STORED, JSON.stringify(next));
    else sessionStorage.removeItem(STORED);
  };
  const keep = (tokens: Tokens, address: string, wallet: string) => {
    access = { token: tokens.accessToken, expiresAt: Date.now() + tokens.expiresIn * 1000 };
    save({ address, wallet, refreshToken: tokens.refreshToken });
  };
  const end = () => {
    const was = stored;
    access = null;
    save(null);
    if (was) onChange(null);
  };

  const refresh = () => {
    refreshing ??= (async () => {
      const current = stored;
      if (!current) throw new ApiError(401, { code: 'UNAUTHENTICATED', message: 'Connect a wallet to sign in.' });
      try {
        const tokens = await answer(publicApi.POST('/api/auth/refresh', { body: { refreshToken: current.refreshToken } }));
        keep(tokens, current.address, current.wallet);
        return tokens.accessToken;
      } catch (error) {
        // A refused refresh token ends the session; a network failure does not.
        if (error instanceof ApiError && error.status >= 400 && error.status < 500) end();
        throw error;
      }
    })().finally(() => {
      refreshing = null;
    });
    return refreshing;
  };

  /** A valid access token, refreshed when it has less than 30 s left. */
  const token = async () => (access && access.expiresAt - Date.now() > 30_000 ? access.token : refresh());

  /** The client of the signed-in wallet: each call carries a valid access token. */
  const api = client();
  api.use({
    async onRequest({ request }) {
      request.headers.set('authorization', `Bearer ${await token()}`);
      return request;
    },
  });

  return {
    who: (): Who => (stored ? { address: stored.address, wallet: stored.wallet } : null),

    /** Resumes a stored session (a reload): true when its refresh token still works. */
    async resume(): Promise<boolean> {
      if (!stored) return false;
      try {
        await refresh();
        return true;
      } catch {
        return false;
      }
    },

    /**
     * Signs in: the API's challenge for `address`, signed by the wallet, exchanged for tokens.
     * `sign` returns the serialized signature (base64); `wallet` is the wallet's name, shown beside the address.
     */
    async signIn(address: string, wallet: string, sign: (message: Uint8Array) => Promise<string>): Promise<void> {
      const { message } = await answer(publicApi.POST('/api/auth/challenge', { body: { address } }));
      const signature = await sign(new TextEncoder().encode(message));
      keep(await answer(publicApi.POST('/api/auth/login', { body: { address, message, signature } })), address, wallet);
      onChange({ address, wallet });
    },

    async signOut(): Promise<void> {
      const current = stored;
      if (current && access) {
        const headers = { authorization: `Bearer ${access.token}` };
        await answer(publicApi.POST('/api/auth/logout', { body: { refreshToken: current.refreshToken }, headers })).catch(() => undefined);
      }
      end();
    },

    /**
     * A call as the signed-in wallet: `call((api) => api.GET('/api/admin/operators'))` resolves to
     * its answer or throws its ApiError; an expired access token is refreshed and the call made once more.
     */
    async call<R extends Outcome>(make: (api: Api) => Promise<R>): Promise<Data<R>> {
      try {
        return await answer(make(api));
      } catch (error) {
        if (!(error instanceof ApiError) || error.status !== 401) throw error;
        if (!error.is('TOKEN_EXPIRED')) {
          end();
          throw error;
        }
        access = null;
        return answer(make(api));
      }
    },
  };
}

export type Session = ReturnType<typeof createSession>;
/** How a section calls the API (Session.call). */
export type Call = Session['call'];

/** A section of the console: `render(view, call)` fills `view`; `call` calls the API as the operator. */
export interface Section {
  id: string;
  title: string;
  render(view: HTMLElement, call: Call): Promise<void>;
}
