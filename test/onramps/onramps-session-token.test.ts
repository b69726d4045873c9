/**
 * On-ramp B session tokens over real HTTP (REST and GraphQL) against a loopback token endpoint
 * that verifies the provider JWT (ES256 and Ed25519 keys): the request sent, the partnerUserRef
 * vectors, a 400 naming each missing or malformed field, upstream refusals and hangs, the
 * per-client budget, and no secret, JWT or token in any log line.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OnrampBSessionTokenDocument } from '../../src/generated/graphql';
import { createOnrampBProvider } from '../../src/providers/onramp-b';
import { partnerUserRef } from '../../src/services/onramps/service';
import { startApi, type TestApi } from '../helpers/api';
import { gql } from '../helpers/client';
import { captureLogger } from '../helpers/logs';
import { startOnrampBFixture, type OnrampBFixture } from '../fixtures/onramp-b';

const SUI_WALLET = `0x${'ab'.repeat(32)}`;
const EVM_WALLET = '0xde0b295669a9fd93d5f28d9ec85e40f4cb697bae';

/** Computed independently (Python hashlib): base64url(sha256(address + "platform-cdp")) without "=", first 40. */
const VECTORS: Array<[string, string]> = [
  [SUI_WALLET, 'XXpvt3IpS4pPt8Ca1CC65uUBORSSaUNcJtZ38cX4'],
  [`0x${'00'.repeat(32)}`, 'pditCDMp-4SLqAZgIVj3_rFykKnh3bGbSUCq2z1T'],
  [EVM_WALLET, 'Jeyspm5how-cPrjIW9H7uinUSzX1IItnfy1JcKrd'],
];

let fixture: OnrampBFixture;
let api: TestApi;

const onrampEnv = (f: OnrampBFixture) => ({ 'ONRAMP_B.TOKEN_URL': f.tokenUrl, 'ONRAMP_B.API_KEY_ID': f.apiKeyId, 'ONRAMP_B.API_KEY_SECRET': f.apiKeySecret });

beforeAll(async () => {
  fixture = await startOnrampBFixture({ alg: 'ES256' });
  api = await startApi({ env: onrampEnv(fixture) });
}, 60_000);
afterAll(async () => {
  await api?.close();
  await fixture?.close();
});

async function post(target: TestApi, body: unknown) {
  const res = await fetch(`${target.url}/api/onramp-b/session-token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, headers: res.headers, body: await res.json() };
}

describe('partnerUserRef', () => {
  it('matches the fixed vectors: 40 characters of the base64url alphabet, stable per wallet and case', () => {
    for (const [address, expected] of VECTORS) {
      expect(partnerUserRef(address)).toBe(expected);
      expect(partnerUserRef(address.toUpperCase().replace(/^0X/, '0x'))).toBe(expected);
      expect(expected).toMatch(/^[A-Za-z0-9_-]{40}$/);
    }
  });
});

describe('POST /api/onramp-b/session-token', () => {
  it('returns the provider token and the partnerUserRef, having sent the address, assets and client IP', async () => {
    const res = await post(api, { hexAddress: SUI_WALLET, blockchains: ['sui'], assets: ['SUI', 'USDC'] });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ sessionToken: fixture.issuedTokens.at(-1), partnerUserRef: VECTORS[0][1], expiresInSeconds: 300 });
    expect(fixture.accepted.at(-1)).toEqual({ addresses: [{ address: SUI_WALLET, blockchains: ['sui'] }], assets: ['SUI', 'USDC'], clientIp: '127.0.0.1' });
  });

  it('answers the same over GraphQL, with the ref stable for a differently cased address', async () => {
    const res = await gql(api.url, OnrampBSessionTokenDocument, { input: { hexAddress: EVM_WALLET.toUpperCase().replace(/^0X/, '0x'), blockchains: ['base'], assets: ['USDC'] } });
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data?.onrampBSessionToken).toEqual({ sessionToken: fixture.issuedTokens.at(-1), partnerUserRef: VECTORS[2][1], expiresInSeconds: 300 });
    expect(fixture.accepted.at(-1)?.addresses[0].address).toBe(EVM_WALLET);
  });

  it('names each missing or malformed field in one 400, on both transports, without calling the provider', async () => {
    const calls = fixture.jwts.length;
    const missing = await post(api, {});
    expect(missing.status).toBe(400);
    expect(missing.body.error.code).toBe('VALIDATION_FAILED');
    expect(missing.body.error.details.issues).toEqual([
      { path: '/hexAddress', message: 'hexAddress is required' },
      { path: '/blockchains', message: 'blockchains is required' },
      { path: '/assets', message: 'assets is required' },
    ]);
    expect(missing.body.error.message).toContain('hexAddress is required');

    const malformed = await post(api, { hexAddress: '0x123', blockchains: 'sui', assets: [] });
    expect(malformed.body.error.details.issues.map((i: { path: string }) => i.path)).toEqual(['/hexAddress', '/blockchains', '/assets']);
    expect(malformed.body.error.message).toMatch(/hexAddress must be 0x followed by 40 or 64 hex digits.*blockchains must be an array.*assets must name at least one asset/);

    const badItems = await post(api, { hexAddress: SUI_WALLET, blockchains: ['Sui Mainnet'], assets: ['SUI', 7] });
    expect(badItems.body.error.details.issues.map((i: { path: string }) => i.path)).toEqual(['/blockchains/0', '/assets/1']);
    const unknown = await post(api, { hexAddress: SUI_WALLET, blockchains: ['sui'], assets: ['SUI'], clientIp: '1.2.3.4' });
    expect(unknown.status).toBe(400);

    const viaGraphql = await gql(api.url, OnrampBSessionTokenDocument, { input: {} });
    expect(viaGraphql.body.errors?.[0].extensions?.code).toBe('VALIDATION_FAILED');
    expect(viaGraphql.body.errors?.[0].message).toBe(missing.body.error.message);
    expect(fixture.jwts.length).toBe(calls);
  });

  it('answers UPSTREAM_UNAVAILABLE when the provider refuses or hangs, logging neither key, JWT nor token', async () => {
    fixture.setMode('refuse');
    const refused = await post(api, { hexAddress: SUI_WALLET, blockchains: ['sui'], assets: ['SUI'] });
    expect(refused.status).toBe(502);
    expect(refused.body.error).toMatchObject({ code: 'UPSTREAM_UNAVAILABLE', details: { status: 401, errorType: 'unauthorized' } });
    fixture.setMode('hang');
    const hung = await post(api, { hexAddress: SUI_WALLET, blockchains: ['sui'], assets: ['SUI'] });
    expect(hung.status).toBe(502);
    fixture.setMode('ok');

    const everything = `${api.logs.raw.join('\n')}\n${JSON.stringify([refused, hung])}`;
    for (const line of fixture.apiKeySecret.split('\n').filter((l) => l.length > 20)) expect(everything).not.toContain(line);
    for (const jwt of fixture.jwts) expect(everything).not.toContain(jwt);
    for (const token of fixture.issuedTokens) expect(api.logs.raw.join('\n')).not.toContain(token);
    expect(api.logs.lines.some((l) => l.msg === 'on-ramp B refused the session token request' && l.status === 401)).toBe(true);
  });

  it('keeps the key out of logs even without the logger’s secret scrubbing', async () => {
    const { logger, logs } = captureLogger();
    const provider = createOnrampBProvider({ tokenUrl: fixture.tokenUrl, apiKeyId: fixture.apiKeyId, apiKeySecret: fixture.apiKeySecret, logger, timeoutMs: 500 });
    fixture.setMode('refuse');
    await expect(provider.createSessionToken({ addresses: [{ address: SUI_WALLET, blockchains: ['sui'] }], assets: ['SUI'], clientIp: '192.0.2.1' })).rejects.toMatchObject({
      code: 'UPSTREAM_UNAVAILABLE',
    });
    fixture.setMode('ok');
    expect(logs.raw.length).toBeGreaterThan(0);
    const raw = logs.raw.join('\n');
    expect(raw).not.toContain(fixture.jwts.at(-1));
    for (const line of fixture.apiKeySecret.split('\n').filter((l) => l.length > 20)) expect(raw).not.toContain(line);
  });
});

describe('an Ed25519 API key', () => {
  it('signs the provider JWT with EdDSA', async () => {
    const ed = await startOnrampBFixture({ alg: 'EdDSA' });
    const edApi = await startApi({ env: onrampEnv(ed) });
    try {
      const res = await post(edApi, { hexAddress: EVM_WALLET, blockchains: ['ethereum', 'base'], assets: ['ETH'] });
      expect(res.status).toBe(200);
      expect(res.body.sessionToken).toBe(ed.issuedTokens[0]);
      expect(ed.accepted[0].addresses).toEqual([{ address: EVM_WALLET, blockchains: ['ethereum', 'base'] }]);
      expect(edApi.logs.raw.join('\n')).not.toContain(ed.apiKeySecret);
    } finally {
      await edApi.close();
      await ed.close();
    }
  });
});

describe('budget and configuration', () => {
  it('grants 20 tokens per client IP per minute across parallel calls, then RATE_LIMITED', async () => {
    const f = await startOnrampBFixture();
    const limited = await startApi({ env: onrampEnv(f) });
    try {
      const answers = await Promise.all(Array.from({ length: 25 }, () => post(limited, { hexAddress: SUI_WALLET, blockchains: ['sui'], assets: ['SUI'] })));
      expect(answers.filter((a) => a.status === 200)).toHaveLength(20);
      const refused = answers.filter((a) => a.status === 429);
      expect(refused).toHaveLength(5);
      expect(refused[0].body.error).toMatchObject({ code: 'RATE_LIMITED', details: { scope: 'onramp-b', retryAfterSeconds: expect.any(Number) } });
      for (const r of refused) expect(r.headers.get('retry-after')).toBe(String(r.body.error.details.retryAfterSeconds));
      expect(f.accepted).toHaveLength(20);
    } finally {
      await limited.close();
      await f.close();
    }
  });

  it('answers SERVICE_UNAVAILABLE for a valid request when on-ramp B is not configured', async () => {
    const bare = await startApi();
    try {
      const res = await post(bare, { hexAddress: SUI_WALLET, blockchains: ['sui'], assets: ['SUI'] });
      expect(res.status).toBe(503);
      expect(res.body.error.code).toBe('SERVICE_UNAVAILABLE');
    } finally {
      await bare.close();
    }
  });
});
