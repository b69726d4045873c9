// The audit log is append-only by trigger on both engines, and by privileges on PostgreSQL with the
// roles docs/operations.md describes (deploy/postgres/app-role-grants.sql, run here as written).
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { createDb, type Db } from '../../src/db/client';
import { createScratchDatabase, createTestDb, postgresUrl, testLogger, type ScratchDatabase, type TestDb } from '../helpers/db';

const serverUrl = postgresUrl();
const GRANTS = new URL('../../deploy/postgres/app-role-grants.sql', import.meta.url);

describe('operator_audit refuses TRUNCATE (trigger)', () => {
  let t: TestDb;
  beforeAll(async () => {
    t = await createTestDb();
  });
  afterAll(async () => t?.cleanup());

  it('keeps its rows through a TRUNCATE', async () => {
    await t.db.query(`INSERT INTO operator_audit (actor, action, target) VALUES ('operator-token', 'test.truncate', 'x')`);
    await expect(t.db.query('TRUNCATE operator_audit')).rejects.toThrow(/append-only/);
    expect((await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM operator_audit'))[0]!.n).toBe(1);
  });
});

describe.skipIf(!serverUrl)('production roles: the application role can only append to the audit log (PostgreSQL)', () => {
  const suffix = randomBytes(4).toString('hex');
  const owner = `audit_owner_${suffix}`;
  const app = `audit_app_${suffix}`;
  let scratch: ScratchDatabase;
  let asOwner: Db;
  let asApp: Db;
  const urlOf = (role: string) => Object.assign(new URL(scratch.url), { username: role }).toString();
  const admin = async (sql: string) => {
    const c = new pg.Client({ connectionString: serverUrl });
    await c.connect();
    try {
      await c.query(sql);
    } finally {
      await c.end();
    }
  };

  beforeAll(async () => {
    await admin(`CREATE ROLE "${owner}" LOGIN; CREATE ROLE "${app}" LOGIN`);
    scratch = await createScratchDatabase(serverUrl!);
    await admin(`ALTER DATABASE "${scratch.name}" OWNER TO "${owner}"`);
    // the migrations run under the owner, as the start-up of a process given the owner's URL runs them
    asOwner = await createDb({ databaseUrl: urlOf(owner), dataDir: tmpdir(), logger: testLogger, poolMax: 2 });
    const grants = (await readFile(GRANTS, 'utf8')).replaceAll(':"owner"', `"${owner}"`).replaceAll(':"app"', `"${app}"`);
    await asOwner.query(grants);
    asApp = await createDb({ databaseUrl: urlOf(app), dataDir: tmpdir(), logger: testLogger, poolMax: 2 });
  }, 120_000);
  afterAll(async () => {
    await asApp?.close();
    await asOwner?.close();
    await scratch?.drop();
    await admin(`DROP ROLE IF EXISTS "${app}"; DROP ROLE IF EXISTS "${owner}"`);
  });

  it('starts under the application role with nothing to migrate, and appends and reads the log', async () => {
    expect(asOwner.migrations.applied.length).toBeGreaterThan(0);
    expect(asApp.migrations.applied).toEqual([]);
    await asApp.query(`INSERT INTO operator_audit (actor, action, target) VALUES ('operator-token', 'test.append', 'x')`);
    expect(await asApp.query('SELECT action FROM operator_audit')).toEqual([{ action: 'test.append' }]);
  });

  it('refuses the application role UPDATE, DELETE and TRUNCATE of the log by privilege', async () => {
    for (const sql of [`UPDATE operator_audit SET actor = 'someone'`, 'DELETE FROM operator_audit', 'TRUNCATE operator_audit']) {
      await expect(asApp.query(sql), sql).rejects.toThrow(/permission denied/);
    }
  });

  it('refuses even the owner by trigger', async () => {
    for (const sql of [`UPDATE operator_audit SET actor = 'someone'`, 'DELETE FROM operator_audit', 'TRUNCATE operator_audit']) {
      await expect(asOwner.query(sql), sql).rejects.toThrow(/append-only/);
    }
    expect((await asOwner.query<{ n: number }>('SELECT count(*)::int AS n FROM operator_audit'))[0]!.n).toBe(1);
  });
});
