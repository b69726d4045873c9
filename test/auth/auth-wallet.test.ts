import { createHmac } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { Ed25519Keypair } from '@mysten/sui/keypairs/ed25519';
import { Secp256k1Keypair } from '@mysten/sui/keypairs/secp256k1';
import { Secp256r1Keypair } from '@mysten/sui/keypairs/secp256r1';
import { MultiSigPublicKey } from '@mysten/sui/multisig';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuthChallengeDocument, LoginDocument, LogoutDocument, MeDocument, RefreshTokensDocument } from '../../src/generated/graphql';
import { startApi, type TestApi } from '../helpers/api';
import { loginWithKeypair, postJson } from '../helpers/auth';
import { gql, wsClient, wsQuery } from '../helpers/client';

let api: TestApi;
const encode = (text: string) => new TextEncoder().encode(text);

/** Rows that a refused login or refresh must not add. */
async function counts() {
  const [challenges, consumed, refresh, profiles] = await Promise.all([
    api.db.prisma.loginChallenge.count(),
    api.db.prisma.loginChallenge.count({ where: { consumedAt: { not: null } } }),
    api.db.prisma.refreshToken.count(),
    api.db.prisma.profile.count(),
  ]);
  return { challenges, consumed, refresh, profiles };
}

async function challengeFor(address: string): Promise<string> {
  const res = await postJson(`${api.url}/api/auth/challenge`, { address });
  expect(res.status).toBe(200);
  return res.body!.message!;
}

const getJson = async (path: string, headers: Record<string, string> = {}) => {
  const res = await fetch(`${api.url}${path}`, { headers });
  return { status: res.status, body: (await res.json()) as { error?: { code: string }; walletAddress?: string } };
};

beforeAll(async () => {
  api = await startApi({ env: { 'AUTH.DOMAIN': 'play.example', APP_URL: 'https://play.example' } });
});
afterAll(async () => api?.close());

describe('wallet login over real HTTP', () => {
  it('challenge → sign → login → authenticated calls → refresh → logout; spent and reused refresh tokens are refused', async () => {
    const keypair = new Ed25519Keypair();
    const address = keypair.toSuiAddress();
    const challenge = await postJson(`${api.url}/api/auth/challenge`, { address });
    expect(challenge.status).toBe(200);
    const message = challenge.body!.message!;
    expect(message).toContain('play.example wants you to sign in with your Sui account:');
    expect(message).toContain(address);
    expect(message).toContain(`Nonce: ${challenge.body!.nonce}`);
    expect(message).toContain(`Expiration Time: ${challenge.body!.expiresAt}`);
    expect(Date.parse(challenge.body!.expiresAt!) - Date.now()).toBeGreaterThan(290_000);
    expect(Date.parse(challenge.body!.expiresAt!) - Date.now()).toBeLessThanOrEqual(300_000);

    const { signature } = await keypair.signPersonalMessage(encode(message));
    const login = await postJson(`${api.url}/api/auth/login`, { address, message, signature });
    expect(login.status).toBe(200);
    expect(login.body).toMatchObject({ tokenType: 'Bearer', expiresIn: 900 });
    const first = login.body!;
    expect(jwt.decode(first.accessToken!)).toMatchObject({ sub: address, typ: 'access' });
    expect(await api.db.prisma.profile.count({ where: { walletAddress: address } })).toBe(1);

    // The access token identifies the wallet over GraphQL (HTTP and websocket) and REST.
    const bearer = { authorization: `Bearer ${first.accessToken}` };
    const me = await gql(api.url, MeDocument, {}, bearer);
    expect(me.body.errors).toBeUndefined();
    expect(me.body.data!.me.walletAddress).toBe(address);
    const restMe = await getJson('/api/users/me', bearer);
    expect(restMe.status).toBe(200);
    expect(restMe.body).toMatchObject({ walletAddress: address });
    expect((await getJson('/api/users/me')).body.error?.code).toBe('UNAUTHENTICATED');
    const ws = wsClient(api.wsUrl, bearer);
    try {
      expect((await wsQuery(ws, MeDocument)).data?.me.walletAddress).toBe(address);
    } finally {
      await ws.dispose();
    }

    const refreshed = await postJson(`${api.url}/api/auth/refresh`, { refreshToken: first.refreshToken });
    expect(refreshed.status).toBe(200);
    const second = refreshed.body!;
    expect(second.refreshToken).not.toBe(first.refreshToken);

    const logout = await fetch(`${api.url}/api/auth/logout`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${second.accessToken}` },
      body: JSON.stringify({ refreshToken: second.refreshToken }),
    });
    expect(logout.status).toBe(204);

    const afterLogout = await postJson(`${api.url}/api/auth/refresh`, { refreshToken: second.refreshToken });
    expect(afterLogout.status).toBe(401);
    expect(afterLogout.body!.error!.code).toBe('REFRESH_TOKEN_INVALID');
    const spent = await postJson(`${api.url}/api/auth/refresh`, { refreshToken: first.refreshToken });
    expect(spent.status).toBe(401);
    expect(spent.body!.error!.code).toBe('REFRESH_TOKEN_INVALID');
  });

  it('reusing a rotated refresh token revokes the whole family, the newest token included', async () => {
    const session = await loginWithKeypair(api.url);
    const rotated = await postJson(`${api.url}/api/auth/refresh`, { refreshToken: session.refreshToken });
    expect(rotated.status).toBe(200);
    const reuse = await postJson(`${api.url}/api/auth/refresh`, { refreshToken: session.refreshToken });
    expect(reuse.status).toBe(401);
    expect(reuse.body!.error!.code).toBe('REFRESH_TOKEN_REUSED');
    const newest = await postJson(`${api.url}/api/auth/refresh`, { refreshToken: rotated.body!.refreshToken });
    expect(newest.status).toBe(401);
    expect(newest.body!.error!.code).toBe('REFRESH_TOKEN_INVALID');
    const family = await api.db.prisma.refreshToken.findMany({ where: { subject: session.address } });
    expect(family).toHaveLength(2);
    expect(family.every((t) => t.revokedAt !== null)).toBe(true);
  });

  it('logs in with every key scheme a Sui wallet uses: Secp256k1, Secp256r1 and a 2-of-3 multisig', async () => {
    for (const keypair of [new Secp256k1Keypair(), new Secp256r1Keypair()]) {
      const session = await loginWithKeypair(api.url, keypair);
      expect(jwt.decode(session.accessToken)).toMatchObject({ sub: keypair.toSuiAddress() });
    }
    const signers = [new Ed25519Keypair(), new Secp256k1Keypair(), new Secp256r1Keypair()];
    const multisig = MultiSigPublicKey.fromPublicKeys({ threshold: 2, publicKeys: signers.map((k) => ({ publicKey: k.getPublicKey(), weight: 1 })) });
    const address = multisig.toSuiAddress();
    const message = await challengeFor(address);
    const partial = await Promise.all(signers.slice(0, 2).map(async (k) => (await k.signPersonalMessage(encode(message))).signature));
    const login = await postJson(`${api.url}/api/auth/login`, { address, message, signature: multisig.combinePartialSignatures(partial) });
    expect(login.status).toBe(200);
    // One signature is under the threshold.
    const message2 = await challengeFor(address);
    const one = (await signers[0].signPersonalMessage(encode(message2))).signature;
    const under = await postJson(`${api.url}/api/auth/login`, { address, message: message2, signature: multisig.combinePartialSignatures([one]) });
    expect(under.status).toBe(401);
    expect(under.body!.error!.code).toBe('SIGNATURE_INVALID');
  });

  it('the same flow over GraphQL with the typed client', async () => {
    const keypair = new Secp256k1Keypair();
    const address = keypair.toSuiAddress();
    const challenge = await gql(api.url, AuthChallengeDocument, { address });
    const message = challenge.body.data!.authChallenge.message;
    const { signature } = await keypair.signPersonalMessage(encode(message));
    const login = await gql(api.url, LoginDocument, { address, message, signature });
    expect(login.body.errors).toBeUndefined();
    const tokens = login.body.data!.login;
    const refreshed = await gql(api.url, RefreshTokensDocument, { refreshToken: tokens.refreshToken });
    expect(refreshed.body.errors).toBeUndefined();
    const next = refreshed.body.data!.refreshTokens;
    const anonymousLogout = await gql(api.url, LogoutDocument, { refreshToken: next.refreshToken });
    expect(anonymousLogout.body.errors![0].extensions!.code).toBe('UNAUTHENTICATED');
    const logout = await gql(api.url, LogoutDocument, { refreshToken: next.refreshToken }, { authorization: `Bearer ${next.accessToken}` });
    expect(logout.body.data!.logout).toBe(true);
    const reuse = await gql(api.url, RefreshTokensDocument, { refreshToken: tokens.refreshToken });
    expect(reuse.body.data).toBeNull();
    expect(reuse.body.errors![0].extensions!.code).toBe('REFRESH_TOKEN_INVALID');
  });
});

describe('refusals write nothing', () => {
  it('a replayed signature, a changed message, a signature over another message, another key, an expired challenge', async () => {
    const keypair = new Ed25519Keypair();
    const address = keypair.toSuiAddress();
    const message = await challengeFor(address);
    const { signature } = await keypair.signPersonalMessage(encode(message));
    expect((await postJson(`${api.url}/api/auth/login`, { address, message, signature })).status).toBe(200);

    const before = await counts();
    const refuse = async (body: Record<string, unknown>, code: string) => {
      const res = await postJson(`${api.url}/api/auth/login`, body);
      expect(res.body!.error!.code, JSON.stringify(res.body)).toBe(code);
      expect(res.status).toBe(code === 'VALIDATION_FAILED' ? 400 : 401);
    };
    await refuse({ address, message, signature }, 'CHALLENGE_INVALID'); // replay

    const fresh = await challengeFor(address);
    const afterChallenge = await counts();
    const oneByteOff = fresh.replace('Sign in to', 'Sign in tO');
    await refuse({ address, message: oneByteOff, signature: (await keypair.signPersonalMessage(encode(oneByteOff))).signature }, 'CHALLENGE_INVALID');
    await refuse({ address, message: fresh, signature: (await keypair.signPersonalMessage(encode(`${fresh} `))).signature }, 'SIGNATURE_INVALID');
    await refuse({ address, message: fresh, signature: (await new Ed25519Keypair().signPersonalMessage(encode(fresh))).signature }, 'SIGNATURE_INVALID');
    const other = new Ed25519Keypair();
    await refuse({ address: other.toSuiAddress(), message: fresh, signature: (await other.signPersonalMessage(encode(fresh))).signature }, 'CHALLENGE_INVALID');
    await refuse({ address, message: fresh, signature: 'not base64!' }, 'VALIDATION_FAILED');
    await refuse({ address: 'alice', message: fresh, signature }, 'VALIDATION_FAILED');
    expect(await counts()).toEqual(afterChallenge);
    expect(afterChallenge.refresh).toBe(before.refresh);

    // Time passes: the challenge is now past its expiry.
    await api.db.prisma.loginChallenge.updateMany({ where: { message: fresh }, data: { expiresAt: new Date(Date.now() - 1000) } });
    await refuse({ address, message: fresh, signature: (await keypair.signPersonalMessage(encode(fresh))).signature }, 'CHALLENGE_EXPIRED');
    expect(await counts()).toEqual(afterChallenge);
  });

  it('refuses alg none, a wrong secret, an expired token and a tampered payload with clear codes', async () => {
    const session = await loginWithKeypair(api.url);
    const { secret, issuer } = api.config.jwt;
    const [header, payload, sig] = session.accessToken.split('.');
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>;
    const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
    const tampered = `${header}.${b64({ ...claims, sub: new Ed25519Keypair().toSuiAddress() })}.${sig}`;
    const algNone = `${b64({ alg: 'none', typ: 'JWT' })}.${b64(claims)}.`;
    const hs = (body: string) => createHmac('sha256', 'a-wrong-secret-of-enough-length-0123456789').update(body).digest('base64url');
    const wrongSecret = `${header}.${payload}.${hs(`${header}.${payload}`)}`;
    const expired = jwt.sign({ typ: 'access' }, secret, { algorithm: 'HS256', subject: session.address, issuer, expiresIn: -10 });
    const cases: Array<[string, string]> = [
      [algNone, 'TOKEN_INVALID'],
      [wrongSecret, 'TOKEN_INVALID'],
      [tampered, 'TOKEN_INVALID'],
      [expired, 'TOKEN_EXPIRED'],
    ];
    const before = await counts();
    for (const [token, code] of cases) {
      const rest = await postJson(`${api.url}/api/auth/logout`, { refreshToken: session.refreshToken }, { authorization: `Bearer ${token}` });
      expect(rest.status).toBe(401);
      expect(rest.body!.error!.code).toBe(code);
      const graphql = await gql(api.url, LogoutDocument, { refreshToken: session.refreshToken }, { authorization: `Bearer ${token}` });
      expect(graphql.status).toBe(401);
      expect(graphql.body.errors?.[0]?.extensions?.code ?? (graphql.body as { error?: { code: string } }).error?.code).toBe(code);
      const publicRead = await getJson('/api/health', { authorization: `Bearer ${token}` });
      expect(publicRead.body.error?.code).toBe(code);
    }
    expect(await counts()).toEqual(before);
    // The session is untouched: its refresh token still works.
    expect((await postJson(`${api.url}/api/auth/refresh`, { refreshToken: session.refreshToken })).status).toBe(200);
  });

  it('logout with someone else’s refresh token is refused and revokes nothing', async () => {
    const alice = await loginWithKeypair(api.url);
    const bob = await loginWithKeypair(api.url);
    const res = await postJson(`${api.url}/api/auth/logout`, { refreshToken: bob.refreshToken }, { authorization: `Bearer ${alice.accessToken}` });
    expect(res.status).toBe(401);
    expect(res.body!.error!.code).toBe('REFRESH_TOKEN_INVALID');
    expect((await postJson(`${api.url}/api/auth/refresh`, { refreshToken: bob.refreshToken })).status).toBe(200);
  });
});

describe('concurrency', () => {
  it('100 parallel logins with one challenge give exactly one token pair', async () => {
    const keypair = new Ed25519Keypair();
    const address = keypair.toSuiAddress();
    const message = await challengeFor(address);
    const { signature } = await keypair.signPersonalMessage(encode(message));
    const answers = await Promise.all(Array.from({ length: 100 }, () => postJson(`${api.url}/api/auth/login`, { address, message, signature })));
    const ok = answers.filter((a) => a.status === 200);
    expect(ok).toHaveLength(1);
    expect(answers.filter((a) => a.status !== 200).every((a) => a.status === 401 && a.body!.error!.code === 'CHALLENGE_INVALID')).toBe(true);
    expect(await api.db.prisma.refreshToken.count({ where: { subject: address } })).toBe(1);
    expect(await api.db.prisma.profile.count({ where: { walletAddress: address } })).toBe(1);
  });

  it('parallel refreshes with one token: one rotation, and the race is treated as reuse', async () => {
    const session = await loginWithKeypair(api.url);
    const answers = await Promise.all(Array.from({ length: 20 }, () => postJson(`${api.url}/api/auth/refresh`, { refreshToken: session.refreshToken })));
    expect(answers.filter((a) => a.status === 200).length).toBeLessThanOrEqual(1);
    expect(answers.filter((a) => a.status !== 200).every((a) => ['REFRESH_TOKEN_REUSED', 'REFRESH_TOKEN_INVALID'].includes(a.body!.error!.code))).toBe(true);
    // Whatever won, the family is revoked now: a reused token ends the login everywhere.
    const live = await api.db.prisma.refreshToken.count({ where: { subject: session.address, revokedAt: null } });
    expect(live).toBe(0);
  });
});

describe('secrets stay out of answers and logs', () => {
  it('no log line carries an access token, a refresh token or a signature', async () => {
    const session = await loginWithKeypair(api.url);
    const refreshed = await postJson(`${api.url}/api/auth/refresh`, { refreshToken: session.refreshToken });
    await postJson(`${api.url}/api/auth/refresh`, { refreshToken: session.refreshToken }); // reuse: logged as a warning
    const all = api.logs.raw.join('\n');
    for (const secret of [session.accessToken, session.refreshToken, refreshed.body!.accessToken!, refreshed.body!.refreshToken!, api.config.jwt.secret]) {
      expect(all).not.toContain(secret);
    }
    expect(api.logs.lines.some((l) => l.msg === 'login' && l.wallet === session.address)).toBe(true);
    const stored = await api.db.prisma.refreshToken.findMany({ where: { subject: session.address } });
    expect(stored.some((t) => t.tokenHash.includes(session.refreshToken))).toBe(false);
  });
});
