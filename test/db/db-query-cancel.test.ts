// A request that ends — its time budget spent or its client gone — leaves no statement running in
// PostgreSQL. Checked in pg_stat_activity (polled, never slept on). The running-statement cases
// need a real server: PGlite runs statements inside this process and cannot cancel them.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QueryCancelledError } from '../../src/db/client';
import { requestSignal } from '../../src/http/timeout';
import { startApi, type TestApi } from '../helpers/api';
import { createTestDb, postgresUrl, type Db, type TestDb } from '../helpers/db';
import { waitFor } from '../helpers/store';

const onPostgres = Boolean(postgresUrl());

/** Statements other than the probe itself whose text contains `marker`. */
async function running(db: Db, marker: string): Promise<number> {
  const [row] = await db.query<{ n: string }>(
    `SELECT count(*) AS n FROM pg_stat_activity WHERE pid <> pg_backend_pid() AND state = 'active' AND position($1 in query) > 0`,
    [marker],
  );
  return Number(row!.n);
}

/** Adds a test-only route that runs a 30 s sleep through db.query with the request's signal. */
function sleepRoute(getDb: () => Db) {
  return (app: TestApi['app']) => {
    app.get<{ Querystring: { marker: string } }>('/test/sleep', async (request) => {
      // The marker goes into the statement text so pg_stat_activity can find exactly this one.
      const marker = request.query.marker.replace(/[^a-z0-9-]/g, '');
      await getDb().query(`SELECT pg_sleep(30) /* ${marker} */`, [], { signal: requestSignal(request) });
      return { slept: true };
    });
  };
}

describe('db.query with a signal (both databases)', () => {
  let t: TestDb;
  beforeAll(async () => {
    t = await createTestDb();
    await t.db.query('CREATE TABLE cancel_probe (id int)');
  });
  afterAll(async () => t?.cleanup());

  it('never starts a statement for a caller that has already ended', async () => {
    const ended = new AbortController();
    ended.abort(new Error('request timed out'));
    await expect(t.db.query('INSERT INTO cancel_probe VALUES (1)', [], { signal: ended.signal })).rejects.toBeInstanceOf(QueryCancelledError);
    await expect(t.db.query('SELECT 1', [], { signal: ended.signal })).rejects.toMatchObject({ code: 'REQUEST_TIMEOUT', message: 'query not started: request timed out' });
    expect(await t.db.query('SELECT * FROM cancel_probe')).toEqual([]);
  });

  it('runs normally while the signal stays quiet', async () => {
    const live = new AbortController();
    expect(await t.db.query<{ one: number }>('SELECT 1 AS one', [], { signal: live.signal })).toEqual([{ one: 1 }]);
  });
});

describe.skipIf(!onPostgres)('cancellation of running statements (PostgreSQL)', () => {
  let t: TestDb;
  beforeAll(async () => {
    t = await createTestDb({ createDbOptions: { statementTimeoutMs: 1500, poolMax: 2 } });
  });
  afterAll(async () => t?.cleanup());

  it('cancels a running statement when the signal aborts, and the pool keeps working', async () => {
    const marker = `cancel-${randomUUID()}`;
    const caller = new AbortController();
    const pending = t.db.query(`SELECT pg_sleep(30) /* ${marker} */`, [], { signal: caller.signal });
    await waitFor(async () => (await running(t.db, marker)) === 1, 10_000, 'the sleep to start');
    caller.abort(new Error('client gone'));
    // A request that ended, not a bug: REQUEST_TIMEOUT rather than INTERNAL wherever it surfaces.
    await expect(pending).rejects.toMatchObject({ name: 'QueryCancelledError', code: 'REQUEST_TIMEOUT', message: 'query cancelled: client gone' });
    await waitFor(async () => (await running(t.db, marker)) === 0, 10_000, 'the sleep to stop');
    // The cancelled connection was discarded; both pool slots still serve.
    const both = await Promise.all([t.db.query('SELECT 1 AS n'), t.db.query('SELECT 2 AS n')]);
    expect(both).toEqual([[{ n: 1 }], [{ n: 2 }]]);
  });

  it('gives every pooled connection statement_timeout from options and jit off', async () => {
    const [settings] = await t.db.query<{ timeout: string; jit: string }>(`SELECT current_setting('statement_timeout') AS timeout, current_setting('jit') AS jit`);
    expect(settings).toEqual({ timeout: '1500ms', jit: 'off' });
    await expect(t.db.query('SELECT pg_sleep(30)')).rejects.toMatchObject({ code: '57014' });
  });
});

describe.skipIf(!onPostgres)('a request that ends cancels its statement (PostgreSQL, over HTTP)', () => {
  let short: TestApi;
  let long: TestApi;
  beforeAll(async () => {
    short = await startApi({ env: { 'HTTP.REQUEST_TIMEOUT_MS': '1000' }, extraRoutes: sleepRoute(() => short.db) });
    long = await startApi({ env: { 'HTTP.REQUEST_TIMEOUT_MS': '60000' }, extraRoutes: sleepRoute(() => long.db) });
  });
  afterAll(async () => {
    await short?.close();
    await long?.close();
  });

  it('times out at the configured budget and leaves no statement running', async () => {
    const marker = `timeout-${randomUUID()}`;
    const res = await fetch(`${short.url}/test/sleep?marker=${marker}`);
    expect(res.status).toBe(503);
    expect((await res.json()).error.code).toBe('REQUEST_TIMEOUT');
    // Without cancellation the sleep would hold its backend for 29 more seconds.
    await waitFor(async () => (await running(short.db, marker)) === 0, 5_000, 'the timed-out statement to end');
  });

  it('cancels the statement of a client that disconnects', async () => {
    const marker = `gone-${randomUUID()}`;
    const client = new AbortController();
    const req = fetch(`${long.url}/test/sleep?marker=${marker}`, { signal: client.signal }).catch((e: unknown) => e);
    await waitFor(async () => (await running(long.db, marker)) === 1, 10_000, 'the sleep to start');
    client.abort();
    expect(await req).toBeInstanceOf(Error);
    await waitFor(async () => (await running(long.db, marker)) === 0, 5_000, "the gone client's statement to end");
  });

  it('cancels a leaderboardRank read that outlives the request budget', async () => {
    await short.db.query(`INSERT INTO xp_leaderboard (player, total_xp, vip_level) VALUES ('0xa', 10, 1), ('0xb', 5, 0)`);
    // A writer holding the board makes the rank read wait: a statement that runs past the budget, deterministically.
    const blocker = await createBlocker(short.db);
    try {
      const res = await fetch(`${short.url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: '{ leaderboardRank(board: XP, player: "0xb") { rank } }' }),
      });
      expect(res.status).toBe(503);
      await waitFor(async () => (await running(short.db, 'FROM xp_leaderboard me')) === 0, 5_000, 'the rank read to be cancelled');
    } finally {
      await blocker.release();
    }
    const after = await fetch(`${short.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ leaderboardRank(board: XP, player: "0xb") { rank player } }' }),
    }).then((r) => r.json());
    expect(after.data.leaderboardRank).toEqual({ rank: 2, player: '0xb' });
  });
});

/** Holds an exclusive lock on xp_leaderboard in an open transaction on its own connection. */
async function createBlocker(db: Db): Promise<{ release(): Promise<void> }> {
  const { default: pg } = await import('pg');
  const [{ name }] = await db.query<{ name: string }>(`SELECT current_database() AS name`);
  const server = new URL(postgresUrl()!);
  server.pathname = `/${name}`;
  const client = new pg.Client({ connectionString: server.toString() });
  await client.connect();
  await client.query('BEGIN');
  await client.query('LOCK TABLE xp_leaderboard IN ACCESS EXCLUSIVE MODE');
  return {
    async release() {
      await client.query('ROLLBACK');
      await client.end();
    },
  };
}
