import { isPlatformError, PlatformError } from './errors.js';
import type { PersistedDocument } from './document.js';
import { AuthChallengeDocument, LoginDocument, LogoutDocument, RefreshTokensDocument } from './generated/graphql.js';
import { accessClaims, isExpiring, type TokenStorage, type Tokens } from './tokens.js';

/**
 * Anything that signs a personal message for a Sui address: a `@mysten/sui` keypair as it is
 * (`toSuiAddress()`), or `{ address, signPersonalMessage }` around a Wallet Standard wallet
 * (see `walletStandardSigner`) or `@mysten/dapp-kit`'s `useSignPersonalMessage`.
 */
export type Signer = { signPersonalMessage(message: Uint8Array): Promise<{ signature: string }> } & ({ address: string } | { toSuiAddress(): string });

/** Who is logged in, from the access token. */
export interface Session {
  /** The wallet the access token names. */
  address: string;
}

/** Wallet login and the tokens' life: `client.auth`. */
export interface Auth {
  /** Challenge → signature → tokens (saved in the storage). */
  login(signer: Signer): Promise<Session>;
  /** Revokes every refresh token of this login on the API, then forgets the tokens (also when the API refuses). */
  logout(): Promise<void>;
  /**
   * Rotates the tokens. Single-flight: concurrent callers share one request, and with a storage that
   * has a `lock`, one refresh happens across tabs (a tab that finds tokens newer than `stale` uses them).
   */
  refresh(stale?: string): Promise<Tokens>;
  /** An access token fit to send (refreshed first when near its expiry), or null when logged out. */
  accessToken(): Promise<string | null>;
  /** After the API refused `rejected` as expired: the next token (stored and newer, or refreshed). */
  tokenAfterRejection(rejected: string): Promise<string | null>;
  session(): Promise<Session | null>;
  /** Called with the session after a login, and with null once logged out (by `logout` or a refused refresh). */
  onChange(listener: (session: Session | null) => void): () => void;
}

export type Execute = <R, V>(document: PersistedDocument<R, V>, variables: V, token: string | null) => Promise<R>;

/** A refresh refused for good: the login is over (a spent, revoked or unknown refresh token). */
const LOGIN_OVER = ['REFRESH_TOKEN_INVALID', 'REFRESH_TOKEN_REUSED', 'UNAUTHENTICATED'] as const;

const addressOf = (signer: Signer): string => ('address' in signer ? signer.address : signer.toSuiAddress());
const sessionOf = (tokens: Tokens | null): Session | null => {
  const sub = tokens ? accessClaims(tokens.accessToken)?.sub : undefined;
  return sub ? { address: sub } : null;
};

export function createAuth(deps: { storage: TokenStorage; execute: Execute; now: () => number }): Auth {
  const { storage, execute, now } = deps;
  const listeners = new Set<(session: Session | null) => void>();
  const notify = (session: Session | null) => {
    for (const listener of listeners) listener(session);
  };
  let refreshing: Promise<Tokens> | null = null;

  const store = async (tokens: Tokens | null) => {
    await storage.save(tokens);
    notify(sessionOf(tokens));
  };

  const rotate = async (stale: string | undefined): Promise<Tokens> => {
    const stored = await storage.load();
    if (!stored) throw new PlatformError('UNAUTHENTICATED', 'Not logged in');
    // another tab (or an earlier call) already rotated: use its tokens
    if (stale !== undefined && stored.accessToken !== stale && !isExpiring(stored.accessToken, now())) return stored;
    try {
      const { refreshTokens } = await execute(RefreshTokensDocument, { refreshToken: stored.refreshToken }, null);
      const tokens = { accessToken: refreshTokens.accessToken, refreshToken: refreshTokens.refreshToken };
      await storage.save(tokens);
      return tokens;
    } catch (err) {
      if (isPlatformError(err, LOGIN_OVER)) await store(null);
      throw err;
    }
  };

  const refresh = (stale?: string): Promise<Tokens> => {
    refreshing ??= (storage.lock ? storage.lock(() => rotate(stale)) : rotate(stale)).finally(() => {
      refreshing = null;
    });
    return refreshing;
  };

  return {
    async login(signer) {
      const address = addressOf(signer);
      const { authChallenge } = await execute(AuthChallengeDocument, { address }, null);
      const { signature } = await signer.signPersonalMessage(new TextEncoder().encode(authChallenge.message));
      const { login } = await execute(LoginDocument, { address, message: authChallenge.message, signature }, null);
      await store({ accessToken: login.accessToken, refreshToken: login.refreshToken });
      return { address };
    },
    async logout() {
      const stored = await storage.load();
      if (!stored) return;
      try {
        const token = isExpiring(stored.accessToken, now()) ? (await refresh(stored.accessToken)).accessToken : stored.accessToken;
        const latest = (await storage.load()) ?? stored;
        await execute(LogoutDocument, { refreshToken: latest.refreshToken }, token);
      } catch {
        // logged out here whatever the API said: a refused logout leaves tokens that expire on their own
      } finally {
        await store(null);
      }
    },
    refresh,
    async accessToken() {
      if (refreshing) return (await refreshing).accessToken;
      const stored = await storage.load();
      if (!stored) return null;
      if (!isExpiring(stored.accessToken, now())) return stored.accessToken;
      return (await refresh(stored.accessToken)).accessToken;
    },
    async tokenAfterRejection(rejected) {
      const stored = await storage.load();
      if (!stored) return null;
      return (await refresh(rejected)).accessToken;
    },
    async session() {
      return sessionOf(await storage.load());
    },
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
