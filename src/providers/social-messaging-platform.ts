import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { ExternalAccount } from './oauth';

/**
 * `messaging_platform`: its login widget hands the browser a payload signed by the platform
 * (id, first_name, last_name, username, photo_url, auth_date, hash). `hash` is the hex
 * HMAC-SHA256 of the data-check-string (every other field as `key=value`, sorted by key, joined
 * by newlines) keyed with SHA-256 of the bot token; there is no OAuth redirect for this provider.
 */
export type MessagingLoginCheck = { ok: true; account: ExternalAccount } | { ok: false; reason: 'signature' | 'expired' };

export interface MessagingPlatformProvider {
  /** `fields` as the widget sent them, values as decimal/strings (`hash` included). */
  verifyLogin(fields: Readonly<Record<string, string>>, now?: Date): MessagingLoginCheck;
}

/** Accepted clock skew for an `auth_date` slightly in the future. */
const FUTURE_SKEW_SECONDS = 300;

export function createMessagingPlatformProvider(opts: { botToken: string; maxAgeSeconds: number }): MessagingPlatformProvider {
  const secretKey = createHash('sha256').update(opts.botToken).digest();
  return {
    verifyLogin(fields, now = new Date()) {
      const { hash, ...signed } = fields;
      const dataCheckString = Object.keys(signed)
        .sort()
        .map((key) => `${key}=${signed[key]}`)
        .join('\n');
      const expected = createHmac('sha256', secretKey).update(dataCheckString).digest();
      const given = Buffer.from(hash ?? '', 'hex');
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { ok: false, reason: 'signature' };
      const ageSeconds = Math.floor(now.getTime() / 1000) - Number(signed.auth_date);
      if (!Number.isFinite(ageSeconds) || ageSeconds > opts.maxAgeSeconds || ageSeconds < -FUTURE_SKEW_SECONDS) return { ok: false, reason: 'expired' };
      return { ok: true, account: { externalId: signed.id, username: signed.username ?? null } };
    },
  };
}
