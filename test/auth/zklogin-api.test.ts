// zkLogin over the real API (startApi → createRuntime) on real HTTP: POST /api/auth/zklogin, the
// collected identities under /api/auth/zklogin/identities and GraphQL, against a real OpenID
// provider and the Enoki-format salt service fixture on loopback.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZkLoginDocument, ZkLoginIdentitiesDocument } from '../../src/generated/graphql';
import { startApi, type TestApi } from '../helpers/api';
import { gql } from '../helpers/client';
import { emailOf } from '../fixtures/oidc-provider';
import { FOREIGN_CLIENT, MOBILE_CLIENT, startZkLoginWorld, WEB_CLIENT, type ZkLoginWorld } from '../fixtures/zklogin-world';

interface ErrorBody {
  error: { code: string; message: string; details?: Record<string, unknown> };
}

describe('zkLogin over HTTP (REST and GraphQL)', () => {
  let world: ZkLoginWorld;
  let api: TestApi;
  const subjects: string[] = [];
  /** Every response body this suite received, to prove no salt or key is ever sent. */
  const received: string[] = [];
  const newSubject = () => {
    const s = `user-${randomUUID()}`;
    subjects.push(s);
    return s;
  };

  async function call(path: string, init: { method?: string; body?: unknown; token?: string } = {}) {
    const res = await fetch(`${api.url}${path}`, {
      method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
      headers: { ...(init.body === undefined ? {} : { 'content-type': 'application/json' }), ...(init.token ? { authorization: `Bearer ${init.token}` } : {}) },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
    const text = await res.text();
    received.push(text);
    return { status: res.status, body: text ? JSON.parse(text) : null };
  }
  const zkLogin = (idToken: string) => call('/api/auth/zklogin', { body: { idToken } });
  const written = async () => ({ accounts: await api.db.prisma.zkLoginAccount.count(), refreshTokens: await api.db.prisma.refreshToken.count() });

  beforeAll(async () => {
    world = await startZkLoginWorld();
    api = await startApi({ env: world.env });
  });
  afterAll(async () => {
    await api?.close();
    await world?.close();
  });

  it('logs in with an ID token, and the wallet then reads its collected identity over REST and GraphQL', async () => {
    const sub = newSubject();
    const { status, body } = await zkLogin(await world.idp.issueIdToken({ clientId: WEB_CLIENT, subject: sub }));
    expect(status).toBe(200);
    expect(body).toEqual({ accessToken: expect.any(String), refreshToken: expect.any(String), tokenType: 'Bearer', expiresIn: expect.any(Number), address: world.addressOf(sub) });
    expect(await api.db.prisma.zkLoginAccount.count({ where: { subject: sub } })).toBe(1);

    const identity = { issuer: world.idp.issuer, audience: WEB_CLIENT, subject: sub, email: emailOf(sub) };
    const rest = await call('/api/auth/zklogin/identities', { token: body.accessToken });
    expect(rest.status).toBe(200);
    expect(rest.body.identities).toEqual([{ ...identity, createdAt: expect.any(String), lastLoginAt: expect.any(String) }]);

    const graphql = await gql(api.url, ZkLoginIdentitiesDocument, {}, { authorization: `Bearer ${body.accessToken}` });
    received.push(JSON.stringify(graphql.body));
    expect(graphql.body.errors).toBeUndefined();
    expect(graphql.body.data?.zkLoginIdentities).toEqual([{ ...identity, createdAt: expect.any(String), lastLoginAt: expect.any(String) }]);
  });

  it('logs in through the GraphQL zkLogin mutation with the same result', async () => {
    const sub = newSubject();
    const { body } = await gql(api.url, ZkLoginDocument, { idToken: await world.idp.issueIdToken({ clientId: MOBILE_CLIENT, subject: sub }) });
    received.push(JSON.stringify(body));
    expect(body.errors).toBeUndefined();
    expect(body.data?.zkLogin).toMatchObject({ tokenType: 'Bearer', address: world.addressOf(sub, MOBILE_CLIENT) });
  });

  it('10 parallel first logins of one identity: all succeed with one address and one account row', async () => {
    const sub = newSubject();
    const tokens = await Promise.all(Array.from({ length: 10 }, () => world.idp.issueIdToken({ clientId: WEB_CLIENT, subject: sub })));
    const answers = await Promise.all(tokens.map(zkLogin));
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200));
    expect(new Set(answers.map((a) => a.body.address))).toEqual(new Set([world.addressOf(sub)]));
    expect(await api.db.prisma.zkLoginAccount.count({ where: { subject: sub } })).toBe(1);
  });

  it.each([
    ['wrong audience', 'wrong_audience', () => world.idp.issueIdToken({ clientId: FOREIGN_CLIENT, subject: newSubject() })],
    ['wrong issuer', 'wrong_issuer', () => world.otherIssuer.issueIdToken({ clientId: WEB_CLIENT, subject: newSubject() })],
    ['unknown key', 'unknown_key', () => world.unknownKey.issueIdToken({ clientId: WEB_CLIENT, subject: newSubject() })],
    ['missing nonce', 'missing_nonce', () => world.idp.issueIdToken({ clientId: WEB_CLIENT, subject: newSubject(), nonce: null })],
  ])('refuses a token with the %s (401 ID_TOKEN_INVALID, %s) over REST and GraphQL, writing nothing', async (_name, reason, issue) => {
    const idToken = await issue();
    const before = await written();
    const rest = await zkLogin(idToken);
    expect(rest.status).toBe(401);
    expect((rest.body as ErrorBody).error).toMatchObject({ code: 'ID_TOKEN_INVALID', details: { reason } });
    const graphql = await gql(api.url, ZkLoginDocument, { idToken });
    expect(graphql.body.data).toBeNull();
    expect(graphql.body.errors?.[0].extensions).toMatchObject({ code: 'ID_TOKEN_INVALID', details: { reason } });
    expect(await written()).toEqual(before);
  });

  it('answers 502 UPSTREAM_UNAVAILABLE while the zkLogin service is down, writing nothing', async () => {
    const idToken = await world.idp.issueIdToken({ clientId: WEB_CLIENT, subject: newSubject() });
    const before = await written();
    world.salts.failWith(503);
    try {
      const rest = await zkLogin(idToken);
      expect(rest.status).toBe(502);
      expect((rest.body as ErrorBody).error.code).toBe('UPSTREAM_UNAVAILABLE');
      const graphql = await gql(api.url, ZkLoginDocument, { idToken });
      expect(graphql.body.errors?.[0].extensions?.code).toBe('UPSTREAM_UNAVAILABLE');
    } finally {
      world.salts.failWith(null);
    }
    expect(await written()).toEqual(before);
    expect((await zkLogin(idToken)).status).toBe(200);
  });

  it('needs an access token to read identities', async () => {
    const rest = await call('/api/auth/zklogin/identities');
    expect(rest.status).toBe(401);
    expect((rest.body as ErrorBody).error.code).toBe('UNAUTHENTICATED');
    const graphql = await gql(api.url, ZkLoginIdentitiesDocument, {});
    expect(graphql.body.errors?.[0].extensions?.code).toBe('UNAUTHENTICATED');
  });

  it('documents the identities route in the OpenAPI document', async () => {
    const doc = (await (await fetch(`${api.url}/api/openapi.json`)).json()) as { paths: Record<string, Record<string, { operationId?: string }>> };
    expect(doc.paths['/api/auth/zklogin/identities']?.get?.operationId).toBe('authZkLoginIdentities');
  });

  it('never sends or logs a salt or the zkLogin service key', () => {
    const salts = subjects.flatMap((sub) => [WEB_CLIENT, MOBILE_CLIENT].map((aud) => world.salts.saltFor(world.idp.issuer, sub, aud)));
    expect(api.logs.lines.some((l) => l.msg === 'zkLogin account resolved')).toBe(true);
    for (const text of [received.join('\n'), api.logs.raw.join('\n')]) {
      expect(text).not.toContain(world.salts.key);
      for (const salt of salts) expect(text).not.toContain(salt);
    }
  });
});
