// The API on PostgreSQL behind a real PgBouncer (Debian's) in transaction mode: Prisma and raw reads and
// writes through the pooler, migrations and advisory-lock leases on the direct session URL.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config';
import { createDb, type Db } from '../../src/db/client';
import { ChatHistoryDocument, SendChatMessageDocument } from '../../src/generated/graphql';
import { EVENT_KINDS } from '../../src/indexer/kinds';
import { createEventStore, CursorConflictError } from '../../src/indexer/store';
import { startApi, type TestApi } from '../helpers/api';
import { loginWithKeypair } from '../helpers/auth';
import { gql, wsClient, wsQuery } from '../helpers/client';
import { createScratchDatabase, postgresUrl, testLogger, type ScratchDatabase } from '../helpers/db';
import { freePort, waitFor } from '../helpers/store';
import { needsService, testEnv } from '../helpers/env';

const hasPgBouncer = spawnSync('pgbouncer', ['--version']).status === 0;
const run = needsService('DATABASE_URL');
if (run && !hasPgBouncer && testEnv.requireServices) throw new Error('REQUIRE_SERVICES=1 but pgbouncer is not installed (.ci/install-system-deps.sh)');

describe.skipIf(!run || !hasPgBouncer)('PostgreSQL behind PgBouncer in transaction mode', () => {
  let scratch: ScratchDatabase;
  let bouncer: ChildProcess;
  let pooledUrl: string;
  let db: Db;
  let api: TestApi;
  const dir = mkdtempSync(join(tmpdir(), 'pgbouncer-'));

  beforeAll(async () => {
    scratch = await createScratchDatabase(postgresUrl()!);
    const server = new URL(scratch.url);
    const port = await freePort();
    const password = server.password ? ` password=${decodeURIComponent(server.password)}` : '';
    const ini = join(dir, 'pgbouncer.ini');
    writeFileSync(
      ini,
      [
        '[databases]',
        `${scratch.name} = host=${server.hostname} port=${server.port || 5432} dbname=${scratch.name} user=${decodeURIComponent(server.username) || 'postgres'}${password}`,
        '[pgbouncer]',
        'listen_addr = 127.0.0.1',
        `listen_port = ${port}`,
        'unix_socket_dir =',
        'auth_type = any',
        'pool_mode = transaction',
        // Fewer server connections than the API's pool: clients really are multiplexed.
        'default_pool_size = 3',
        'max_client_conn = 200',
        '',
      ].join('\n'),
    );
    chmodSync(dir, 0o755);
    chmodSync(ini, 0o644);
    // PgBouncer refuses to run as root.
    const asUser = userInfo().uid === 0 ? ['-u', 'postgres'] : [];
    bouncer = spawn('pgbouncer', [...asUser, ini], { stdio: 'ignore' });
    pooledUrl = `postgres://${server.username || 'postgres'}@127.0.0.1:${port}/${scratch.name}?pgbouncer=true`;
    await waitFor(
      async () => {
        const c = new pg.Client({ connectionString: pooledUrl.replace('?pgbouncer=true', '') });
        c.on('error', () => undefined);
        try {
          await c.connect();
          await c.query('SELECT 1');
          return true;
        } catch {
          return false;
        } finally {
          await c.end().catch(() => undefined);
        }
      },
      10_000,
      'pgbouncer to accept connections',
    );
    db = await createDb({ databaseUrl: pooledUrl, directUrl: scratch.url, dataDir: dir, logger: testLogger, statementTimeoutMs: 30_000 });
    api = await startApi({ db, store: 'memory' });
  }, 60_000);

  afterAll(async () => {
    await api?.close();
    await db?.close();
    if (bouncer && bouncer.exitCode === null) {
      const exited = new Promise((r) => bouncer.once('exit', r));
      bouncer.kill('SIGTERM');
      await exited;
    }
    await scratch?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('refuses a pgbouncer=true DATABASE_URL without a direct URL, in config and in the db factory', async () => {
    expect(() => loadConfig({ envDir: '/nonexistent', env: { DATABASE_URL: pooledUrl } })).toThrow(/DATABASE_DIRECT_URL/);
    expect(loadConfig({ envDir: '/nonexistent', env: { DATABASE_URL: pooledUrl, DATABASE_DIRECT_URL: scratch.url } }).databaseDirectUrl).toBe(scratch.url);
    await expect(createDb({ databaseUrl: pooledUrl, dataDir: dir, logger: testLogger })).rejects.toThrow(/direct/);
  });

  it('serves logins, chat writes and reads through the pooler, many requests at once over 3 server connections', async () => {
    const [alice, bob] = await Promise.all([loginWithKeypair(api.url), loginWithKeypair(api.url)]);
    const room = 'game:pgbouncer';
    const senders = [alice, bob].map((who) => wsClient(api.wsUrl, { authorization: `Bearer ${who.accessToken}` }));
    try {
      const sent = await Promise.all(Array.from({ length: 12 }, (_, i) => wsQuery(senders[i % 2], SendChatMessageDocument, { room, text: `message ${i}` })));
      for (const s of sent) expect(s.errors).toBeUndefined();
    } finally {
      await Promise.all(senders.map((c) => c.dispose()));
    }
    const history = await gql(api.url, ChatHistoryDocument, { room, limit: 50 });
    expect(history.body.errors).toBeUndefined();
    expect(history.body.data!.chatHistory.items.map((m) => m.text).sort()).toEqual(Array.from({ length: 12 }, (_, i) => `message ${i}`).sort());

    // Prisma's interactive transaction keeps one server connection for its statements; raw reads go through too.
    const count = await db.prisma.$transaction(async (tx) => tx.$queryRawUnsafe<{ n: bigint }[]>('SELECT count(*) AS n FROM pg_stat_activity'));
    expect(count.length).toBe(1);
    const ready = await fetch(`${api.url}/api/health/ready`);
    expect(ready.status).toBe(200);
  });

  it('writes indexer batches through the pooler: rows, board and cursor in one statement, a moved cursor rolls all back', async () => {
    const store = createEventStore({ db });
    const player = '0x' + 'ab'.repeat(32);
    const bet = (i: number) => ({
      txDigest: `PgBouncerDigest${i}`.padEnd(44, '1'),
      eventSeq: 0,
      checkpoint: BigInt(i),
      timestampMs: Date.UTC(2026, 0, 6, 0, 0, i),
      sender: player,
      type: '0x2::game::BetResultEvent',
      data: EVENT_KINDS.bet_result_event.decode({ player, game_id: String(i), coin_type: '0x2::sui::SUI', stake: '10', payout: '0', won: false }),
    });
    const stake = async () => (await db.query<{ total: string }>('SELECT total_wagered::text AS total FROM bet_leaderboard WHERE player = $1', [player]))[0]?.total;
    // Batches of one kind follow each other; the pooler may hand each statement another server connection.
    let cursor: string | null = null;
    for (let i = 1; i <= 6; i++) {
      const next = `pgb-${i}`;
      expect((await store.writeBatch({ kind: 'bet_result_event', events: [bet(i)], cursor, nextCursor: next }, 'grpc')).inserted).toBe(1);
      cursor = next;
    }
    expect(await stake()).toBe('60');
    await expect(store.writeBatch({ kind: 'bet_result_event', events: [bet(7)], cursor: 'pgb-1', nextCursor: 'pgb-x' }, 'grpc')).rejects.toBeInstanceOf(CursorConflictError);
    expect(await stake()).toBe('60');
    expect((await store.loadCursor('bet_result_event'))?.cursor).toBe('pgb-6');
  });

  it('holds advisory-lock leases on the direct connection, so a second claimant is refused until release', async () => {
    const lease = await db.tryAdvisoryLock('pgbouncer-test-lease');
    expect(lease).not.toBeNull();
    // Many pooled statements in between would have moved a session lock taken through PgBouncer.
    await Promise.all(Array.from({ length: 20 }, () => db.query('SELECT 1')));
    expect(await db.tryAdvisoryLock('pgbouncer-test-lease')).toBeNull();
    await lease!.release();
    const again = await db.tryAdvisoryLock('pgbouncer-test-lease');
    expect(again).not.toBeNull();
    await again!.release();
  });
});
