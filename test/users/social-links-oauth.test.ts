import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConnectSocialDocument, DisconnectSocialDocument, MeWithSocialLinksDocument, SocialLinksDocument } from '../../src/generated/graphql';
import { startApi, type TestApi } from '../helpers/api';
import { loginWithKeypair } from '../helpers/auth';
import { gql } from '../helpers/client';
import { startOAuthProvider, type OAuthProviderFixture } from '../fixtures/oauth-provider';

const APP_URL = 'https://app.example';
type OAuthProvider = 'chat_platform' | 'social_network';

let api: TestApi;
let chat: OAuthProviderFixture;
let network: OAuthProviderFixture;
/** Every response body the API gave in this file (none may contain a secret or a provider token). */
const responseTexts: string[] = [];

const fixtureOf = (provider: OAuthProvider) => (provider === 'chat_platform' ? chat : network);
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

interface SocialLinkBody {
  provider: string;
  externalId: string;
  username: string | null;
  linkedAt: string;
}
/** Whichever JSON the route answers: a link list, a connect start, or the error shape. */
interface RestBody {
  links: SocialLinkBody[];
  authorizationUrl: string;
  error: { code: string; message: string };
}

async function rest(method: string, path: string, token?: string): Promise<{ status: number; body: RestBody; location: string | null }> {
  const res = await fetch(`${api.url}${path}`, { method, headers: token ? bearer(token) : {}, redirect: 'manual' });
  const text = await res.text();
  responseTexts.push(text, res.headers.get('location') ?? '');
  return { status: res.status, body: text ? JSON.parse(text) : null, location: res.headers.get('location') };
}

/** POST connect: the authorization URL the browser is sent to. */
async function connect(token: string, provider: OAuthProvider): Promise<URL> {
  const res = await rest('POST', `/api/users/me/social/${provider}/connect`, token);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return new URL(res.body.authorizationUrl);
}

/** The browser at the provider: follows the authorize URL; the provider redirects to our redirect URI. */
async function authorizeInBrowser(authorizationUrl: URL): Promise<URL> {
  const res = await fetch(authorizationUrl, { redirect: 'manual' });
  expect(res.status).toBe(302);
  return new URL(res.headers.get('location')!);
}

/** The browser lands on the redirect URI (APP_URL/api/… is this API): our callback's redirect back to the app. */
async function landOnCallback(callback: URL): Promise<URL> {
  const res = await rest('GET', `${callback.pathname}${callback.search}`);
  expect(res.status, JSON.stringify(res.body)).toBe(302);
  return new URL(res.location!);
}

const linkedCount = () => api.db.prisma.socialLink.count();

beforeAll(async () => {
  chat = await startOAuthProvider({ shape: 'chat' });
  network = await startOAuthProvider({ shape: 'network' });
  api = await startApi({ env: { APP_URL, ...chat.env('CHAT_PLATFORM'), ...network.env('SOCIAL_NETWORK') } });
});

afterAll(async () => {
  await api?.close();
  await chat?.close();
  await network?.close();
});

describe.each(['chat_platform', 'social_network'] as const)('%s: OAuth connect over real HTTP', (provider) => {
  it('connect → provider authorize → callback links the account; listed over REST and GraphQL; disconnect is idempotent', async () => {
    const user = await loginWithKeypair(api.url);
    const fixture = fixtureOf(provider);
    const externalId = String(BigInt(`0x${randomBytes(7).toString('hex')}`));
    fixture.signIn({ id: externalId, username: `name-${provider}` });

    const authorizationUrl = await connect(user.accessToken, provider);
    expect(authorizationUrl.origin + authorizationUrl.pathname).toBe(`${fixture.url}/authorize`);
    expect(Object.fromEntries(authorizationUrl.searchParams)).toMatchObject({
      response_type: 'code',
      client_id: fixture.clientId,
      redirect_uri: `${APP_URL}/api/users/social/${provider}/callback`,
      code_challenge_method: 'S256',
    });
    expect(authorizationUrl.searchParams.get('state')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(authorizationUrl.searchParams.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);

    const callback = await authorizeInBrowser(authorizationUrl);
    expect(callback.origin + callback.pathname).toBe(`${APP_URL}/api/users/social/${provider}/callback`);
    const back = await landOnCallback(callback);
    expect(back.href).toBe(`${APP_URL}/profile?linked=${provider}`);

    const listed = await rest('GET', '/api/users/me/social', user.accessToken);
    expect(listed.status).toBe(200);
    expect(listed.body.links).toEqual([{ provider, externalId, username: `name-${provider}`, linkedAt: expect.any(String) }]);
    const viaGraphql = await gql(api.url, SocialLinksDocument, {}, bearer(user.accessToken));
    expect(viaGraphql.body.errors).toBeUndefined();
    // GraphQL names the provider by its enum value (upper case); the rest is the same.
    expect(viaGraphql.body.data?.socialLinks).toEqual(listed.body.links.map((l) => ({ ...l, provider: l.provider.toUpperCase() })));

    expect((await rest('DELETE', `/api/users/me/social/${provider}`, user.accessToken)).status).toBe(204);
    expect((await rest('GET', '/api/users/me/social', user.accessToken)).body.links).toEqual([]);
    expect((await rest('DELETE', `/api/users/me/social/${provider}`, user.accessToken)).status).toBe(204);
  });
});

describe('GraphQL', () => {
  it('connectSocial starts the same flow; disconnectSocial unlinks', async () => {
    const user = await loginWithKeypair(api.url);
    network.signIn({ id: '777000111', username: 'gql-user' });
    const started = await gql(api.url, ConnectSocialDocument, { provider: 'SOCIAL_NETWORK' }, bearer(user.accessToken));
    expect(started.body.errors).toBeUndefined();
    responseTexts.push(JSON.stringify(started.body));
    const back = await landOnCallback(await authorizeInBrowser(new URL(started.body.data!.connectSocial.authorizationUrl)));
    expect(back.searchParams.get('linked')).toBe('social_network');
    const me = await gql(api.url, MeWithSocialLinksDocument, {}, bearer(user.accessToken));
    expect(me.body.errors).toBeUndefined();
    expect(me.body.data?.me.socialLinks).toEqual([{ provider: 'SOCIAL_NETWORK', externalId: '777000111', username: 'gql-user', linkedAt: expect.any(String) }]);

    const removed = await gql(api.url, DisconnectSocialDocument, { provider: 'SOCIAL_NETWORK' }, bearer(user.accessToken));
    expect(removed.body.data?.disconnectSocial).toBe(true);
    expect((await gql(api.url, SocialLinksDocument, {}, bearer(user.accessToken))).body.data?.socialLinks).toEqual([]);
  });

  it('connectSocial refuses the signed-payload provider and an anonymous caller', async () => {
    const user = await loginWithKeypair(api.url);
    const wrongFlow = await gql(api.url, ConnectSocialDocument, { provider: 'MESSAGING_PLATFORM' }, bearer(user.accessToken));
    expect(wrongFlow.body.errors?.[0].extensions?.code).toBe('VALIDATION_FAILED');
    const anonymous = await gql(api.url, ConnectSocialDocument, { provider: 'CHAT_PLATFORM' });
    expect(anonymous.body.errors?.[0].extensions?.code).toBe('UNAUTHENTICATED');
    expect((await rest('POST', '/api/users/me/social/chat_platform/connect')).body.error.code).toBe('UNAUTHENTICATED');
  });
});

describe('refusals: each names its code, nothing is written', () => {
  it('a wrong or unknown state', async () => {
    const user = await loginWithKeypair(api.url);
    const before = await linkedCount();
    const callback = await authorizeInBrowser(await connect(user.accessToken, 'chat_platform'));
    callback.searchParams.set('state', randomBytes(32).toString('base64url'));
    const back = await landOnCallback(callback);
    expect(Object.fromEntries(back.searchParams)).toEqual({ linkError: 'OAUTH_STATE_INVALID', provider: 'chat_platform' });
    callback.searchParams.delete('state');
    expect((await landOnCallback(callback)).searchParams.get('linkError')).toBe('OAUTH_STATE_INVALID');
    expect(await linkedCount()).toBe(before);
  });

  it('a reused state (sequentially and in parallel): only the first callback links', async () => {
    const user = await loginWithKeypair(api.url);
    chat.signIn({ id: '5550001', username: 'once' });
    const callback = await authorizeInBrowser(await connect(user.accessToken, 'chat_platform'));
    const outcomes = await Promise.all(Array.from({ length: 6 }, () => landOnCallback(callback)));
    expect(outcomes.filter((u) => u.searchParams.get('linked') === 'chat_platform')).toHaveLength(1);
    expect(outcomes.filter((u) => u.searchParams.get('linkError') === 'OAUTH_STATE_INVALID')).toHaveLength(5);
    expect((await landOnCallback(callback)).searchParams.get('linkError')).toBe('OAUTH_STATE_INVALID');
    expect(await api.db.prisma.socialLink.count({ where: { externalId: '5550001' } })).toBe(1);
  });

  it("another wallet's state with this browser's code: the provider refuses the PKCE verifier", async () => {
    const alice = await loginWithKeypair(api.url);
    const mallory = await loginWithKeypair(api.url);
    const before = await linkedCount();
    const aliceState = (await connect(alice.accessToken, 'chat_platform')).searchParams.get('state')!;
    chat.signIn({ id: '5550002', username: 'mallory-at-chat' });
    const malloryCallback = await authorizeInBrowser(await connect(mallory.accessToken, 'chat_platform'));
    malloryCallback.searchParams.set('state', aliceState);
    const back = await landOnCallback(malloryCallback);
    expect(back.searchParams.get('linkError')).toBe('OAUTH_GRANT_REFUSED');
    expect(chat.tokenRefusals.at(-1)).toBe('invalid_grant: PKCE verifier mismatch');
    expect(await linkedCount()).toBe(before);
  });

  it('a state issued for another provider', async () => {
    const user = await loginWithKeypair(api.url);
    const before = await linkedCount();
    const chatCallback = await authorizeInBrowser(await connect(user.accessToken, 'chat_platform'));
    const onOtherProvider = new URL(`${APP_URL}/api/users/social/social_network/callback${chatCallback.search}`);
    expect((await landOnCallback(onOtherProvider)).searchParams.get('linkError')).toBe('OAUTH_STATE_INVALID');
    expect(await linkedCount()).toBe(before);
  });

  it('a forged code, a denied authorization, an unavailable provider', async () => {
    const user = await loginWithKeypair(api.url);
    const before = await linkedCount();
    const forged = await authorizeInBrowser(await connect(user.accessToken, 'social_network'));
    forged.searchParams.set('code', 'not-a-code-the-provider-issued');
    expect((await landOnCallback(forged)).searchParams.get('linkError')).toBe('OAUTH_GRANT_REFUSED');

    network.denyNext();
    const denied = await authorizeInBrowser(await connect(user.accessToken, 'social_network'));
    expect(denied.searchParams.get('error')).toBe('access_denied');
    expect((await landOnCallback(denied)).searchParams.get('linkError')).toBe('OAUTH_GRANT_REFUSED');

    network.tokenEndpointDown = true;
    try {
      const down = await authorizeInBrowser(await connect(user.accessToken, 'social_network'));
      expect((await landOnCallback(down)).searchParams.get('linkError')).toBe('UPSTREAM_UNAVAILABLE');
    } finally {
      network.tokenEndpointDown = false;
    }
    expect(await linkedCount()).toBe(before);
  });

  it('an account linked to another profile; re-linking the same provider replaces the old account', async () => {
    const alice = await loginWithKeypair(api.url);
    const bob = await loginWithKeypair(api.url);
    const link = async (token: string, id: string) => {
      chat.signIn({ id, username: `u${id}` });
      return landOnCallback(await authorizeInBrowser(await connect(token, 'chat_platform')));
    };
    expect((await link(alice.accessToken, '5550003')).searchParams.get('linked')).toBe('chat_platform');
    const taken = await link(bob.accessToken, '5550003');
    expect(taken.searchParams.get('linkError')).toBe('ACCOUNT_ALREADY_LINKED');
    expect((await rest('GET', '/api/users/me/social', bob.accessToken)).body.links).toEqual([]);

    expect((await link(alice.accessToken, '5550004')).searchParams.get('linked')).toBe('chat_platform');
    const aliceLinks = (await rest('GET', '/api/users/me/social', alice.accessToken)).body.links;
    expect(aliceLinks.map((l) => l.externalId)).toEqual(['5550004']);
    // The old account is free again.
    expect((await link(bob.accessToken, '5550003')).searchParams.get('linked')).toBe('chat_platform');
  });

  it('wallets racing to link one external account: exactly one wins', async () => {
    const wallets = await Promise.all(Array.from({ length: 6 }, () => loginWithKeypair(api.url)));
    network.signIn({ id: '5550005', username: 'contested' });
    const callbacks: URL[] = [];
    for (const w of wallets) callbacks.push(await authorizeInBrowser(await connect(w.accessToken, 'social_network')));
    const outcomes = await Promise.all(callbacks.map(landOnCallback));
    expect(outcomes.filter((u) => u.searchParams.get('linked'))).toHaveLength(1);
    expect(outcomes.filter((u) => u.searchParams.get('linkError') === 'ACCOUNT_ALREADY_LINKED')).toHaveLength(5);
    expect(await api.db.prisma.socialLink.count({ where: { provider: 'social_network', externalId: '5550005' } })).toBe(1);
  });

  it('a wallet without a profile row gets one (once), created by the link', async () => {
    const wallet = `0x${randomBytes(32).toString('hex')}`;
    const token = api.services.tokens.signAccess(wallet);
    expect(await api.db.prisma.profile.count({ where: { walletAddress: wallet } })).toBe(0);
    chat.signIn({ id: '5550006', username: 'fresh' });
    const callbacks = [await authorizeInBrowser(await connect(token, 'chat_platform'))];
    expect((await landOnCallback(callbacks[0])).searchParams.get('linked')).toBe('chat_platform');
    expect(await api.db.prisma.profile.count({ where: { walletAddress: wallet } })).toBe(1);
    expect((await rest('GET', '/api/users/me/social', token)).body.links).toHaveLength(1);
  });

  it('an unknown provider is refused by REST and GraphQL alike', async () => {
    const user = await loginWithKeypair(api.url);
    expect((await rest('POST', '/api/users/me/social/myspace/connect', user.accessToken)).body.error.code).toBe('VALIDATION_FAILED');
    expect((await rest('DELETE', '/api/users/me/social/myspace', user.accessToken)).body.error.code).toBe('VALIDATION_FAILED');
  });
});

describe('an API without provider credentials', () => {
  it('answers SERVICE_UNAVAILABLE "not configured" for connect and the callback', async () => {
    const bare = await startApi({ env: { APP_URL } });
    try {
      const user = await loginWithKeypair(bare.url);
      const res = await fetch(`${bare.url}/api/users/me/social/chat_platform/connect`, { method: 'POST', headers: bearer(user.accessToken) });
      const body = await res.json();
      expect(res.status).toBe(503);
      expect(body.error).toMatchObject({ code: 'SERVICE_UNAVAILABLE', message: expect.stringContaining('not configured') });
      const cb = await fetch(`${bare.url}/api/users/social/social_network/callback?code=x&state=${'a'.repeat(43)}`, { redirect: 'manual' });
      expect(new URL(cb.headers.get('location')!).searchParams.get('linkError')).toBe('SERVICE_UNAVAILABLE');
    } finally {
      await bare.close();
    }
  });
});

describe('secrets', () => {
  it('no client secret, provider access token or PKCE verifier appears in any response or log line', async () => {
    expect(chat.issuedAccessTokens.length + network.issuedAccessTokens.length).toBeGreaterThan(5);
    const secrets = [chat.clientSecret, network.clientSecret, ...chat.issuedAccessTokens, ...network.issuedAccessTokens];
    const logged = api.logs.raw.join('\n');
    const answered = responseTexts.join('\n');
    for (const secret of secrets) {
      expect(logged).not.toContain(secret);
      expect(answered).not.toContain(secret);
    }
    expect(api.logs.lines.some((l) => l.msg === 'social account linked')).toBe(true);
  });

  it('the routes are in the OpenAPI document', async () => {
    const doc = await (await fetch(`${api.url}/api/openapi.json`)).json();
    for (const path of ['/api/users/me/social', '/api/users/me/social/{provider}/connect', '/api/users/me/social/messaging_platform/connect', '/api/users/me/social/{provider}', '/api/users/social/{provider}/callback']) {
      expect(doc.paths[path], path).toBeDefined();
    }
  });
});
