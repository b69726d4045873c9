/**
 * Profiles over real HTTP, REST and GraphQL against one service: created on first use (once,
 * under parallel calls), PATCH semantics, the same VALIDATION_FAILED details on both transports
 * with nothing written, and the access-token refusals.
 */
import { randomBytes } from 'node:crypto';
import { Ed25519Keypair } from '@mysten/sui/keypairs/ed25519';
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MeDocument, StartEmailVerificationDocument, UpdateProfileDocument, type UpdateProfileInput } from '../../src/generated/graphql';
import { startApi, type TestApi } from '../helpers/api';
import { loginWithKeypair } from '../helpers/auth';
import { gql } from '../helpers/client';

let api: TestApi;

beforeAll(async () => {
  api = await startApi();
}, 60_000);
afterAll(async () => api?.close());

const newWallet = (): string => `0x${randomBytes(32).toString('hex')}`;
const bearer = (wallet: string) => ({ authorization: `Bearer ${api.services.tokens.signAccess(wallet)}` });

async function rest(method: string, path: string, headers: Record<string, string>, body?: unknown) {
  const res = await fetch(`${api.url}${path}`, {
    method,
    headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

const profileRow = (wallet: string) => api.db.prisma.profile.findUnique({ where: { walletAddress: wallet } });

describe('the caller profile', () => {
  it('is created on first use, exactly once under parallel REST and GraphQL calls', async () => {
    const wallet = newWallet();
    const headers = bearer(wallet);
    const answers = await Promise.all([
      ...Array.from({ length: 15 }, () => rest('GET', '/api/users/me', headers)),
      ...Array.from({ length: 15 }, async () => {
        const res = await gql(api.url, MeDocument, {}, headers);
        return { status: res.status, body: res.body.data?.me ?? res.body };
      }),
    ]);
    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 200));
    expect(new Set(answers.map((a) => JSON.stringify(a.body))).size).toBe(1);
    expect(answers[0].body).toEqual({
      walletAddress: wallet,
      displayName: null,
      avatarUrl: null,
      bio: null,
      email: null,
      emailVerified: false,
      emailVerifiedAt: null,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    expect(await api.db.prisma.profile.count({ where: { walletAddress: wallet } })).toBe(1);
  });

  it("is the wallet login's profile", async () => {
    const session = await loginWithKeypair(api.url, new Ed25519Keypair());
    const me = await rest('GET', '/api/users/me', { authorization: `Bearer ${session.accessToken}` });
    expect(me.status).toBe(200);
    expect(me.body.walletAddress).toBe(session.address);
    expect(await api.db.prisma.profile.count({ where: { walletAddress: session.address } })).toBe(1);
  });

  it('changes only the given fields; null clears a field; REST and GraphQL see the same profile', async () => {
    const wallet = newWallet();
    const headers = bearer(wallet);
    const first = await rest('PATCH', '/api/users/me', headers, {
      displayName: '  Ada  ',
      avatarUrl: 'https://cdn.example.com/ada.png',
      bio: 'Line one\nline two',
    });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ displayName: 'Ada', avatarUrl: 'https://cdn.example.com/ada.png', bio: 'Line one\nline two' });

    const viaGraphql = await gql(api.url, UpdateProfileDocument, { input: { bio: 'Only the bio' } }, headers);
    expect(viaGraphql.body.errors).toBeUndefined();
    expect(viaGraphql.body.data!.updateProfile).toMatchObject({ displayName: 'Ada', avatarUrl: 'https://cdn.example.com/ada.png', bio: 'Only the bio' });

    const cleared = await rest('PATCH', '/api/users/me', headers, { avatarUrl: null, bio: '' });
    expect(cleared.body).toMatchObject({ displayName: 'Ada', avatarUrl: null, bio: null });
    expect(Date.parse(cleared.body.updatedAt)).toBeGreaterThanOrEqual(Date.parse(first.body.updatedAt));

    const nameCleared = await gql(api.url, UpdateProfileDocument, { input: { displayName: null } }, headers);
    expect(nameCleared.body.data!.updateProfile.displayName).toBeNull();

    const unchanged = await rest('PATCH', '/api/users/me', headers, {});
    expect(unchanged.status).toBe(200);
    const me = await gql(api.url, MeDocument, {}, headers);
    expect(me.body.data!.me).toEqual(unchanged.body);
    expect(await profileRow(wallet)).toMatchObject({ displayName: null, avatarUrl: null, bio: null });
  });

  it('counts characters, not UTF-16 units: 32 emoji are a valid display name', async () => {
    const headers = bearer(newWallet());
    const name = '😀'.repeat(32);
    expect((await rest('PATCH', '/api/users/me', headers, { displayName: name })).body.displayName).toBe(name);
    expect((await rest('PATCH', '/api/users/me', headers, { displayName: `${name}😀` })).body.error.code).toBe('VALIDATION_FAILED');
  });
});

describe('validation', () => {
  const refused: Array<[string, UpdateProfileInput, string]> = [
    ['an empty display name', { displayName: '   ' }, '/displayName'],
    ['a display name of 33 characters', { displayName: 'x'.repeat(33) }, '/displayName'],
    ['a control character in the display name', { displayName: 'bell\u0007name' }, '/displayName'],
    ['a text-direction override in the display name', { displayName: 'admin\u202Egnp.exe' }, '/displayName'],
    ['an http avatar URL', { avatarUrl: 'http://cdn.example.com/a.png' }, '/avatarUrl'],
    ['a relative avatar URL', { avatarUrl: '/images/a.png' }, '/avatarUrl'],
    ['an avatar URL with credentials', { avatarUrl: 'https://user:pw@cdn.example.com/a.png' }, '/avatarUrl'],
    ['a javascript: avatar URL', { avatarUrl: 'javascript:alert(1)' }, '/avatarUrl'],
    ['an avatar URL over 2048 characters', { avatarUrl: `https://cdn.example.com/${'a'.repeat(2030)}.png` }, '/avatarUrl'],
    ['a bio of 281 characters', { bio: 'b'.repeat(281) }, '/bio'],
    ['a control character in the bio', { bio: 'escape\u001b[31m' }, '/bio'],
  ];

  it.each(refused)('refuses %s with the same VALIDATION_FAILED details over REST and GraphQL, writing nothing', async (_what, input, path) => {
    const wallet = newWallet();
    const headers = bearer(wallet);
    await rest('PATCH', '/api/users/me', headers, { displayName: 'Before', bio: 'kept' });
    const before = await profileRow(wallet);

    const viaRest = await rest('PATCH', '/api/users/me', headers, input);
    expect(viaRest.status).toBe(400);
    expect(viaRest.body.error).toMatchObject({ code: 'VALIDATION_FAILED', message: expect.stringContaining(path) });
    expect(viaRest.body.error.details.issues).toEqual([{ path, message: expect.any(String) }]);

    const viaGraphql = await gql(api.url, UpdateProfileDocument, { input }, headers);
    expect(viaGraphql.body.data).toBeNull();
    const error = viaGraphql.body.errors![0];
    expect(error.extensions?.code).toBe('VALIDATION_FAILED');
    expect(error.message).toBe(viaRest.body.error.message);
    expect(error.extensions?.details).toEqual(viaRest.body.error.details);

    expect(await profileRow(wallet)).toEqual(before);
  });

  it('allows http avatar URLs on localhost outside production only', async () => {
    const headers = bearer(newWallet());
    const local = await rest('PATCH', '/api/users/me', headers, { avatarUrl: 'http://localhost:3000/a.png' });
    expect(local.body.avatarUrl).toBe('http://localhost:3000/a.png');
    const production = await startApi({
      env: { NODE_ENV: 'production', JWT_SECRET: 'users-test-jwt-secret-0123456789abcdef', PAYLOAD_SECRET: 'users-test-payload-secret' },
      db: api.db,
    });
    try {
      const res = await fetch(`${production.url}/api/users/me`, {
        method: 'PATCH',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${production.services.tokens.signAccess(newWallet())}` },
        body: JSON.stringify({ avatarUrl: 'http://localhost:3000/a.png' }),
      });
      expect(res.status).toBe(400);
      expect((await res.json()).error.details.issues).toEqual([{ path: '/avatarUrl', message: expect.any(String) }]);
    } finally {
      await production.close();
    }
  }, 60_000);

  it('refuses unknown fields and wrong types over REST instead of dropping or coercing them', async () => {
    const wallet = newWallet();
    const headers = bearer(wallet);
    await rest('GET', '/api/users/me', headers);
    const before = await profileRow(wallet);

    const unknown = await rest('PATCH', '/api/users/me', headers, { displayName: 'Ok', email: 'x@example.com' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.code).toBe('VALIDATION_FAILED');
    expect(unknown.body.error.message).toContain('email');

    const wrongType = await rest('PATCH', '/api/users/me', headers, { displayName: 12345 });
    expect(wrongType.body.error).toMatchObject({ code: 'VALIDATION_FAILED', details: { issues: [{ path: '/displayName', message: expect.any(String) }] } });

    for (const body of [[], 'text', null]) {
      const res = await rest('PATCH', '/api/users/me', headers, body);
      expect(res.body.error.code, JSON.stringify(body)).toBe('VALIDATION_FAILED');
    }
    // GraphQL's own schema refuses what is not in UpdateProfileInput before the service runs.
    const graphqlUnknown = await gql(api.url, UpdateProfileDocument, { input: { displayName: 'Ok', email: 'x@example.com' } as UpdateProfileInput }, headers);
    expect(graphqlUnknown.body.errors?.[0]?.message).toContain('email');
    expect(await profileRow(wallet)).toEqual(before);
  });
});

describe('access token', () => {
  const expiredToken = () => api.services.tokens.signAccess(newWallet(), -10);

  it('is required: UNAUTHENTICATED without one, TOKEN_INVALID or TOKEN_EXPIRED for a bad one, over REST and GraphQL', async () => {
    const cases: Array<[Record<string, string>, string]> = [
      [{}, 'UNAUTHENTICATED'],
      [{ authorization: 'Bearer not.a.jwt' }, 'TOKEN_INVALID'],
      [{ authorization: 'Basic dXNlcjpwdw==' }, 'TOKEN_INVALID'],
      [{ authorization: `Bearer ${expiredToken()}` }, 'TOKEN_EXPIRED'],
    ];
    const before = await api.db.prisma.profile.count();
    for (const [headers, code] of cases) {
      const where = `${headers.authorization ?? 'none'} → ${code}`;
      for (const [method, path, body] of [
        ['GET', '/api/users/me', undefined],
        ['PATCH', '/api/users/me', { displayName: 'x' }],
        ['POST', '/api/users/me/email', { email: 'someone@example.com' }],
      ] as const) {
        const res = await rest(method, path, headers, body);
        expect(res.status, `${method} ${path} ${where}`).toBe(401);
        expect(res.body.error.code, `${method} ${path} ${where}`).toBe(code);
      }
      for (const res of [
        await gql(api.url, MeDocument, {}, headers),
        await gql(api.url, UpdateProfileDocument, { input: { displayName: 'x' } }, headers),
        await gql(api.url, StartEmailVerificationDocument, { email: 'someone@example.com' }, headers),
      ]) {
        const got = res.body.errors?.[0]?.extensions?.code ?? (res.body as { error?: { code: string } }).error?.code;
        expect(got, where).toBe(code);
      }
    }
    expect(await api.db.prisma.profile.count()).toBe(before);
  });
});

describe('OpenAPI document', () => {
  it('describes the users routes with the service rules as body schemas', async () => {
    const doc = await (await fetch(`${api.url}/api/openapi.json`)).json();
    const validator = new Validator();
    expect((await validator.validate(structuredClone(doc))).errors ?? []).toEqual([]);
    expect(Object.keys(doc.paths['/api/users/me']).sort()).toEqual(['get', 'patch']);
    const patchBody = doc.paths['/api/users/me'].patch.requestBody.content['application/json'].schema;
    expect(patchBody.additionalProperties).toBe(false);
    expect(patchBody.properties.displayName.anyOf).toContainEqual(expect.objectContaining({ type: 'string', minLength: 1, maxLength: 32 }));
    expect(doc.paths['/api/users/me/email'].post.responses['202']).toBeDefined();
    expect(doc.paths['/api/users/email/verify'].post.responses['400'].description).toContain('EMAIL_TOKEN_EXPIRED');
    expect(doc.paths['/api/users/email/verify'].get).toBeUndefined();
  });
});
