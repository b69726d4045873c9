// The API from the browser, as the signed-in operator wallet: the access token lives in memory
// only; the refresh token (and who it belongs to) in sessionStorage, so a reload of this tab
// stays signed in and closing the tab forgets it.

/** This origin's API (relative to the page, so a path prefix keeps working). */
const API = new URL('../api/', location.href);
const STORED = 'operator-console.session';

/** An error answer: `{ error: { code, message, details } }` with its HTTP status. */
export class ApiError extends Error {
  /** @param {number} status @param {{ code?: string, message?: string, details?: any, requestId?: string } | undefined} error */
  constructor(status, error) {
    super(error?.message ?? `HTTP ${status}`);
    this.status = status;
    this.code = error?.code ?? `HTTP_${status}`;
    this.details = error?.details;
    this.requestId = error?.requestId;
  }
}

/**
 * @param {string} method
 * @param {string} path relative to /api/, e.g. `admin/operators`
 * @param {{ body?: unknown, query?: Record<string, string | undefined>, token?: string }} [opts]
 */
async function call(method, path, { body, query, token } = {}) {
  const url = new URL(path, API);
  for (const [name, value] of Object.entries(query ?? {})) if (value !== undefined && value !== '') url.searchParams.set(name, value);
  /** @type {Record<string, string>} */
  const headers = {};
  if (token) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  let res;
  try {
    res = await fetch(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), cache: 'no-store' });
  } catch {
    throw new ApiError(0, { code: 'NETWORK_ERROR', message: 'The API could not be reached.' });
  }
  const text = await res.text();
  let parsed;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    parsed = undefined;
  }
  if (!res.ok) throw new ApiError(res.status, parsed?.error ?? { message: `${res.status} ${res.statusText}` });
  return parsed;
}

/**
 * @typedef {{ address: string, wallet: string, refreshToken: string }} Stored
 * @typedef {{ address: string, wallet: string } | null} Who
 */

/** @returns {Stored | null} */
function load() {
  try {
    const stored = JSON.parse(sessionStorage.getItem(STORED) ?? 'null');
    return stored && typeof stored.refreshToken === 'string' && typeof stored.address === 'string' ? stored : null;
  } catch {
    return null;
  }
}

/**
 * The operator's session: sign-in with a wallet signature, the access token refreshed before it
 * expires and once more when the API says it did, sign-out.
 * @param {{ onChange: (who: Who) => void }} hooks
 */
export function createSession({ onChange }) {
  let stored = load();
  /** @type {{ token: string, expiresAt: number } | null} */
  let access = null;
  /** One refresh at a time: a refresh token is single use, and a second use revokes the login. */
  /** @type {Promise<string> | null} */
  let refreshing = null;

  /** @param {Stored | null} next */
  const save = (next) => {
    stored = next;
    if (next) sessionStorage.setItem(STORED, JSON.stringify(next));
    else sessionStorage.removeItem(STORED);
  };
  /** @param {{ accessToken: string, refreshToken: string, expiresIn: number }} tokens @param {string} address @param {string} wallet */
  const keep = (tokens, address, wallet) => {
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
        const tokens = await call('POST', 'auth/refresh', { body: { refreshToken: current.refreshToken } });
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

  return {
    /** @returns {Who} */
    who: () => (stored ? { address: stored.address, wallet: stored.wallet } : null),

    /** Resumes a stored session (a reload): true when its refresh token still works. */
    async resume() {
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
     * @param {string} address
     * @param {string} wallet the wallet's name, shown beside the address
     * @param {(message: Uint8Array) => Promise<string>} sign returns the serialized signature (base64)
     */
    async signIn(address, wallet, sign) {
      const { message } = await call('POST', 'auth/challenge', { body: { address } });
      const signature = await sign(new TextEncoder().encode(message));
      const tokens = await call('POST', 'auth/login', { body: { address, message, signature } });
      keep(tokens, address, wallet);
      onChange({ address, wallet });
    },

    async signOut() {
      const current = stored;
      if (current && access) await call('POST', 'auth/logout', { body: { refreshToken: current.refreshToken }, token: access.token }).catch(() => undefined);
      end();
    },

    /**
     * A call as the signed-in wallet; an expired access token is refreshed and the call made once more.
     * @param {string} method
     * @param {string} path relative to /api/
     * @param {{ body?: unknown, query?: Record<string, string | undefined> }} [opts]
     */
    async request(method, path, opts = {}) {
      const first = await token();
      try {
        return await call(method, path, { ...opts, token: first });
      } catch (error) {
        if (!(error instanceof ApiError) || error.status !== 401) throw error;
        if (error.code !== 'TOKEN_EXPIRED') {
          end();
          throw error;
        }
        access = null;
        return call(method, path, { ...opts, token: await refresh() });
      }
    },
  };
}

/** @typedef {ReturnType<typeof createSession>} Session */
