// The two zkLogin adapters on their own: timeouts and refusals of the salt service and of the
// identity provider's key endpoints, against loopback servers.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../src/errors';
import { createIdentityProvider } from '../../src/providers/identity-provider';
import { createZkLoginSaltService } from '../../src/providers/zklogin-service';
import { startZkLoginWorld, WEB_CLIENT, type ZkLoginWorld } from '../fixtures/zklogin-world';

/** A loopback server that accepts requests and never answers them (a hung upstream). */
async function startStallingServer(): Promise<{ url: string; server: Server }> {
  const server = createServer(() => undefined);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

async function failure(promise: Promise<unknown>): Promise<AppError> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AppError);
  return err as AppError;
}

describe('zkLogin adapters', () => {
  let world: ZkLoginWorld;
  let stalling: { url: string; server: Server };
  let idToken: string;
  const subject = 'adapter-subject';

  beforeAll(async () => {
    [world, stalling] = await Promise.all([startZkLoginWorld(), startStallingServer()]);
    idToken = await world.idp.issueIdToken({ clientId: WEB_CLIENT, subject });
  });
  afterAll(async () => {
    stalling?.server.closeAllConnections();
    stalling?.server.close();
    await world?.close();
  });

  describe('salt service (Enoki wire format)', () => {
    it('returns the salt and address for a token', async () => {
      const salts = createZkLoginSaltService({ url: world.salts.url, key: world.salts.key });
      expect(await salts.lookup(idToken)).toEqual({ salt: world.salts.saltFor(world.idp.issuer, subject, WEB_CLIENT), address: world.addressOf(subject) });
    });

    it('turns a refused key into UPSTREAM_UNAVAILABLE without echoing the key or the token', async () => {
      const key = 'enoki_private_not-the-right-one';
      const err = await failure(createZkLoginSaltService({ url: world.salts.url, key }).lookup(idToken));
      expect(err.code).toBe('UPSTREAM_UNAVAILABLE');
      expect(err.details).toEqual({ status: 401 });
      expect(JSON.stringify({ message: err.message, details: err.details })).not.toContain(key);
      expect(err.message).not.toContain(idToken);
    });

    it('gives up on a hung service after its timeout', async () => {
      const err = await failure(createZkLoginSaltService({ url: stalling.url, key: world.salts.key, timeoutMs: 200 }).lookup(idToken));
      expect(err.code).toBe('UPSTREAM_UNAVAILABLE');
      expect(err.message).toMatch(/within 200 ms/);
    });
  });

  describe('identity provider (jose remote JWKS)', () => {
    it('verifies a token and returns its claims', async () => {
      const idp = createIdentityProvider({ issuer: world.idp.issuer, clientIds: [WEB_CLIENT] });
      const result = await idp.verifyIdToken(idToken);
      expect(result).toEqual({ ok: true, claims: { iss: world.idp.issuer, sub: subject, aud: WEB_CLIENT, email: `${subject}@example.test`, nonce: expect.any(String) } });
    });

    it('answers UPSTREAM_UNAVAILABLE when the JWKS or the discovery document hangs', async () => {
      const jwks = createIdentityProvider({ issuer: world.idp.issuer, jwksUrl: `${stalling.url}/jwks`, clientIds: [WEB_CLIENT], timeoutMs: 200 });
      expect((await failure(jwks.verifyIdToken(idToken))).code).toBe('UPSTREAM_UNAVAILABLE');
      const discovery = createIdentityProvider({ issuer: stalling.url, clientIds: [WEB_CLIENT], timeoutMs: 200 });
      expect((await failure(discovery.verifyIdToken(idToken))).code).toBe('UPSTREAM_UNAVAILABLE');
    });

    it('refuses a discovery document that names another issuer', async () => {
      // Served at its own URL, this provider's discovery document names the configured issuer instead.
      const idp = createIdentityProvider({ issuer: world.unknownKey.url, clientIds: [WEB_CLIENT] });
      const err = await failure(idp.verifyIdToken(idToken));
      expect(err.code).toBe('UPSTREAM_UNAVAILABLE');
      expect((err.cause as Error).message).toMatch(/does not name this issuer/);
    });
  });
});
