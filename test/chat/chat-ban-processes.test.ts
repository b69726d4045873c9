/**
 * A chat ban holds across processes (issue 25): two API processes (`--role api`, spawned as
 * `npm start` runs them) on one PostgreSQL database and one Redis. A ban applied through process A
 * refuses the wallet's sends on process B within 1 s, on Socket.IO and on graphql-ws; a revoked
 * operator is refused on B at once too.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SendChatMessageDocument } from '../../src/generated/graphql';
import { createTokenService } from '../../src/services/auth/tokens';
import { wsClient, wsQuery } from '../helpers/client';
import { createScratchDatabase, postgresUrl, type ScratchDatabase } from '../helpers/db';
import { needsService, testEnv } from '../helpers/env';
import { spawnMain, type SpawnedApi } from '../helpers/process';
import { connectSocket, emitAck, until, type Ack } from '../gateway/gateway-helpers';

const WITHIN_MS = 1_000;
const JWT_SECRET = randomBytes(32).toString('hex');
const OPERATOR = `0x${randomBytes(32).toString('hex')}`;
const tokens = createTokenService({ secret: JWT_SECRET, issuer: 'platform-backend' });
const bearer = (wallet: string) => `Bearer ${tokens.signAccess(wallet)}`;
const runs = needsService('DATABASE_URL') && needsService('SHARED_STORE_URL');

describe.runIf(runs)('a chat ban across two API processes on one PostgreSQL and Redis', () => {
  let scratch: ScratchDatabase;
  let a: SpawnedApi;
  let b: SpawnedApi;
  const dirs: string[] = [];
  const sockets: Socket[] = [];
  const clients: Array<ReturnType<typeof wsClient>> = [];

  beforeAll(async () => {
    scratch = await createScratchDatabase(postgresUrl()!);
    // One deployment: both processes share the key namespace (bus, limits, bans).
    const prefix = `test:${randomUUID()}:`;
    const env = (): Record<string, string> => {
      const dir = mkdtempSync(path.join(tmpdir(), 'ban-processes-'));
      dirs.push(dir);
      return {
        DATA_DIR: dir,
        DATABASE_URL: scratch.url,
        CACHE_STORE: 'redis',
        SHARED_STORE_URL: testEnv.redisUrl!,
        SHARED_STORE_KEY_PREFIX: prefix,
        JWT_SECRET,
        OPERATOR_WALLETS: OPERATOR,
        INDEXER_DISABLED: 'true',
      };
    };
    // One after the other: the first applies the migrations.
    a = await spawnMain(['--role', 'api'], env(), 120_000);
    b = await spawnMain(['--role', 'api'], env(), 120_000);
  }, 300_000);

  afterAll(async () => {
    for (const s of sockets) s.close();
    await Promise.all(clients.map((c) => c.dispose()));
    await Promise.all([a?.stop(), b?.stop()]);
    await scratch?.drop();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  const admin = (api: SpawnedApi, method: string, route: string, body?: unknown) =>
    fetch(`${api.url}${route}`, {
      method,
      headers: { authorization: bearer(OPERATOR), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const codeOf = (ack: Ack) => (ack.ok ? null : ack.error.code);

  it('refuses the banned wallet on the other process within 1 s, on both transports', async () => {
    const room = 'game:ban-processes';
    const wallet = `0x${randomBytes(32).toString('hex')}`;
    const socket = await connectSocket(b.url, { token: tokens.signAccess(wallet) });
    sockets.push(socket);
    const ws = wsClient(`${b.url.replace(/^http/, 'ws')}/graphql`, { authorization: bearer(wallet) });
    clients.push(ws);
    expect(await emitAck(socket, 'chat:send', { room, text: 'hello' })).toMatchObject({ ok: true });
    expect((await wsQuery(ws, SendChatMessageDocument, { room, text: 'hello' })).errors).toBeUndefined();

    expect((await admin(a, 'POST', '/api/admin/chat/bans', { wallet, reason: 'spam' })).status).toBe(200);
    await Promise.all([
      until(async () => codeOf(await emitAck(socket, 'chat:send', { room, text: 'again' })) === 'CHAT_BANNED', 'CHAT_BANNED on Socket.IO at B', WITHIN_MS),
      until(
        async () => {
          try {
            return (await wsQuery(ws, SendChatMessageDocument, { room, text: 'again' })).errors?.[0]?.extensions?.code === 'CHAT_BANNED';
          } catch (errors) {
            return (errors as Array<{ extensions?: { code?: string } }>)[0]?.extensions?.code === 'CHAT_BANNED';
          }
        },
        'CHAT_BANNED on graphql-ws at B',
        WITHIN_MS,
      ),
    ]);
  });

  it('refuses a revoked operator on the other process at once', async () => {
    const grantee = `0x${randomBytes(32).toString('hex')}`;
    expect((await admin(a, 'POST', '/api/admin/operators', { wallet: grantee })).status).toBe(200);
    const onB = () => fetch(`${b.url}/api/admin/audit`, { headers: { authorization: bearer(grantee) } }).then((r) => r.status);
    await until(async () => (await onB()) === 200, 'the grant on B', WITHIN_MS);
    expect((await admin(a, 'DELETE', `/api/admin/operators/${grantee}`)).status).toBe(200);
    await until(async () => (await onB()) === 403, 'the revocation on B', WITHIN_MS);
  });
});
