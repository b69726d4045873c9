import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Ed25519Keypair } from '@mysten/sui/keypairs/ed25519';
import {
  createClient,
  isPlatformError,
  memoryStorage,
  PlatformError,
  LeaderboardDocument,
  MeDocument,
  QuestCampaignsDocument,
  ServerStatusDocument,
  type ChatConnection,
  type ChatMessage,
  type Client,
  type TokenStorage,
} from '../../packages/client/src/index';
import { createRestClient } from '../../packages/client/src/rest';
import { startApi, type TestApi } from '../helpers/api';
import { until } from '../helpers/until';

/** Every request a client sends: method, path and the operation or persisted-query hash it names. */
function recordingFetch() {
  const sent: Array<{ method: string; path: string; operation: string | null; withText: boolean }> = [];
  const fetchImpl: typeof fetch = async (input, init) => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    let operation = url.searchParams.get('operationName');
    let withText = url.searchParams.has('query');
    if (request.method === 'POST' && url.pathname === '/graphql') {
      const body = (await request.clone().json()) as { operationName?: string; query?: string };
      operation = body.operationName ?? null;
      withText = typeof body.query === 'string';
    }
    sent.push({ method: request.method, path: url.pathname, operation, withText });
    return fetch(request);
  };
  return { sent, fetchImpl };
}

const CHAT_MESSAGE_KEYS = ['author', 'createdAt', 'id', 'reactions', 'room', 'text'];

describe('@platform/client against the API (Node)', () => {
  let api: TestApi;
  const clients: Client[] = [];
  const client = (opts: Partial<Parameters<typeof createClient>[0]> = {}) => {
    const c = createClient({ url: api.url, ...opts });
    clients.push(c);
    return c;
  };

  beforeAll(async () => {
    api = await startApi({ env: { 'HTTP.RATE_LIMIT_MAX': '1000' } });
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await api?.close();
  });

  it('logs in with a keypair, queries with persisted queries (GET by hash after one registration) and logs out', async () => {
    const { sent, fetchImpl } = recordingFetch();
    const c = client({ fetch: fetchImpl });
    const keypair = new Ed25519Keypair();
    const session = await c.auth.login(keypair);
    expect(session.address).toBe(keypair.toSuiAddress());
    expect(await c.auth.session()).toEqual({ address: keypair.toSuiAddress() });

    const me = await c.query(MeDocument);
    expect(me.me.walletAddress).toBe(keypair.toSuiAddress());
    sent.length = 0;
    const first = await c.query(ServerStatusDocument);
    expect(first.serverStatus.status).toBeTruthy();
    await c.query(ServerStatusDocument);
    // the hash alone, PERSISTED_QUERY_NOT_FOUND, the text once by POST, then the hash alone
    expect(sent.map((s) => `${s.method} ${s.operation}${s.withText ? ' +text' : ''}`)).toEqual(['GET ServerStatus', 'POST ServerStatus +text', 'GET ServerStatus']);

    const campaigns = await c.query(QuestCampaignsDocument);
    expect(Array.isArray(campaigns.questCampaigns)).toBe(true);
    const board = await c.query(LeaderboardDocument, { board: 'XP', limit: 5 });
    expect(Array.isArray(board.leaderboard)).toBe(true);

    const changes: Array<string | null> = [];
    c.auth.onChange((s) => changes.push(s?.address ?? null));
    await c.auth.logout();
    expect(changes).toEqual([null]);
    expect(await c.auth.session()).toBeNull();
    const refused = await c.query(MeDocument).catch((e: unknown) => e);
    expect(isPlatformError(refused, 'UNAUTHENTICATED')).toBe(true);
  });

  it('refreshes once for many calls that find the access token expiring (single-flight), and the rotation holds', async () => {
    const { sent, fetchImpl } = recordingFetch();
    const storage = memoryStorage();
    const c = client({ fetch: fetchImpl, auth: { storage } });
    await c.auth.login(new Ed25519Keypair());
    const before = (await storage.load())!;
    // the client's clock an hour ahead: the token looks expired to it, not to the API
    const later = client({ fetch: fetchImpl, auth: { storage }, now: () => Date.now() + 3600_000 });
    sent.length = 0;
    const answers = await Promise.all(Array.from({ length: 12 }, () => later.query(MeDocument)));
    expect(new Set(answers.map((a) => a.me.walletAddress)).size).toBe(1);
    // one refresh: one request naming its hash (and, the first time, the text once to register it)
    expect(sent.filter((s) => s.operation === 'RefreshTokens' && !s.withText)).toHaveLength(1);
    const after = (await storage.load())!;
    expect(after.refreshToken).not.toBe(before.refreshToken);
    // the rotated refresh token works; the spent one would have revoked the login
    await expect(c.auth.refresh()).resolves.toMatchObject({ accessToken: expect.any(String) });
  });

  it('on TOKEN_EXPIRED from the API (a client clock behind) refreshes and sends the query again', async () => {
    const storage = memoryStorage();
    const c = client({ auth: { storage }, now: () => Date.now() - 3600_000 });
    const keypair = new Ed25519Keypair();
    await c.auth.login(keypair);
    const tokens = (await storage.load())!;
    await storage.save({ ...tokens, accessToken: api.services.tokens.signAccess(keypair.toSuiAddress(), -10) });
    const me = await c.query(MeDocument);
    expect(me.me.walletAddress).toBe(keypair.toSuiAddress());
    expect((await storage.load())!.refreshToken).not.toBe(tokens.refreshToken);
  });

  it('a spent refresh token ends the login (REFRESH_TOKEN_REUSED), and the client forgets the tokens', async () => {
    const storage = memoryStorage();
    const c = client({ auth: { storage } });
    await c.auth.login(new Ed25519Keypair());
    const spent = (await storage.load())!;
    await c.auth.refresh();
    await storage.save(spent);
    const err = await c.auth.refresh().catch((e: unknown) => e);
    expect(isPlatformError(err, ['REFRESH_TOKEN_REUSED', 'REFRESH_TOKEN_INVALID'])).toBe(true);
    expect(await storage.load()).toBeNull();
  });

  it('types refusals: the code as a union, details per code', async () => {
    const c = client();
    await c.auth.login(new Ed25519Keypair());
    const chat = await c.chat();
    const err = await chat.send('global', 'x'.repeat(501)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PlatformError);
    if (!isPlatformError(err, 'VALIDATION_FAILED')) throw err;
    expect(err.details.issues?.[0]?.message).toBeTruthy();
    const badRoom = await c.query(LeaderboardDocument, { board: 'XP', limit: 1000 }).catch((e: unknown) => e);
    expect(isPlatformError(badRoom, 'VALIDATION_FAILED')).toBe(true);
  });

  it('REST: the OpenAPI-typed shim with the same token and refresh', async () => {
    const c = client();
    const keypair = new Ed25519Keypair();
    await c.auth.login(keypair);
    const rest = createRestClient(c);
    const { data, error } = await rest.GET('/api/users/me');
    expect(error).toBeUndefined();
    expect(data?.walletAddress).toBe(keypair.toSuiAddress());
    const price = await rest.GET('/api/price');
    expect(price.response.status).toBeLessThan(600);
  });
});

describe('@platform/client: Retry-After', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startApi({ env: { 'HTTP.RATE_LIMIT_MAX': '2', 'HTTP.RATE_LIMIT_WINDOW_MS': '1000' } });
  });
  afterAll(async () => {
    await api?.close();
  });

  it('waits what a 429 names and succeeds; refuses at once when the wait is beyond the bound', async () => {
    const { sent, fetchImpl } = recordingFetch();
    const patient = createClient({ url: api.url, fetch: fetchImpl, persistedQueries: false });
    const answers = await Promise.all(Array.from({ length: 4 }, () => patient.query(ServerStatusDocument)));
    expect(answers).toHaveLength(4);
    expect(sent.length).toBeGreaterThan(4);

    const hasty = createClient({ url: api.url, persistedQueries: false, retry: { maxDelayMs: 0 } });
    const results = await Promise.allSettled(Array.from({ length: 4 }, () => hasty.query(ServerStatusDocument)));
    const refused = results.find((r) => r.status === 'rejected');
    const reason = refused?.status === 'rejected' ? (refused.reason as unknown) : undefined;
    expect(isPlatformError(reason, 'RATE_LIMITED')).toBe(true);
    expect((reason as PlatformError).retryAfterSeconds).toBeGreaterThan(0);
    expect((reason as PlatformError).status).toBe(429);
  });
});

describe('@platform/client: realtime over both transports', () => {
  let api: TestApi;
  const clients: Client[] = [];
  const chats: ChatConnection[] = [];
  beforeAll(async () => {
    api = await startApi({ caps: { eventsPerWindow: 200 } });
  });
  afterAll(async () => {
    await Promise.all(chats.map((c) => c.close()));
    await Promise.all(clients.map((c) => c.close()));
    await api?.close();
  });
  const loggedIn = async (storage: TokenStorage = memoryStorage(), now?: () => number) => {
    const c = createClient({ url: api.url, auth: { storage }, now });
    clients.push(c);
    const keypair = new Ed25519Keypair();
    await c.auth.login(keypair);
    return { c, keypair, storage };
  };

  it('graphql-ws and Socket.IO see each other’s messages, with the same payload shape and idempotent sends', async () => {
    const room = 'game:client-both';
    const alice = await loggedIn();
    const bob = await loggedIn();
    const overWs = await alice.c.chat({ transport: 'graphql-ws' });
    const overSio = await bob.c.chat({ transport: 'socket.io' });
    chats.push(overWs, overSio);
    const seenByAlice: ChatMessage[] = [];
    const seenByBob: ChatMessage[] = [];
    await overWs.join(room, { message: (m) => seenByAlice.push(m) });
    await overSio.join(room, { message: (m) => seenByBob.push(m) });
    await until(async () => (await api.services.presence.counts(room)).online >= 2, 'both clients in the room');

    const fromBob = await overSio.send(room, 'hello from socket.io');
    const fromAlice = await overWs.send(room, 'hello from graphql-ws', { clientId: 'alice-1' });
    const again = await overWs.send(room, 'hello from graphql-ws', { clientId: 'alice-1' });
    expect(again.id).toBe(fromAlice.id);
    await until(() => seenByAlice.some((m) => m.id === fromBob.id) && seenByBob.some((m) => m.id === fromAlice.id), 'each side to see the other');
    for (const m of [...seenByAlice, ...seenByBob, fromAlice, fromBob]) expect(Object.keys(m).sort()).toEqual(CHAT_MESSAGE_KEYS);
    expect(seenByAlice.find((m) => m.id === fromBob.id)).toEqual(fromBob);
    expect(seenByBob.find((m) => m.id === fromAlice.id)).toEqual(fromAlice);

    const reaction = await overSio.react(fromAlice.id, '🔥');
    expect(reaction).toMatchObject({ messageId: fromAlice.id, room, emoji: '🔥', count: 1 });
    expect(await overWs.typing(room)).toEqual({ room, broadcast: true });
  });

  it('a subscription refused with 4403 TOKEN_EXPIRED reconnects with a refreshed token and goes on', async () => {
    const room = 'game:client-expiry';
    // the client's clock behind: it sends the expired token, the API closes with 4403 TOKEN_EXPIRED
    const { c, keypair, storage } = await loggedIn(memoryStorage(), () => Date.now() - 3600_000);
    const spent = (await storage.load())!;
    await storage.save({ ...spent, accessToken: api.services.tokens.signAccess(keypair.toSuiAddress(), -10) });
    const chat = await c.chat({ transport: 'graphql-ws' });
    chats.push(chat);
    const seen: ChatMessage[] = [];
    const errors: Error[] = [];
    await chat.join(room, { message: (m) => seen.push(m), error: (e) => errors.push(e) });
    const sent = await chat.send(room, 'after a refresh');
    await until(() => seen.some((m) => m.id === sent.id), 'the message on the resumed subscription');
    expect(errors).toEqual([]);
    expect((await storage.load())!.refreshToken).not.toBe(spent.refreshToken);
  });

  it('a Socket.IO handshake refused with TOKEN_EXPIRED reconnects with a refreshed token; rooms are joined again after a reconnect', async () => {
    const room = 'game:client-sio-expiry';
    const { c, keypair, storage } = await loggedIn(memoryStorage(), () => Date.now() - 3600_000);
    await storage.save({ ...(await storage.load())!, accessToken: api.services.tokens.signAccess(keypair.toSuiAddress(), -10) });
    const socket = await c.socket();
    const errors: Error[] = [];
    socket.onError((e) => errors.push(e));
    const seen: ChatMessage[] = [];
    socket.on('chat:message', (m) => seen.push(m));
    await socket.join(room);
    const first = await socket.send(room, 'one');
    await until(() => seen.some((m) => m.id === first.id), 'the first message');

    // the transport drops (as in a deploy): socket.io reconnects and the client joins the room again
    socket.socket.io.engine.close();
    await until(() => socket.socket.connected === false, 'the socket to notice', 5000);
    await until(() => socket.socket.connected, 'the socket to reconnect', 10_000);
    const second = await socket.send(room, 'two');
    await until(() => seen.some((m) => m.id === second.id), 'the message after the reconnect');
    expect(errors).toEqual([]);
  });

  it('activity reaches both transports', async () => {
    const alice = await loggedIn();
    const ws = await alice.c.chat({ transport: 'graphql-ws' });
    const sio = await alice.c.chat({ transport: 'socket.io' });
    chats.push(ws, sio);
    const overWs: string[] = [];
    const overSio: string[] = [];
    ws.activity((a) => overWs.push(a.summary));
    sio.activity((a) => overSio.push(a.summary));
    await until(async () => (await api.services.presence.counts('global')).total >= 2, 'both connections open');
    await until(
      async () => {
        await api.services.activity.publish({ kind: 'bet', player: '0x1', summary: 'probe', at: new Date() });
        return overWs.includes('probe') && overSio.includes('probe');
      },
      'the activity event on both transports',
    );
  });
});
