/**
 * Operators are wallets: OPERATOR_WALLETS names the first ones, who grant and revoke the role of
 * others through /api/admin/operators (and GraphQL). Every admin route answers 401 without a
 * token, 403 for a wallet without the role and at once after revocation (the token still valid),
 * VALIDATION_FAILED with field details, and each action leaves one audit row. OPERATOR_TOKEN still works.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GrantOperatorDocument, OperatorAuditDocument, OperatorsDocument, RevokeOperatorDocument } from '../../src/generated/graphql';
import { startApi, type TestApi } from '../helpers/api';
import { gql } from '../helpers/client';
import { until } from '../helpers/until';
import { needsService } from '../helpers/env';

const FIRST = `0x${randomBytes(32).toString('hex')}`;
const STORE_PREFIX = `operators-${randomBytes(4).toString('hex')}`;
const OPERATOR_TOKEN = randomBytes(24).toString('hex');
let api: TestApi;

beforeAll(async () => {
  api = await startApi({ storePrefix: STORE_PREFIX, env: { OPERATOR_WALLETS: FIRST, OPERATOR_TOKEN } });
}, 60_000);
afterAll(async () => api?.close());

const newWallet = (): string => `0x${randomBytes(32).toString('hex')}`;
const bearer = (wallet: string) => ({ authorization: `Bearer ${api.services.tokens.signAccess(wallet)}` });

async function call(method: string, path: string, headers: Record<string, string> = {}, body?: unknown) {
  const res = await fetch(`${api.url}${path}`, {
    method,
    headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- answers of several shapes, read field by field
  return { status: res.status, body: (await res.json()) as Record<string, any> };
}

const auditRows = (action: string, target: string) => api.db.prisma.operatorAudit.findMany({ where: { action, target } });

describe('operator wallets', () => {
  it('refuses every admin route without a token (401) and for a wallet without the role (403)', async () => {
    const player = bearer(newWallet());
    for (const [method, path, body] of [
      ['GET', '/api/admin/operators'],
      ['POST', '/api/admin/operators', { wallet: newWallet() }],
      ['DELETE', `/api/admin/operators/${newWallet()}`],
      ['GET', '/api/admin/audit'],
    ] as const) {
      const anonymous = await call(method, path, {}, body);
      expect(anonymous.status, `${method} ${path}`).toBe(401);
      expect(anonymous.body.error.code).toBe('UNAUTHENTICATED');
      const stranger = await call(method, path, player, body);
      expect(stranger.status, `${method} ${path}`).toBe(403);
      expect(stranger.body.error.code).toBe('FORBIDDEN');
    }
    const viaGraphql = await gql(api.url, OperatorsDocument, {}, player);
    expect(viaGraphql.body.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
  });

  it('lets the wallet named by OPERATOR_WALLETS grant the role, and the grantee act at once', async () => {
    const grantee = newWallet();
    const granted = await call('POST', '/api/admin/operators', bearer(FIRST), { wallet: grantee.toUpperCase().replace('0X', '0x') });
    expect(granted.status).toBe(200);
    expect(granted.body).toMatchObject({ wallet: grantee, source: 'grant', grantedBy: FIRST });
    const list = await call('GET', '/api/admin/operators', bearer(grantee));
    expect(list.status).toBe(200);
    expect(list.body.operators).toEqual(expect.arrayContaining([expect.objectContaining({ wallet: FIRST, source: 'setting' }), expect.objectContaining({ wallet: grantee, source: 'grant' })]));
    const rows = await auditRows('operators.grant', grantee);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ actor: FIRST, before: null });
    expect(rows[0].after).toMatchObject({ walletAddress: grantee, grantedBy: FIRST });
  });

  it('refuses a revoked operator on its next request, though its token is still valid', async () => {
    const grantee = newWallet();
    expect((await gql(api.url, GrantOperatorDocument, { wallet: grantee }, bearer(FIRST))).body.data?.grantOperator.wallet).toBe(grantee);
    const headers = bearer(grantee);
    expect((await call('GET', '/api/admin/audit', headers)).status).toBe(200);
    const revoked = await gql(api.url, RevokeOperatorDocument, { wallet: grantee }, bearer(FIRST));
    expect(revoked.body.data?.revokeOperator).toEqual({ wallet: grantee, revoked: true });
    const after = await call('GET', '/api/admin/audit', headers);
    expect(after.status).toBe(403);
    expect(after.body.error.code).toBe('FORBIDDEN');
    expect(await auditRows('operators.revoke', grantee)).toHaveLength(1);
    const again = await call('DELETE', `/api/admin/operators/${grantee}`, bearer(FIRST));
    expect(again.status).toBe(404);
  });

  it('refuses revoking a wallet of OPERATOR_WALLETS (it is removed in the setting) and bad input with field details', async () => {
    const conflict = await call('DELETE', `/api/admin/operators/${FIRST}`, bearer(FIRST));
    expect(conflict.status).toBe(409);
    expect(conflict.body.error.code).toBe('CONFLICT');
    const bad = await call('POST', '/api/admin/operators', bearer(FIRST), { wallet: 'alice' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('VALIDATION_FAILED');
    expect(bad.body.error.details.issues).toEqual([expect.objectContaining({ path: '/wallet' })]);
    const badCursor = await call('GET', '/api/admin/audit?cursor=x', bearer(FIRST));
    expect(badCursor.status).toBe(400);
  });

  it('still admits OPERATOR_TOKEN (automation), audited as operator-token', async () => {
    const grantee = newWallet();
    const granted = await call('POST', '/api/admin/operators', { authorization: `Bearer ${OPERATOR_TOKEN}` }, { wallet: grantee });
    expect(granted.status).toBe(200);
    expect((await auditRows('operators.grant', grantee))[0]?.actor).toBe('operator-token');
  });

  it('pages the audit log newest first, and the log refuses changes (append-only)', async () => {
    for (let i = 0; i < 3; i++) await call('POST', '/api/admin/operators', bearer(FIRST), { wallet: newWallet() });
    const first = await gql(api.url, OperatorAuditDocument, { limit: 2 }, bearer(FIRST));
    const page = first.body.data!.operatorAudit;
    expect(page.items).toHaveLength(2);
    expect(Number(page.items[0].id)).toBeGreaterThan(Number(page.items[1].id));
    const next = await call('GET', `/api/admin/audit?limit=2&cursor=${page.nextCursor}`, bearer(FIRST));
    expect(Number(next.body.items[0].id)).toBeLessThan(Number(page.items[1].id));
    await expect(api.db.query('UPDATE operator_audit SET actor = $1', ['someone'])).rejects.toThrow(/append-only/);
    await expect(api.db.query('DELETE FROM operator_audit')).rejects.toThrow(/append-only/);
  });

  // Replicas share a store only through Redis (the embedded store is per process).
  it.runIf(needsService('SHARED_STORE_URL'))('revokes on every replica: a replica sharing the database and store refuses the revoked wallet', async () => {
    const replica = await startApi({ db: api.db, storePrefix: STORE_PREFIX, env: { OPERATOR_WALLETS: FIRST } });
    try {
      const grantee = newWallet();
      await call('POST', '/api/admin/operators', bearer(FIRST), { wallet: grantee });
      const onReplica = () => fetch(`${replica.url}/api/admin/audit`, { headers: { authorization: `Bearer ${replica.services.tokens.signAccess(grantee)}` } }).then((r) => r.status);
      await until(async () => (await onReplica()) === 200, 'the grant on the replica');
      await call('DELETE', `/api/admin/operators/${grantee}`, bearer(FIRST));
      await until(async () => (await onReplica()) === 403, 'the revocation on the replica');
    } finally {
      await replica.close();
    }
  });
});
