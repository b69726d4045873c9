import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LinkMessagingPlatformDocument, SocialLinksDocument } from '../../src/generated/graphql';
import { startApi, type TestApi } from '../helpers/api';
import { loginWithKeypair, postJson } from '../helpers/auth';
import { gql } from '../helpers/client';
import { messagingLogin, signMessagingLogin } from '../fixtures/messaging-login';

const BOT_TOKEN = `123456:fixture-bot-token-${randomBytes(12).toString('hex')}`;
const CONNECT = '/api/users/me/social/messaging_platform/connect';
const DAY = 24 * 3600;

let api: TestApi;
const answered: string[] = [];
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

async function linkOverRest(token: string, payload: unknown) {
  const res = await postJson(`${api.url}${CONNECT}`, payload, bearer(token));
  answered.push(res.text);
  return res as typeof res & { body: { provider?: string; externalId?: string; username?: string | null; linkedAt?: string; error?: { code: string } } };
}

const linkCount = () => api.db.prisma.socialLink.count({ where: { provider: 'messaging_platform' } });

beforeAll(async () => {
  api = await startApi({ env: { SOCIAL_MESSAGING_PLATFORM_BOT_TOKEN: BOT_TOKEN } });
});
afterAll(async () => {
  await api?.close();
});

describe('messaging_platform: the signed login payload', () => {
  it('links over REST exactly as the widget sends it, lists it, and unlinks', async () => {
    const user = await loginWithKeypair(api.url);
    const res = await linkOverRest(user.accessToken, messagingLogin(BOT_TOKEN, 9_007_199_254_740_991, 'widget_user'));
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ provider: 'messaging_platform', externalId: '9007199254740991', username: 'widget_user', linkedAt: expect.any(String) });

    const listed = await fetch(`${api.url}/api/users/me/social`, { headers: bearer(user.accessToken) });
    expect((await listed.json()).links).toEqual([res.body]);
    const del = await fetch(`${api.url}/api/users/me/social/messaging_platform`, { method: 'DELETE', headers: bearer(user.accessToken) });
    expect(del.status).toBe(204);
    expect(await api.db.prisma.socialLink.count({ where: { externalId: '9007199254740991' } })).toBe(0);
  });

  it('fields the widget adds later are covered by the hash and accepted', async () => {
    const user = await loginWithKeypair(api.url);
    const payload = signMessagingLogin(BOT_TOKEN, { id: 42_000_001, username: 'newer_widget', auth_date: Math.floor(Date.now() / 1000), allows_write_to_pm: 'true' });
    expect((await linkOverRest(user.accessToken, payload)).status).toBe(200);
  });

  it('links over GraphQL (camelCase fields) and shows on socialLinks', async () => {
    const user = await loginWithKeypair(api.url);
    const signed = messagingLogin(BOT_TOKEN, 42_000_002, 'gql_widget');
    const payload = { id: String(signed.id), authDate: Number(signed.auth_date), hash: signed.hash, firstName: String(signed.first_name), username: 'gql_widget', photoUrl: String(signed.photo_url) };
    const res = await gql(api.url, LinkMessagingPlatformDocument, { payload }, bearer(user.accessToken));
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data?.linkMessagingPlatform).toMatchObject({ provider: 'MESSAGING_PLATFORM', externalId: '42000002', username: 'gql_widget' });
    const listed = await gql(api.url, SocialLinksDocument, {}, bearer(user.accessToken));
    expect(listed.body.data?.socialLinks.map((l) => l.externalId)).toEqual(['42000002']);
  });
});

describe('refusals: each names its code, nothing is written', () => {
  it('a payload signed with another bot token, a tampered field, a stale login, a malformed payload', async () => {
    const user = await loginWithKeypair(api.url);
    const before = await linkCount();
    const otherBot = await linkOverRest(user.accessToken, messagingLogin('999:another-bot', 42_000_003, 'x'));
    expect(otherBot.status).toBe(401);
    expect(otherBot.body.error?.code).toBe('SIGNATURE_INVALID');

    const tampered = { ...messagingLogin(BOT_TOKEN, 42_000_003, 'honest'), username: 'impostor' };
    expect((await linkOverRest(user.accessToken, tampered)).body.error?.code).toBe('SIGNATURE_INVALID');
    const otherId = { ...messagingLogin(BOT_TOKEN, 42_000_003, 'honest'), id: 42_000_004 };
    expect((await linkOverRest(user.accessToken, otherId)).body.error?.code).toBe('SIGNATURE_INVALID');

    const stale = await linkOverRest(user.accessToken, messagingLogin(BOT_TOKEN, 42_000_003, 'old', Math.floor(Date.now() / 1000) - DAY - 60));
    expect(stale.status).toBe(400);
    expect(stale.body.error?.code).toBe('SOCIAL_PAYLOAD_EXPIRED');

    const { hash: _dropped, ...unsigned } = messagingLogin(BOT_TOKEN, 42_000_003, 'nohash');
    const malformed = await linkOverRest(user.accessToken, unsigned);
    expect(malformed.status).toBe(400);
    expect(malformed.body.error?.code).toBe('VALIDATION_FAILED');
    expect((await linkOverRest(user.accessToken, { ...messagingLogin(BOT_TOKEN, 1, 'a'), id: 'not-a-number' })).body.error?.code).toBe('VALIDATION_FAILED');
    expect(await linkCount()).toBe(before);
  });

  it('GraphQL refuses the same payloads with the same codes', async () => {
    const user = await loginWithKeypair(api.url);
    const signed = messagingLogin(BOT_TOKEN, 42_000_005, 'gql');
    const base = { id: '42000005', authDate: Number(signed.auth_date), hash: signed.hash, firstName: 'Fixture', username: 'gql', photoUrl: String(signed.photo_url) };
    const code = async (payload: typeof base) => (await gql(api.url, LinkMessagingPlatformDocument, { payload }, bearer(user.accessToken))).body.errors?.[0].extensions?.code;
    expect(await code({ ...base, username: 'impostor' })).toBe('SIGNATURE_INVALID');
    expect(await code({ ...base, hash: 'zz' })).toBe('VALIDATION_FAILED');
    const stale = messagingLogin(BOT_TOKEN, 42_000_005, 'gql', Math.floor(Date.now() / 1000) - 2 * DAY);
    expect(await code({ ...base, authDate: Number(stale.auth_date), hash: stale.hash })).toBe('SOCIAL_PAYLOAD_EXPIRED');
    expect(await api.db.prisma.socialLink.count({ where: { externalId: '42000005' } })).toBe(0);
  });

  it('an account linked to another profile; wallets racing for one account: exactly one wins', async () => {
    const wallets = await Promise.all(Array.from({ length: 8 }, () => loginWithKeypair(api.url)));
    const payload = messagingLogin(BOT_TOKEN, 42_000_006, 'contested');
    const results = await Promise.all(wallets.map((w) => linkOverRest(w.accessToken, payload)));
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.body.error?.code === 'ACCOUNT_ALREADY_LINKED').map((r) => r.status)).toEqual(Array(7).fill(409));
    expect(await api.db.prisma.socialLink.count({ where: { externalId: '42000006' } })).toBe(1);

    // The same wallet linking the same account again (e.g. a double click) is fine and still one row.
    const winner = wallets[results.findIndex((r) => r.status === 200)];
    const again = await Promise.all([linkOverRest(winner.accessToken, payload), linkOverRest(winner.accessToken, payload)]);
    expect(again.map((r) => r.status)).toEqual([200, 200]);
    expect(await api.db.prisma.socialLink.count({ where: { externalId: '42000006' } })).toBe(1);
  });

  it('an API without a bot token answers SERVICE_UNAVAILABLE "not configured"', async () => {
    const bare = await startApi();
    try {
      const user = await loginWithKeypair(bare.url);
      const res = await postJson(`${bare.url}${CONNECT}`, messagingLogin(BOT_TOKEN, 1, 'a'), bearer(user.accessToken));
      expect(res.status).toBe(503);
      expect(res.body?.error).toMatchObject({ code: 'SERVICE_UNAVAILABLE', message: expect.stringContaining('not configured') });
    } finally {
      await bare.close();
    }
  });

  it('the bot token never appears in a response or a log line', () => {
    expect(answered.length).toBeGreaterThan(10);
    expect(answered.join('\n')).not.toContain(BOT_TOKEN);
    expect(api.logs.raw.join('\n')).not.toContain(BOT_TOKEN);
  });
});
