import { z } from 'zod';
import type { Config } from '../../config';
import type { Db, QueryOptions } from '../../db/client';
import { AppError } from '../../errors';
import { isStorableText, UNSTORABLE_TEXT_MESSAGE } from '../../input/storable-text';
import { parseInput } from '../../input/validate';
import type { Mailer } from '../../providers/mailer';
import type { SharedStore } from '../../store';
import { enforceRate, retryAfterSeconds } from '../../store/rate-limit';
import { hashOpaqueToken, newOpaqueToken } from '../auth';
import { emailVerificationMail } from './mail';

/**
 * A profile as clients see it (REST body and GraphQL `Profile`). Social links are not part of
 * it: services/users/social-links.ts serves them, and the GraphQL `Profile` type (resolvers/users.ts)
 * is the type its field resolver extends.
 */
export interface ProfileView {
  walletAddress: string;
  displayName: string | null;
  avatarUrl: string | null;
  bio: string | null;
  /** The verified address; an address being verified is not shown here. */
  email: string | null;
  emailVerified: boolean;
  /** ISO 8601 */
  emailVerifiedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface EmailVerificationStarted {
  /** The address the mail went to (normalized: trimmed, lower case). */
  email: string;
  /** ISO 8601: when the link stops working. */
  expiresAt: string;
}

export interface EmailVerified {
  email: string;
  emailVerifiedAt: string;
}

/** What anyone may see of a wallet's profile (leaderboards, feeds): no email, no bio. */
export interface PublicProfile {
  walletAddress: string;
  displayName: string | null;
  avatarUrl: string | null;
}

export interface UsersService {
  /** The caller's profile, created on first use (idempotent under parallel calls). */
  me(wallet: string): Promise<ProfileView>;
  /** Public profiles of these wallets in one statement (DataLoader batches); a wallet without a profile is absent. */
  publicProfiles(wallets: readonly string[], opts?: QueryOptions): Promise<Map<string, PublicProfile>>;
  /** Changes only the given fields; `null` clears one. */
  updateProfile(wallet: string, input: unknown): Promise<ProfileView>;
  /** `{ email }`: mails a single-use link; older links of this profile stop working. */
  startEmailVerification(wallet: string, input: unknown): Promise<EmailVerificationStarted>;
  /** `{ token }` from the link: sets the profile's email and emailVerifiedAt, once. */
  verifyEmail(input: unknown): Promise<EmailVerified>;
}

export interface UsersServiceDeps {
  db: Db;
  store: SharedStore;
  mailer: Mailer;
  config: Pick<Config['auth'], 'appUrl' | 'emailTokenTtlSeconds'>;
  /** Development only: avatar URLs may be http on localhost (a local image server). */
  allowLocalHttpUrls: boolean;
  /** Verification mails one profile may trigger per hour (default 5). */
  mailsPerHour?: number;
  now?: () => Date;
}

// ── inputs: one set of rules for REST and GraphQL ──

const DISPLAY_NAME_MAX = 32;
const BIO_MAX = 280;
const AVATAR_URL_MAX = 2048;
const EMAIL_MAX = 254;

/** Lengths count characters (code points), as JSON Schema's maxLength does, not UTF-16 units. */
const characters = (s: string): number => [...s].length;
const CONTROL = /\p{Cc}/u;
/** Bidirectional overrides and isolates: they let a name render as a different name. */
const BIDI_CONTROL = /[\u202A-\u202E\u2066-\u2069]/u;
const CONTROL_EXCEPT_LINE_BREAKS = /(?![\n\r\t])\p{Cc}/u;
const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

const storableText = () => z.string().refine(isStorableText, UNSTORABLE_TEXT_MESSAGE);

const displayName = storableText()
  .trim()
  .refine((s) => s.length > 0, 'must not be empty (send null to clear it)')
  .refine((s) => characters(s) <= DISPLAY_NAME_MAX, `must be at most ${DISPLAY_NAME_MAX} characters`)
  .refine((s) => !CONTROL.test(s) && !BIDI_CONTROL.test(s), 'must not contain control or text-direction characters')
  .meta({ minLength: 1, maxLength: DISPLAY_NAME_MAX, description: `1–${DISPLAY_NAME_MAX} characters after trimming; null clears it` });

const bio = storableText()
  .trim()
  .refine((s) => characters(s) <= BIO_MAX, `must be at most ${BIO_MAX} characters`)
  .refine((s) => !CONTROL_EXCEPT_LINE_BREAKS.test(s), 'must not contain control characters other than line breaks and tabs')
  .meta({ maxLength: BIO_MAX, description: `At most ${BIO_MAX} characters; line breaks allowed; "" or null clears it` });

function avatarUrl(allowLocalHttp: boolean) {
  const acceptable = (s: string): boolean => {
    const url = URL.parse(s);
    if (!url || url.username || url.password) return false;
    return url.protocol === 'https:' || (allowLocalHttp && url.protocol === 'http:' && LOCAL_HOSTS.has(url.hostname));
  };
  return storableText()
    .trim()
    .max(AVATAR_URL_MAX, `must be at most ${AVATAR_URL_MAX} characters`)
    .refine(acceptable, 'must be an absolute https URL without credentials')
    .meta({ format: 'uri', description: 'Absolute https URL of the avatar image; null clears it' });
}

const email = storableText()
  .trim()
  .toLowerCase()
  .max(EMAIL_MAX, `must be at most ${EMAIL_MAX} characters`)
  .pipe(z.email({ error: 'must be an email address' }))
  .meta({ format: 'email', description: 'Trimmed and lower-cased before it is stored' });

export const profilePatchInput = (allowLocalHttpUrls: boolean) =>
  z.strictObject({
    displayName: displayName.nullable().optional(),
    avatarUrl: avatarUrl(allowLocalHttpUrls).nullable().optional(),
    bio: bio.nullable().optional(),
  });
export const startEmailVerificationInput = z.strictObject({ email });
export const verifyEmailInput = z.strictObject({
  token: storableText().min(1, 'must not be empty').max(200).meta({ description: 'The `token` parameter of the link in the mail' }),
});

// ── the service ──

const HOUR_MS = 3_600_000;
const VERIFICATION_MAIL = 'email-verification';
const isUniqueViolation = (err: unknown): boolean => (err as { code?: unknown })?.code === 'P2002';
const invalidToken = () => new AppError('EMAIL_TOKEN_INVALID', 'This verification link is not valid or was already used');
const iso = (d: Date | null): string | null => (d ? d.toISOString() : null);

type ProfileRow = NonNullable<Awaited<ReturnType<Db['prisma']['profile']['findUnique']>>>;

function toView(row: ProfileRow): ProfileView {
  return {
    walletAddress: row.walletAddress,
    displayName: row.displayName,
    avatarUrl: row.avatarUrl,
    bio: row.bio,
    email: row.email,
    emailVerified: row.emailVerifiedAt !== null,
    emailVerifiedAt: iso(row.emailVerifiedAt),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export function createUsersService(deps: UsersServiceDeps): UsersService {
  const { db, store, mailer, config } = deps;
  const clock = deps.now ?? (() => new Date());
  const mailsPerHour = deps.mailsPerHour ?? 5;
  const patchInput = profilePatchInput(deps.allowLocalHttpUrls);

  /** Found, or created by INSERT … ON CONFLICT DO NOTHING: parallel first calls make one row. */
  async function ensureProfile(wallet: string): Promise<ProfileRow> {
    const found = await db.prisma.profile.findUnique({ where: { walletAddress: wallet } });
    if (found) return found;
    await db.prisma.profile.createMany({ data: [{ walletAddress: wallet }], skipDuplicates: true });
    return db.prisma.profile.findUniqueOrThrow({ where: { walletAddress: wallet } });
  }

  /** Counted in the shared store, so every replica sees one budget per profile. */
  async function chargeMail(profileId: string): Promise<void> {
    await enforceRate(store, `users:verification-mail:${profileId}`, { max: mailsPerHour, windowMs: HOUR_MS }, {
      scope: 'profile',
      message: (charge) => `At most ${mailsPerHour} verification mails per hour; try again in ${retryAfterSeconds(charge.resetMs)} s`,
    });
  }

  return {
    async me(wallet) {
      return toView(await ensureProfile(wallet));
    },
    async publicProfiles(wallets, opts) {
      const rows = await db.query<{ wallet_address: string; display_name: string | null; avatar_url: string | null }>(
        'SELECT wallet_address, display_name, avatar_url FROM profile WHERE wallet_address = ANY($1::text[])',
        [wallets],
        opts,
      );
      return new Map(rows.map((r) => [r.wallet_address, { walletAddress: r.wallet_address, displayName: r.display_name, avatarUrl: r.avatar_url }]));
    },

    async updateProfile(wallet, input) {
      const patch = parseInput(patchInput, input);
      const data: { displayName?: string | null; avatarUrl?: string | null; bio?: string | null } = {};
      if (patch.displayName !== undefined) data.displayName = patch.displayName;
      if (patch.avatarUrl !== undefined) data.avatarUrl = patch.avatarUrl;
      if (patch.bio !== undefined) data.bio = patch.bio === '' ? null : patch.bio;
      const profile = await ensureProfile(wallet);
      if (Object.keys(data).length === 0) return toView(profile);
      return toView(await db.prisma.profile.update({ where: { id: profile.id }, data }));
    },

    async startEmailVerification(wallet, input) {
      const { email: address } = parseInput(startEmailVerificationInput, input);
      mailer.assertConfigured(VERIFICATION_MAIL);
      const profile = await ensureProfile(wallet);
      if (profile.email === address && profile.emailVerifiedAt) throw new AppError('CONFLICT', 'This address is already verified on your profile');
      const owner = await db.prisma.profile.findUnique({ where: { email: address }, select: { id: true } });
      if (owner && owner.id !== profile.id) throw new AppError('CONFLICT', 'This address is verified on another profile');
      await chargeMail(profile.id);

      const token = newOpaqueToken();
      const hash = hashOpaqueToken(token);
      const expiresAt = new Date(clock().getTime() + config.emailTokenTtlSeconds * 1000);
      await db.prisma.$transaction(async (tx) => {
        // One live link per profile: starts for the same profile take turns on its row.
        await tx.$queryRaw`SELECT 1 FROM profile WHERE id = ${profile.id}::uuid FOR UPDATE`;
        await tx.emailVerificationToken.deleteMany({ where: { profileId: profile.id } });
        await tx.emailVerificationToken.create({ data: { profileId: profile.id, email: address, tokenHash: hash, expiresAt } });
      });
      const link = `${config.appUrl}/verify-email?token=${token}`;
      try {
        await mailer.send(emailVerificationMail({ to: address, link, ttlSeconds: config.emailTokenTtlSeconds, expiresAt, purpose: VERIFICATION_MAIL }));
      } catch (err) {
        await db.prisma.emailVerificationToken.deleteMany({ where: { tokenHash: hash } });
        throw err;
      }
      return { email: address, expiresAt: expiresAt.toISOString() };
    },

    async verifyEmail(input) {
      const { token } = parseInput(verifyEmailInput, input);
      const hash = hashOpaqueToken(token);
      const now = clock();
      try {
        return await db.prisma.$transaction(async (tx) => {
          const found = await tx.emailVerificationToken.findUnique({ where: { tokenHash: hash }, select: { profileId: true } });
          if (!found) throw invalidToken();
          // Profile row first, then the token (as a new start does): concurrent verify and start cannot deadlock.
          await tx.$queryRaw`SELECT 1 FROM profile WHERE id = ${found.profileId}::uuid FOR UPDATE`;
          // One statement decides who consumes the token: a parallel request finds consumed_at set.
          const [claimed] = await tx.$queryRaw<Array<{ profile_id: string; email: string }>>`
            UPDATE email_verification_token SET consumed_at = ${now.toISOString()}::timestamptz
            WHERE token_hash = ${hash} AND consumed_at IS NULL AND expires_at > ${now.toISOString()}::timestamptz
            RETURNING profile_id::text, email`;
          if (!claimed) {
            const row = await tx.emailVerificationToken.findUnique({ where: { tokenHash: hash }, select: { consumedAt: true } });
            if (row && !row.consumedAt) throw new AppError('EMAIL_TOKEN_EXPIRED', 'This verification link has expired; ask for a new one');
            throw invalidToken();
          }
          const owner = await tx.profile.findUnique({ where: { email: claimed.email }, select: { id: true } });
          if (owner && owner.id !== claimed.profile_id) throw new AppError('CONFLICT', 'This address is verified on another profile');
          const profile = await tx.profile.update({ where: { id: claimed.profile_id }, data: { email: claimed.email, emailVerifiedAt: now } });
          return { email: claimed.email, emailVerifiedAt: profile.emailVerifiedAt!.toISOString() };
        });
      } catch (err) {
        // Two profiles verifying one address at once: the unique index lets one win.
        if (isUniqueViolation(err)) throw new AppError('CONFLICT', 'This address is verified on another profile');
        throw err;
      }
    },
  };
}
