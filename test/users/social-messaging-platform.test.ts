import { describe, expect, it } from 'vitest';
import { createMessagingPlatformProvider } from '../../src/providers/social-messaging-platform';

/** A vector computed outside this code base (Python hmac/hashlib) with the platform's documented rule. */
const BOT_TOKEN = '123456789:AAF-python-vector-bot-token';
const SIGNED = {
  id: '31337',
  first_name: 'Ada',
  username: 'ada_l',
  photo_url: 'https://t.example/i/ada.jpg',
  auth_date: '1700000000',
  hash: '338fa756316d0bc2185528bef5ef567ad0ea43649cc3c68bd51e07ba85b2cfb2',
};
const signedAt = new Date(1_700_000_000 * 1000);
const provider = createMessagingPlatformProvider({ botToken: BOT_TOKEN, maxAgeSeconds: 86_400 });

describe('messaging_platform signed login payload', () => {
  it('accepts the independently computed vector and reads the account', () => {
    expect(provider.verifyLogin(SIGNED, new Date(signedAt.getTime() + 60_000))).toEqual({ ok: true, account: { externalId: '31337', username: 'ada_l' } });
  });

  it('refuses a changed or added field, a short or missing hash, or another bot token as a bad signature', () => {
    expect(provider.verifyLogin({ ...SIGNED, username: 'eve' }, signedAt)).toEqual({ ok: false, reason: 'signature' });
    expect(provider.verifyLogin({ ...SIGNED, extra: '1' }, signedAt)).toEqual({ ok: false, reason: 'signature' });
    expect(provider.verifyLogin({ ...SIGNED, hash: SIGNED.hash.slice(0, 62) }, signedAt)).toEqual({ ok: false, reason: 'signature' });
    const { hash: _h, ...unsigned } = SIGNED;
    expect(provider.verifyLogin(unsigned, signedAt)).toEqual({ ok: false, reason: 'signature' });
    expect(createMessagingPlatformProvider({ botToken: `${BOT_TOKEN}x`, maxAgeSeconds: 86_400 }).verifyLogin(SIGNED, signedAt)).toEqual({ ok: false, reason: 'signature' });
  });

  it('accepts a login up to the maximum age and a small clock skew, refuses older or far-future ones', () => {
    const at = (seconds: number) => new Date(signedAt.getTime() + seconds * 1000);
    expect(provider.verifyLogin(SIGNED, at(86_400)).ok).toBe(true);
    expect(provider.verifyLogin(SIGNED, at(86_401))).toEqual({ ok: false, reason: 'expired' });
    expect(provider.verifyLogin(SIGNED, at(-300)).ok).toBe(true);
    expect(provider.verifyLogin(SIGNED, at(-301))).toEqual({ ok: false, reason: 'expired' });
  });
});
