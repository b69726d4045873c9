import { tmpdir } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, type Db } from '../../src/db/client';
import { startApi, type TestApi } from '../helpers/api';
import { loginWithKeypair, postJson } from '../helpers/auth';
import { createTestDb, testLogger, type TestDb } from '../helpers/db';
import { needsService } from '../helpers/env';

const LOGINS = 50;

// Two replicas: each API has its own connection pool on one PostgreSQL database.
describe.runIf(needsService('DATABASE_URL'))('logout racing a refresh across two replicas', () => {
  let shared: TestDb;
  let secondPool: Db;
  let a: TestApi;
  let b: TestApi;

  beforeAll(async () => {
    shared = await createTestDb();
    secondPool = await createDb({ databaseUrl: shared.url!, dataDir: tmpdir(), logger: testLogger, poolMax: 5 });
    a = await startApi({ db: shared.db });
    b = await startApi({ db: secondPool });
  });
  afterAll(async () => {
    await Promise.all([a?.close(), b?.close()]);
    await secondPool?.close();
    await shared?.cleanup();
  });

  it(`after ${LOGINS} raced logouts no refresh token of those logins is accepted, and a losing refresh says INVALID, not REUSED`, async () => {
    const sessions = await Promise.all(Array.from({ length: LOGINS }, () => loginWithKeypair(a.url)));
    const raced = await Promise.all(
      sessions.map(async (s) => {
        const [logout, refresh] = await Promise.all([
          postJson(`${a.url}/api/auth/logout`, { refreshToken: s.refreshToken }, { authorization: `Bearer ${s.accessToken}` }),
          postJson(`${b.url}/api/auth/refresh`, { refreshToken: s.refreshToken }),
        ]);
        return { s, logout, refresh };
      }),
    );
    for (const { logout, refresh } of raced) {
      expect(logout.status).toBe(204);
      if (refresh.status !== 200) expect(refresh.body?.error?.code).toBe('REFRESH_TOKEN_INVALID');
    }
    const leftovers = raced.flatMap(({ s, refresh }) => [s.refreshToken, ...(refresh.body?.refreshToken ? [refresh.body.refreshToken] : [])]);
    const afterwards = await Promise.all(leftovers.map((token, i) => postJson(`${(i % 2 ? a : b).url}/api/auth/refresh`, { refreshToken: token })));
    expect(afterwards.map((r) => r.status)).toEqual(leftovers.map(() => 401));
    const families = await shared.prisma.refreshToken.count({ where: { subject: { in: sessions.map((s) => s.address) }, revokedAt: null } });
    expect(families).toBe(0);
  }, 120_000);
});
