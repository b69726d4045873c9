/** What a login or a refresh gives: a short-lived JWT for every request and the single-use refresh token. */
export interface Tokens {
  accessToken: string;
  refreshToken: string;
}

/**
 * Where the tokens live between calls. `load` and `save` may be async (IndexedDB, a native keychain).
 * `lock`, when given, runs a refresh exclusively among every holder of the same storage (other tabs):
 * a refresh token is single use and a spent one presented again revokes the whole login.
 */
export interface TokenStorage {
  load(): Tokens | null | Promise<Tokens | null>;
  save(tokens: Tokens | null): void | Promise<void>;
  lock?<T>(run: () => Promise<T>): Promise<T>;
}

/** Tokens in memory (the default): gone with the page or the process. */
export function memoryStorage(initial: Tokens | null = null): TokenStorage {
  let tokens = initial;
  return {
    load: () => tokens,
    save: (next) => {
      tokens = next;
    },
  };
}

/** The subset of the Web Storage API used (window.localStorage or sessionStorage). */
interface WebStorageArea {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

interface LockManagerLike {
  request<T>(name: string, run: () => Promise<T>): Promise<T>;
}

/**
 * Tokens in `localStorage` (or another Web Storage area), shared by the tabs of one origin; refreshes are
 * serialized across tabs with the Web Locks API where the browser has it.
 */
export function webStorage(opts: { key?: string; area?: WebStorageArea } = {}): TokenStorage {
  const key = opts.key ?? 'platform.tokens';
  const area = opts.area ?? (globalThis as { localStorage?: WebStorageArea }).localStorage;
  if (!area) throw new Error('webStorage: no localStorage here; pass `area` or use memoryStorage()');
  const locks = (globalThis as { navigator?: { locks?: LockManagerLike } }).navigator?.locks;
  return {
    load() {
      const text = area.getItem(key);
      if (!text) return null;
      try {
        const parsed = JSON.parse(text) as Partial<Tokens>;
        return typeof parsed.accessToken === 'string' && typeof parsed.refreshToken === 'string' ? { accessToken: parsed.accessToken, refreshToken: parsed.refreshToken } : null;
      } catch {
        return null;
      }
    },
    save(tokens) {
      if (tokens) area.setItem(key, JSON.stringify(tokens));
      else area.removeItem(key);
    },
    ...(locks ? { lock: <T>(run: () => Promise<T>) => locks.request(`${key}.refresh`, run) } : {}),
  };
}

/** The claims the client reads from an access token (unverified: only to plan a refresh and name the wallet). */
export interface AccessClaims {
  /** The wallet address. */
  sub?: string;
  exp?: number;
  iat?: number;
}

const base64UrlDecode = (part: string): string => {
  const base64 = part.replace(/-/g, '+').replace(/_/g, '/').padEnd(Math.ceil(part.length / 4) * 4, '=');
  const binary = atob(base64);
  return new TextDecoder().decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)));
};

/** The payload of a JWT access token, read without verifying it; null when it is not one. */
export function accessClaims(token: string): AccessClaims | null {
  const payload = token.split('.')[1];
  if (!payload) return null;
  try {
    const claims = JSON.parse(base64UrlDecode(payload)) as AccessClaims;
    return claims && typeof claims === 'object' ? claims : null;
  } catch {
    return null;
  }
}

/**
 * Whether a token should be refreshed before use: past its expiry less a margin (a fifth of its
 * lifetime, at most 30 s), as judged by `now`. A token without readable claims is used as it is: the
 * API's TOKEN_EXPIRED still triggers a refresh.
 */
export function isExpiring(token: string, now: number): boolean {
  const claims = accessClaims(token);
  if (!claims || typeof claims.exp !== 'number') return false;
  const lifetime = typeof claims.iat === 'number' ? claims.exp - claims.iat : 900;
  const margin = Math.min(30, lifetime / 5);
  return (claims.exp - margin) * 1000 <= now;
}
