// services.zklogin over a real database, a real OpenID provider (oidc-provider) and the
// Enoki-format salt service fixture, all on loopback.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SignJWT } from 'jose';
import type { Config } from '../../src/config';
import { AppError } from '../../src/errors';
import { createZkLoginService, type ZkLoginService } from '../../src/services/auth/zklogin';
import { createTestDb, type TestDb } from '../helpers/db';
import { captureLogger } from '../helpers/logs';
import { deadUrl, FOREIGN_CLIENT, MOBILE_CLIENT, startZkLoginWorld, WEB_CLIENT, type ZkLoginWorld } from '../fixtures/zklogin-world';
import { emailOf } from '../fixtures/oidc-provider';

type ZkConfig = Config['auth']['zkLogin'];

async function refusal(promise: Promise<unknown>): Promise<AppError> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AppError);
  return err as AppError;
}

describe('zkLogin account resolution (services.zklogin)', () => {
  let world: ZkLoginWorld;
  let testDb: TestDb;
  let config: ZkConfig;
  let zklogin: ZkLoginService;
  const { logger, logs } = captureLogger({ level: 'debug' });
  const subjects: string[] = [];
  const newSubject = () => {
    const s = `user-${randomUUID()}`;
    subjects.push(s);
    return s;
  };
  const rows = () => testDb.prisma.zkLoginAccount.count();
  const service = (overrides: Partial<ZkConfig> = {}, now?: () => Date) =>
    createZkLoginService({ db: testDb.db, config: { ...config, ...overrides }, logger, now });

  beforeAll(async () => {
    [world, testDb] = await Promise.all([startZkLoginWorld(), createTestDb()]);
    // No jwksUrl: the keys are found through the issuer's discovery document.
    config = { issuer: world.idp.issuer, jwksUrl: undefined, clientIds: [WEB_CLIENT, MOBILE_CLIENT], serviceUrl: world.salts.url, serviceKey: world.salts.key };
    zklogin = service();
  });
  afterAll(async () => {
    await Promise.all([world?.close(), testDb?.cleanup()]);
  });

  it('creates the account on first login and finds it afterwards', async () => {
    const sub = newSubject();
    const first = await zklogin.resolveAccount(await world.idp.issueIdToken({ clientId: WEB_CLIENT, subject: sub }));
    expect(first).toEqual({ address: world.addressOf(sub), created: true });
    const row = await testDb.prisma.zkLoginAccount.findUniqueOrThrow({ where: { address: first.address } });
    expect(row).toMatchObject({ issuer: world.idp.issuer, subject: sub, audience: WEB_CLIENT, email: emailOf(sub) });
    expect(row.salt).toBe(world.salts.saltFor(world.idp.issuer, sub, WEB_CLIENT));
    expect(row.lastLoginAt).not.toBeNull();

    const again = await zklogin.resolveAccount(await world.idp.issueIdToken({ clientId: WEB_CLIENT, subject: sub }));
    expect(again).toEqual({ address: first.address, created: false });
    const after = await testDb.prisma.zkLoginAccount.findUniqueOrThrow({ where: { address: first.address } });
    expect(after.lastLoginAt!.getTime()).toBeGreaterThanOrEqual(row.lastLoginAt!.getTime());
    expect(await testDb.prisma.zkLoginAccount.count({ where: { subject: sub } })).toBe(1);
  });

  it('gives the mobile client its own identity and address (the audience is part of a zkLogin address)', async () => {
    const sub = newSubject();
    const web = await zklogin.resolveAccount(await world.idp.issueIdToken({ clientId: WEB_CLIENT, subject: sub }));
    const mobile = await zklogin.resolveAccount(await world.idp.issueIdToken({ clientId: MOBILE_CLIENT, subject: sub }));
    expect(mobile).toEqual({ address: world.addressOf(sub, MOBILE_CLIENT), created: true });
    expect(mobile.address).not.toBe(web.address);
    const identities = await zklogin.identities(mobile.address);
    expect(identities).toEqual([
      { issuer: world.idp.issuer, audience: MOBILE_CLIENT, subject: sub, email: emailOf(sub), createdAt: expect.any(Date), lastLoginAt: expect.any(Date) },
    ]);
    expect(await zklogin.identities('0x' + 'ab'.repeat(32))).toEqual([]);
  });

  it('resolves 20 concurrent first logins of one identity to one row and one address', async () => {
    const sub = newSubject();
    const tokens = await Promise.all(Array.from({ length: 20 }, () => world.idp.issueIdToken({ clientId: WEB_CLIENT, subject: sub })));
    const results = await Promise.all(tokens.map((t) => zklogin.resolveAccount(t)));
    expect(new Set(results.map((r) => r.address))).toEqual(new Set([world.addressOf(sub)]));
    expect(results.filter((r) => r.created)).toHaveLength(1);
    expect(await testDb.prisma.zkLoginAccount.count({ where: { subject: sub } })).toBe(1);
  });

  describe('refuses, writing nothing and never asking the salt service', () => {
    const cases: Array<[string, string, (sub: string) => Promise<string>]> = [
      ['wrong audience', 'wrong_audience', (sub) => world.idp.issueIdToken({ clientId: FOREIGN_CLIENT, subject: sub })],
      ['wrong issuer', 'wrong_issuer', (sub) => world.otherIssuer.issueIdToken({ clientId: WEB_CLIENT, subject: sub })],
      ['unknown key', 'unknown_key', (sub) => world.unknownKey.issueIdToken({ clientId: WEB_CLIENT, subject: sub })],
      ['missing nonce', 'missing_nonce', (sub) => world.idp.issueIdToken({ clientId: WEB_CLIENT, subject: sub, nonce: null })],
      ['not a JWT', 'malformed', async () => 'not-a-jwt'],
      [
        'alg none',
        'unsupported_algorithm',
        async (sub) => {
          const real = await world.idp.issueIdToken({ clientId: WEB_CLIENT, subject: sub });
          return `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${real.split('.')[1]}.`;
        },
      ],
      [
        'HS256 with a guessed secret',
        'unsupported_algorithm',
        (sub) =>
          new SignJWT({ nonce: 'n' })
            .setProtectedHeader({ alg: 'HS256', kid: world.idp.signingKeys[0].kid })
            .setIssuer(world.idp.issuer)
            .setAudience(WEB_CLIENT)
            .setSubject(sub)
            .setIssuedAt()
            .setExpirationTime('1h')
            .sign(new TextEncoder().encode('a-guessed-secret-a-guessed-secret')),
      ],
      [
        'tampered payload',
        'bad_signature',
        async (sub) => {
          const [h, p, s] = (await world.idp.issueIdToken({ clientId: WEB_CLIENT, subject: sub })).split('.');
          const claims = JSON.parse(Buffer.from(p, 'base64url').toString());
          return [h, Buffer.from(JSON.stringify({ ...claims, sub: `${sub}-admin` })).toString('base64url'), s].join('.');
        },
      ],
    ];
    it.each(cases)('%s → ID_TOKEN_INVALID (%s)', async (_name, reason, token) => {
      const idToken = await token(newSubject());
      const [before, asked] = [await rows(), world.salts.requests];
      const err = await refusal(zklogin.resolveAccount(idToken));
      expect(err.code).toBe('ID_TOKEN_INVALID');
      expect(err.details).toEqual({ reason });
      expect(await rows()).toBe(before);
      expect(world.salts.requests).toBe(asked);
    });

    it('an expired token → ID_TOKEN_INVALID (expired), checked on a clock past exp + tolerance', async () => {
      const idToken = await world.idp.issueIdToken({ clientId: WEB_CLIENT, subject: newSubject() });
      const exp = JSON.parse(Buffer.from(idToken.split('.')[1], 'base64url').toString()).exp as number;
      const before = await rows();
      const later = service({}, () => new Date((exp + 31) * 1000));
      const err = await refusal(later.resolveAccount(idToken));
      expect(err.code).toBe('ID_TOKEN_INVALID');
      expect(err.details).toEqual({ reason: 'expired' });
      expect(await rows()).toBe(before);
      // The same token a moment before the tolerance ends is still accepted.
      await expect(service({}, () => new Date((exp + 29) * 1000)).resolveAccount(idToken)).resolves.toMatchObject({ created: true });
    });
  });

  describe('upstream failures are UPSTREAM_UNAVAILABLE, never an invalid token', () => {
    it('the salt service answering 503', async () => {
      const before = await rows();
      world.salts.failWith(503);
      try {
        const err = await refusal(zklogin.resolveAccount(await world.idp.issueIdToken({ clientId: WEB_CLIENT, subject: newSubject() })));
        expect(err.code).toBe('UPSTREAM_UNAVAILABLE');
      } finally {
        world.salts.failWith(null);
      }
      expect(await rows()).toBe(before);
    });

    it('the salt service unreachable, or refusing our key', async () => {
      const idToken = await world.idp.issueIdToken({ clientId: WEB_CLIENT, subject: newSubject() });
      const before = await rows();
      expect((await refusal(service({ serviceUrl: await deadUrl() }).resolveAccount(idToken))).code).toBe('UPSTREAM_UNAVAILABLE');
      const wrongKey = await refusal(service({ serviceKey: 'enoki_private_wrong' }).resolveAccount(idToken));
      expect(wrongKey.code).toBe('UPSTREAM_UNAVAILABLE');
      expect(wrongKey.details).toEqual({ status: 401 });
      expect(await rows()).toBe(before);
    });

    it('the salt service answering an address its salt does not derive', async () => {
      const before = await rows();
      world.salts.answerWrongAddress(true);
      try {
        const err = await refusal(zklogin.resolveAccount(await world.idp.issueIdToken({ clientId: WEB_CLIENT, subject: newSubject() })));
        expect(err.code).toBe('UPSTREAM_UNAVAILABLE');
      } finally {
        world.salts.answerWrongAddress(false);
      }
      expect(await rows()).toBe(before);
    });

    it("the identity provider's keys unreachable (JWKS URL or discovery)", async () => {
      const idToken = await world.idp.issueIdToken({ clientId: WEB_CLIENT, subject: newSubject() });
      const before = await rows();
      const dead = await deadUrl();
      expect((await refusal(service({ jwksUrl: `${dead}/jwks` }).resolveAccount(idToken))).code).toBe('UPSTREAM_UNAVAILABLE');
      expect((await refusal(service({ issuer: dead }).resolveAccount(idToken))).code).toBe('UPSTREAM_UNAVAILABLE');
      expect(await rows()).toBe(before);
      // The configured JWKS URL works as well as discovery.
      await expect(service({ jwksUrl: world.idp.jwksUrl }).resolveAccount(idToken)).resolves.toMatchObject({ created: true });
    });
  });

  it('answers SERVICE_UNAVAILABLE when no client ID or no service key is configured', async () => {
    const idToken = await world.idp.issueIdToken({ clientId: WEB_CLIENT, subject: newSubject() });
    expect((await refusal(service({ clientIds: [] }).resolveAccount(idToken))).code).toBe('SERVICE_UNAVAILABLE');
    expect((await refusal(service({ serviceKey: undefined }).resolveAccount(idToken))).code).toBe('SERVICE_UNAVAILABLE');
  });

  it('logged resolutions and refusals, and never a salt, the service key or an ID token', () => {
    expect(logs.lines.some((l) => l.msg === 'zkLogin account resolved')).toBe(true);
    expect(logs.lines.some((l) => l.msg === 'zkLogin ID token refused')).toBe(true);
    const all = logs.raw.join('\n');
    expect(all).not.toContain(world.salts.key);
    for (const sub of subjects) {
      for (const aud of [WEB_CLIENT, MOBILE_CLIENT]) expect(all).not.toContain(world.salts.saltFor(world.idp.issuer, sub, aud));
    }
    expect(all).not.toMatch(/eyJ[\w-]+\.eyJ/);
  });
});
