import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi, type TestApi } from '../helpers/api';
import { codesOf, openGraphqlWs, postGraphql, wsCodes } from '../helpers/graphql-wire';
import { connectSocket, emitAck } from './gateway-helpers';

/**
 * The edge (src/edge/caller.ts, authorize.ts) over the real transports: a refused token carries the
 * same code on HTTP (REST and GraphQL), graphql-ws and Socket.IO, and one access rule decides who
 * may call a REST route, a GraphQL operation or a Socket.IO event.
 */
describe('the edge on every transport', () => {
  const OPERATOR_TOKEN = 'operator-token-for-the-edge-auth-test-0123456789';
  const wallet = '0x' + 'e1'.repeat(32);
  let api: TestApi;

  beforeAll(async () => {
    api = await startApi({ env: { OPERATOR_TOKEN } });
  });
  afterAll(async () => api?.close());

  const rest = async (path: string, authorization?: string) => {
    const res = await fetch(`${api.url}${path}`, { headers: authorization ? { authorization } : {} });
    return { status: res.status, body: (await res.json()) as unknown };
  };
  const graphql = (query: string, authorization?: string) => postGraphql(api.url, { query }, { 'content-type': 'application/json', ...(authorization ? { authorization } : {}) });
  const socketRefusal = (token: string) => connectSocket(api.url, { token }).then(
    (socket) => {
      socket.close();
      return 'connected';
    },
    (err: { data?: { code?: string } }) => err.data?.code,
  );

  it.each([
    ['a forged token', () => 'not.a.jwt', 'TOKEN_INVALID'],
    ['a token signed with another secret', () => api.services.tokens.signAccess(wallet).replace(/\.[^.]+$/, '.c2lnbmF0dXJl'), 'TOKEN_INVALID'],
    ['an expired token', () => api.services.tokens.signAccess(wallet, -10), 'TOKEN_EXPIRED'],
  ])('refuses %s with the same code on REST, GraphQL over HTTP, graphql-ws and Socket.IO', async (_name, tokenOf, code) => {
    const token = tokenOf();
    for (const path of ['/api/users/me', '/api/health']) {
      const answer = await rest(path, `Bearer ${token}`);
      expect(answer.status, path).toBe(401);
      expect(codesOf(answer.body), path).toEqual([code]);
    }
    const overHttp = await graphql('{ serverStatus { status } }', `Bearer ${token}`);
    expect(overHttp.status).toBe(401);
    expect(codesOf(overHttp.body)).toEqual([code]);

    const ws = await openGraphqlWs(api.wsUrl, { authorization: `Bearer ${token}` });
    expect(ws.acknowledged).toBe(false);
    expect(ws.closed).toEqual({ code: 4403, reason: code });

    // the handshake takes the raw token or the whole `Bearer …` value
    expect(await socketRefusal(token)).toBe(code);
    expect(await socketRefusal(`Bearer ${token}`)).toBe(code);
  });

  it('refuses a credential that is not a bearer token the same way on every transport', async () => {
    expect(codesOf((await rest('/api/users/me', 'Basic dXNlcjpwdw==')).body)).toEqual(['TOKEN_INVALID']);
    for (const authorization of ['Basic dXNlcjpwdw==', 42]) {
      const ws = await openGraphqlWs(api.wsUrl, { authorization });
      expect(ws.closed, String(authorization)).toEqual({ code: 4403, reason: 'TOKEN_INVALID' });
    }
    const socket = await connectSocket(api.url, { token: 'x' }).catch((err: { data?: { code?: string } }) => err.data?.code);
    expect(socket).toBe('TOKEN_INVALID');
  });

  it('asks a wallet of anonymous callers (UNAUTHENTICATED) and serves a verified one, on every transport', async () => {
    const token = api.services.tokens.signAccess(wallet);
    expect(await rest('/api/users/me')).toMatchObject({ status: 401, body: { error: { code: 'UNAUTHENTICATED' } } });
    expect(await rest('/api/users/me', `Bearer ${token}`)).toMatchObject({ status: 200, body: { walletAddress: wallet } });
    expect(codesOf((await graphql('{ me { walletAddress } }')).body)).toEqual(['UNAUTHENTICATED']);
    expect((await graphql('{ me { walletAddress } }', `Bearer ${token}`)).body).toEqual({ data: { me: { walletAddress: wallet } } });

    const anonymousWs = await openGraphqlWs(api.wsUrl);
    const walletWs = await openGraphqlWs(api.wsUrl, { authorization: `Bearer ${token}` });
    try {
      expect(wsCodes(await anonymousWs.run({ query: '{ me { walletAddress } }' }))).toEqual(['UNAUTHENTICATED']);
      expect(await walletWs.run({ query: '{ me { walletAddress } }' })).toEqual({ result: { data: { me: { walletAddress: wallet } } } });
    } finally {
      await anonymousWs.close();
      await walletWs.close();
    }

    const anonymous = await connectSocket(api.url);
    try {
      expect(await emitAck(anonymous, 'typing', { room: 'global' })).toMatchObject({ ok: false, error: { code: 'UNAUTHENTICATED', message: expect.stringContaining('access token') } });
    } finally {
      anonymous.close();
    }
  });

  it('admits the operator token to operator-only operations and nobody else, on REST, GraphQL over HTTP and graphql-ws', async () => {
    const operator = `Bearer ${OPERATOR_TOKEN}`;
    const walletToken = `Bearer ${api.services.tokens.signAccess(wallet)}`;
    expect((await rest('/api/stats/cache', operator)).status).toBe(200);
    expect(await rest('/api/stats/cache')).toMatchObject({ status: 401, body: { error: { code: 'UNAUTHENTICATED', message: expect.stringContaining('OPERATOR_TOKEN') } } });
    expect(codesOf((await graphql('{ jobs { key } }')).body)).toEqual(['UNAUTHENTICATED']);
    // a wallet without the operator role is known but not allowed
    expect(await rest('/api/stats/cache', walletToken)).toMatchObject({ status: 403, body: { error: { code: 'FORBIDDEN' } } });
    expect(codesOf((await graphql('{ jobs { key } }', walletToken)).body)).toEqual(['FORBIDDEN']);
    expect((await graphql('{ jobs { key } }', operator)).body.errors).toBeUndefined();
    // the operator is no wallet
    expect(codesOf((await graphql('{ me { walletAddress } }', operator)).body)).toEqual(['UNAUTHENTICATED']);

    const operatorWs = await openGraphqlWs(api.wsUrl, { authorization: operator });
    const walletWs = await openGraphqlWs(api.wsUrl, { authorization: walletToken });
    try {
      expect(await operatorWs.run({ query: '{ jobs { key } }' })).toMatchObject({ result: { data: { jobs: expect.any(Array) } } });
      expect(wsCodes(await walletWs.run({ query: '{ jobs { key } }' }))).toEqual(['FORBIDDEN']);
    } finally {
      await operatorWs.close();
      await walletWs.close();
    }
  });
});
