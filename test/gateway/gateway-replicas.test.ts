import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import type { Socket } from 'socket.io-client';
import type { Client } from 'graphql-ws';
import { ChatMessagesDocument, PresenceDocument, SendChatMessageDocument } from '../../src/generated/graphql';
import { PRESENCE_LEASE_MS } from '../../src/services/presence/service';
import { loginWithKeypair } from '../helpers/auth';
import { gql, wsClient, wsQuery, wsSubscribe } from '../helpers/client';
import { needsService, testEnv } from '../helpers/env';
import { spawnMain, type SpawnedApi } from '../helpers/process';
import { collect, connectSocket, emitAck, until } from './gateway-helpers';

const servicesPresent = needsService('SHARED_STORE_URL') && needsService('DATABASE_URL');

/**
 * Two real API processes on one Redis and one PostgreSQL: chat fans out to both transports on both
 * processes, presence agrees across them, and a SIGKILLed process's users leave after the lease.
 */
describe.runIf(servicesPresent)('realtime gateway across two API processes', () => {
  const procs: SpawnedApi[] = [];
  const sockets: Socket[] = [];
  const clients: Client[] = [];
  afterAll(async () => {
    for (const s of sockets) s.close();
    await Promise.all(clients.map((c) => c.dispose()));
    // stop() waits for an exit, which a killed process has already had
    await Promise.all(procs.filter((p) => p.child.signalCode === null).map((p) => p.stop()));
  });

  it('a message sent on A over graphql-ws reaches graphql-ws and Socket.IO subscribers on A and B; presence agrees within a second; B killed, its users leave after the lease', async () => {
    const env = {
      CACHE_STORE: 'redis',
      SHARED_STORE_URL: testEnv.redisUrl!,
      SHARED_STORE_KEY_PREFIX: `test:${randomUUID()}:`,
      DATABASE_URL: testEnv.databaseUrl!,
      JWT_SECRET: 'gateway-replicas-test-jwt-secret-0123456789',
      INDEXER_DISABLED: 'true',
      LOG_LEVEL: 'warn',
    };
    const [a, b] = await Promise.all([spawnMain(['--role', 'api'], env), spawnMain(['--role', 'api'], env)]);
    procs.push(a, b);
    const wsUrl = (p: SpawnedApi) => `${p.url.replace('http', 'ws')}/graphql`;
    const room = `game:replicas-${randomUUID().slice(0, 8)}`;
    const online = async (p: SpawnedApi) => (await gql(p.url, PresenceDocument, { room })).body.data?.presence.online;

    // subscribers: graphql-ws and Socket.IO on each process (anonymous readers)
    const subs = [a, b].map((p) => {
      const client = wsClient(wsUrl(p));
      clients.push(client);
      return wsSubscribe(client, ChatMessagesDocument, { room });
    });
    const ioReaders = await Promise.all([a, b].map((p) => connectSocket(p.url)));
    sockets.push(...ioReaders);
    for (const s of ioReaders) expect(await emitAck(s, 'room:join', { room })).toMatchObject({ ok: true });
    const ioReceived = ioReaders.map((s) => collect<{ id: string; text: string }>(s, 'chat:message'));
    await until(async () => (await online(a)) === 4 && (await online(b)) === 4, 'both processes to count the four subscribers', 15_000);

    const alice = await loginWithKeypair(a.url);
    const sender = wsClient(wsUrl(a), { authorization: `Bearer ${alice.accessToken}` });
    clients.push(sender);
    const arrivals = subs.map((s) => s.next(10_000));
    const sent = await wsQuery(sender, SendChatMessageDocument, { room, text: 'hello both replicas' });
    expect(sent.errors).toBeUndefined();
    const message = sent.data!.sendChatMessage;
    for (const arrival of await Promise.all(arrivals)) expect(arrival.data?.chatMessages).toEqual(message);
    await until(() => ioReceived.every((r) => r.length === 1), 'both Socket.IO readers to get the message');
    for (const r of ioReceived) expect(r[0]).toMatchObject({ id: message.id, text: 'hello both replicas', author: alice.address });

    // one more user joins on B: both processes agree on the new count within one second
    const late = await connectSocket(b.url);
    sockets.push(late);
    const joinedAt = Date.now();
    await emitAck(late, 'room:join', { room });
    await until(async () => (await online(a)) === 5 && (await online(b)) === 5, 'both processes to count the fifth user', 1_000);
    expect(Date.now() - joinedAt).toBeLessThan(1_000);

    // each process's Socket.IO Redis adapter is on the same Redis under the deployment's prefix (its own response channel each)
    const redis = new Redis(testEnv.redisUrl!);
    const responses = `${env.SHARED_STORE_KEY_PREFIX}socket.io-response#/#`;
    const ownChannels = async () => ((await redis.pubsub('CHANNELS', `${responses}*`)) as string[]).filter((c) => c !== responses);
    await until(async () => (await ownChannels()).length === 2, "both processes' Socket.IO adapters on Redis").finally(() => redis.quit());

    // B dies without a goodbye: its three users stay until their lease runs out, then leave
    const presenceOnA = collect<{ room: string; online: number }>(ioReaders[0], 'presence');
    const killedAt = Date.now();
    b.child.kill('SIGKILL');
    await until(() => b.child.signalCode === 'SIGKILL', 'B to die');
    expect(await online(a)).toBe(5);
    await until(async () => (await online(a)) === 2, "B's users to leave presence on A", PRESENCE_LEASE_MS + 15_000, 250);
    expect(Date.now() - killedAt).toBeGreaterThanOrEqual(PRESENCE_LEASE_MS - 5_000);
    await until(() => presenceOnA.some((p) => p.room === room && p.online === 2), 'the presence broadcast on A');
  }, 120_000);
});
