import type * as OpenId from 'openid-client';
import { AppError } from '../errors';

/**
 * A generic OAuth 2.0 authorization-code client with state and PKCE (S256), built on
 * openid-client. Each social provider adapter (social-*.ts) configures one and reads its own
 * account shape from the user endpoint. Provider access tokens never leave this module's callers.
 */
export interface OAuthClientOptions {
  clientId: string;
  clientSecret: string;
  authorizationUrl: string;
  tokenUrl: string;
  scopes: string[];
  /** Seconds each provider request may take (default 4: inside the API's 5 s request budget). */
  timeoutSeconds?: number;
}

/** What the caller keeps server-side between the redirect and the callback. */
export interface AuthorizationStart {
  authorizationUrl: string;
  state: string;
  codeVerifier: string;
}

export interface OAuthClient {
  start(redirectUri: string): Promise<AuthorizationStart>;
  /** Redeems the code in `callbackUrl` (the redirect URI with the provider's query) for an access token. */
  exchangeCode(callbackUrl: URL, checks: { state: string; codeVerifier: string }): Promise<string>;
  /** GETs a JSON resource with the access token as bearer. */
  fetchJson(accessToken: string, url: string): Promise<unknown>;
}

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);
const isLoopbackHttp = (url: string): boolean => {
  const u = new URL(url);
  return u.protocol === 'http:' && LOOPBACK_HOSTS.has(u.hostname);
};

export function createOAuthClient(opts: OAuthClientOptions): OAuthClient {
  const server: OpenId.ServerMetadata = {
    issuer: new URL(opts.authorizationUrl).origin,
    authorization_endpoint: opts.authorizationUrl,
    token_endpoint: opts.tokenUrl,
  };
  // openid-client is loaded on the first authorization: most processes never link an account (issue 47).
  let loaded: Promise<{ client: typeof OpenId; config: OpenId.Configuration }> | undefined;
  const setup = () =>
    (loaded ??= import('openid-client').then((client) => {
      const config = new client.Configuration(server, opts.clientId, undefined, client.ClientSecretBasic(opts.clientSecret));
      config.timeout = opts.timeoutSeconds ?? 4;
      // Plain http only towards loopback (development and test fixtures); real providers are https.
      if (isLoopbackHttp(opts.authorizationUrl) && isLoopbackHttp(opts.tokenUrl)) client.allowInsecureRequests(config);
      return { client, config };
    }));

  return {
    async start(redirectUri) {
      const { client, config } = await setup();
      const codeVerifier = client.randomPKCECodeVerifier();
      const state = client.randomState();
      const url = client.buildAuthorizationUrl(config, {
        redirect_uri: redirectUri,
        scope: opts.scopes.join(' '),
        state,
        code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
        code_challenge_method: 'S256',
      });
      return { authorizationUrl: url.href, state, codeVerifier };
    },

    async exchangeCode(callbackUrl, checks) {
      const { client, config } = await setup();
      try {
        const tokens = await client.authorizationCodeGrant(config, callbackUrl, { pkceCodeVerifier: checks.codeVerifier, expectedState: checks.state });
        return tokens.access_token;
      } catch (err) {
        throw providerFailure(client, err);
      }
    },

    async fetchJson(accessToken, url) {
      const { client, config } = await setup();
      let response: Response;
      try {
        response = await client.fetchProtectedResource(config, accessToken, new URL(url), 'GET', undefined, new Headers({ accept: 'application/json' }));
      } catch (err) {
        throw providerFailure(client, err);
      }
      if (!response.ok) throw new AppError('UPSTREAM_UNAVAILABLE', `The provider's account endpoint answered HTTP ${response.status}`);
      try {
        return await response.json();
      } catch {
        throw new AppError('UPSTREAM_UNAVAILABLE', "The provider's account endpoint did not answer JSON");
      }
    },
  };
}

/**
 * An OAuth error the provider stated (the user denied, or it rejected the code, redirect URI or
 * PKCE verifier) is a refusal; anything else (network, timeout, 5xx, a malformed answer) means the
 * provider is unavailable. Only the provider's error code is kept: its bodies may echo credentials.
 */
function providerFailure(client: typeof OpenId, err: unknown): AppError {
  if (err instanceof client.AuthorizationResponseError || (err instanceof client.ResponseBodyError && err.status < 500)) {
    return new AppError('OAUTH_GRANT_REFUSED', `The provider refused the authorization (${err.error})`, { providerError: err.error });
  }
  const reason = err instanceof Error ? err.name : 'unknown';
  return new AppError('UPSTREAM_UNAVAILABLE', `The provider could not be reached or answered unexpectedly (${reason})`);
}

/** The provider account a link records. */
export interface ExternalAccount {
  externalId: string;
  username: string | null;
}

/** One OAuth social provider: its authorization redirect, and the account behind a callback. */
export interface OAuthAccountProvider {
  start(redirectUri: string): Promise<AuthorizationStart>;
  /** Redeems the callback's code and reads the account; the provider's access token is dropped here. */
  complete(callbackUrl: URL, checks: { state: string; codeVerifier: string }): Promise<ExternalAccount>;
}

/** An OAuth provider whose user endpoint `userinfoUrl` answers JSON that `readAccount` understands (null: not understood). */
export function oauthAccountProvider(
  oauth: OAuthClient,
  userinfoUrl: string,
  readAccount: (body: unknown) => ExternalAccount | null,
): OAuthAccountProvider {
  return {
    start: (redirectUri) => oauth.start(redirectUri),
    async complete(callbackUrl, checks) {
      const accessToken = await oauth.exchangeCode(callbackUrl, checks);
      const account = readAccount(await oauth.fetchJson(accessToken, userinfoUrl));
      if (!account) throw new AppError('UPSTREAM_UNAVAILABLE', "The provider's account endpoint answered an unexpected shape");
      return account;
    },
  };
}
