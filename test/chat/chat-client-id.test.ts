import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Socket } from 'socket.io-client';
import type { Client } from 'graphql-ws';
import { SendChatMessageDocument } from '../../src/generated/graphql';
import { createDb } from '../../src/db/client';
import { startApi, type TestApi } from '../helpers/api';
import { loginWithKeypair, type LoggedIn } from '../helpers/auth';
import { wsClient, wsQuery } from '../helpers/client';
import { createTestDb, testLogger, type Db, type TestDb } from '../helpers/db';
import { needsService } from '../helpers/env';
import { collect, connectSocket, emitAck, until, type Ack } from '../gateway/gateway-helpers';

type Sent = { id: string; room: string; author: string; text: string };

/**
 * Two API replicas (one PostgreSQL, one Redis prefix): a chat message retried with the same
 * clientId over Socket.IO and graphql-ws on both is stored, broadcast and charged once.
 */
describe.runIf(needsService('SHARED_STORE_URL'))('chat clientId across two replicas and both transports', () => {
  const prefix = randomUUID();
  let testDb: TestDb;
  let secondDb: Db | null = null;
  let a: TestApi;
  let b: TestApi;
  let alice: LoggedIn;
  const sockets: Socket[] = [];
  const clients: Client[] = [];

  beforeAll(async () => {
    testDb = await createTestDb();
    // a second pool on the same database, as a second process would have (PGlite is one process: shared)
    secondDb = testDb.url ? await createDb({ databaseUrl: testDb.url, dataDir: tmpdir(), logger: testLogger, poolMax: 5 }) : null;
    // a long window and a small budget: the charges are counted exactly
    const env = { 'CHAT.MESSAGE_RATE_LIMIT_MAX': '3', 'CHAT.RATE_LIMIT_WINDOW_MS': '600000' };
    [a, b] = await Promise.all([
      startApi({ store: 'redis', storePrefix: prefix, db: testDb.db, env, caps: { eventsPerWindow: 200 } }),
      startApi({ store: 'redis', storePrefix: prefix, db: secondDb ?? testDb.db, env, caps: { eventsPerWindow: 200 } }),
    ]);
    alice = await loginWithKeypair(a.url);
  });
  afterAll(async () => {
    for (const s of sockets) s.close();
    await Promise.all(clients.map((c) => c.dispose()));
    await Promise.all([a?.close(), b?.close()]);
    await secondDb?.close();
    await testDb?.cleanup();
  });

  const socketOn = async (api: TestApi) => {
    const s = await connectSocket(api.url, { token: alice.accessToken });
    sockets.push(s);
    return s;
  };
  const graphqlOn = (api: TestApi, who: LoggedIn = alice) => {
    const c = wsClient(api.wsUrl, { authorization: `Bearer ${who.accessToken}` });
    clients.push(c);
    return c;
  };
  const viaSocket = async (s: Socket, payload: Record<string, unknown>): Promise<Sent> => {
    const ack: Ack = await emitAck(s, 'chat:send', payload);
    if (!ack.ok) throw new Error(`chat:send refused: ${ack.error.code} ${ack.error.message}`);
    return ack.message as Sent;
  };
  const viaGraphql = async (c: Client, vars: { room: string; text: string; clientId?: string }): Promise<Sent> => {
    const res = await wsQuery(c, SendChatMessageDocument, vars);
    if (res.errors) throw new Error(`sendChatMessage refused: ${JSON.stringify(res.errors)}`);
    return res.data!.sendChatMessage;
  };

  it('20 parallel sends of one clientId (Socket.IO and graphql-ws, on A and B) store one message, each answer carries it, one broadcast, one charge', async () => {
    const room = `game:idem-${randomUUID().slice(0, 8)}`;
    const [ioA, ioB] = await Promise.all([socketOn(a), socketOn(b)]);
    const [gqlA, gqlB] = [graphqlOn(a), graphqlOn(b)];
    const reader = await connectSocket(b.url);
    sockets.push(reader);
    expect(await emitAck(reader, 'room:join', { room })).toMatchObject({ ok: true });
    const broadcasts = collect<Sent>(reader, 'chat:message');

    const clientId = randomUUID();
    const sends = Array.from({ length: 20 }, (_, i) => {
      const payload = { room, text: 'sent once, whatever the network does', clientId };
      if (i % 4 === 0) return viaSocket(ioA, payload);
      if (i % 4 === 1) return viaSocket(ioB, payload);
      return viaGraphql(i % 4 === 2 ? gqlA : gqlB, payload);
    });
    const acks = await Promise.all(sends);
    expect(new Set(acks.map((m) => m.id)).size).toBe(1);
    for (const m of acks) expect(m).toMatchObject({ id: acks[0].id, room, author: alice.address, text: 'sent once, whatever the network does' });
    expect(await testDb.prisma.chatMessage.count({ where: { author: alice.address, clientId } })).toBe(1);
    expect(await testDb.prisma.chatMessage.count({ where: { room } })).toBe(1);

    // one charge of 3: two more messages pass, the third is refused (a later repeat still answers)
    const marker = await viaSocket(ioA, { room, text: 'second', clientId: randomUUID() });
    await viaGraphql(gqlB, { room, text: 'third' });
    const refused = await emitAck(ioB, 'chat:send', { room, text: 'fourth', clientId: randomUUID() });
    expect(refused).toMatchObject({ ok: false, error: { code: 'RATE_LIMITED' } });
    expect((await viaGraphql(gqlA, { room, text: 'a late retry', clientId })).id).toBe(acks[0].id);

    // broadcasts arrive in publish order: once the marker is in, the retried message went out once
    await until(() => broadcasts.some((m) => m.id === marker.id), 'the marker message to reach the reader');
    expect(broadcasts.filter((m) => m.id === acks[0].id)).toHaveLength(1);
    expect(await testDb.prisma.chatMessage.count({ where: { room } })).toBe(3);
  });

  it('a clientId is per author, and one that is not an id is refused with VALIDATION_FAILED', async () => {
    const room = `game:idem-${randomUUID().slice(0, 8)}`;
    const [carol, bob] = await Promise.all([loginWithKeypair(a.url), loginWithKeypair(b.url)]);
    const bobSocket = await connectSocket(b.url, { token: bob.accessToken });
    sockets.push(bobSocket);
    const clientId = randomUUID();
    const fromCarol = await viaGraphql(graphqlOn(a, carol), { room, text: 'carol', clientId });
    const fromBob = await viaSocket(bobSocket, { room, text: 'bob', clientId });
    expect(fromBob.id).not.toBe(fromCarol.id);
    expect(fromBob).toMatchObject({ author: bob.address, text: 'bob' });
    for (const bad of ['', 'has space', 'x'.repeat(65), 42]) {
      expect(await emitAck(bobSocket, 'chat:send', { room, text: 'hi', clientId: bad })).toMatchObject({ ok: false, error: { code: 'VALIDATION_FAILED' } });
    }
  });
});
