import { randomBytes, randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import { purgeInBatches } from '../../db/purge';
import { AppError } from '../../errors';
import { suiAddress } from '../../input/sui-address';
import { parseInput } from '../../input/validate';
import type { Logger } from '../../observability/logger';
import type { SignatureVerifier } from '../../providers/sui-signatures';
import { enforceRate } from '../../store/rate-limit';
import type { SharedStore } from '../../store/types';
import type { Hooks } from '../hooks';
import { hashOpaqueToken, newOpaqueToken } from './opaque-tokens';
import type { TokenService } from './tokens';

/** What a client gets after any login or refresh (the REST body and the GraphQL type). */
export interface TokenBody {
  accessToken: string;
  refreshToken: string;
  tokenType: 'Bearer';
  /** Access token lifetime in seconds. */
  expiresIn: number;
}

export interface LoginChallengeBody {
  nonce: string;
  /** The exact text the wallet signs (signPersonalMessage). */
  message: string;
  expiresAt: Date;
}

/** Who is asking, recorded on the refresh token row (never returned). */
export interface ClientMeta {
  ip?: string;
  userAgent?: string;
}

/** zkLogin's account resolution (src/services/auth/zklogin.ts): a verified ID token → its Sui address. */
export interface ZkLoginResolver {
  resolveAccount(idToken: string): Promise<{ address: string }>;
}

/** What the purge job removed. */
export interface AuthPurgeResult {
  challenges: number;
  refreshTokens: number;
}

export interface AuthService {
  /** A new challenge; each client IP may ask for `challengeRateLimit` of them per window. */
  challenge(input: unknown, meta: { ip: string }): Promise<LoginChallengeBody>;
  login(input: unknown, meta?: ClientMeta): Promise<TokenBody>;
  zkLogin(input: unknown, meta?: ClientMeta): Promise<TokenBody & { address: string }>;
  refresh(input: unknown, meta?: ClientMeta): Promise<TokenBody>;
  /** Revokes the refresh token's whole family; the token must be the caller's own. */
  logout(wallet: string, input: unknown): Promise<void>;
  /** Deletes every expired login challenge and refresh token, whatever its address (the purge job). */
  purgeExpired(signal?: AbortSignal): Promise<AuthPurgeResult>;
}

export interface AuthServiceDeps {
  db: Db;
  /** Where the per-IP challenge budget is counted, shared by every replica. */
  store: Pick<SharedStore, 'hit'>;
  tokens: TokenService;
  config: Pick<Config['auth'], 'domain' | 'appUrl' | 'challengeTtlSeconds' | 'challengeRateLimit' | 'refreshTtlSeconds'>;
  signatures: SignatureVerifier;
  logger: Logger;
  /** Set once the zkLogin service is wired; without it zkLogin answers SERVICE_UNAVAILABLE. */
  zkLogin?: ZkLoginResolver;
  now?: () => Date;
  /** Where successful logins are announced (`walletLoggedIn`), for the domains that react to them. */
  hooks?: Pick<Hooks, 'emit'>;
}

// ── inputs: one set of rules for REST and GraphQL ──

const address = suiAddress();
/** The longest serialized signature accepted (zkLogin signatures carry a proof: a few KiB). */
const MAX_SIGNATURE_CHARS = 16_384;
const base64 = /^[A-Za-z0-9+/]+={0,2}$/;

export const challengeInput = z.object({ address }).strict();
export const loginInput = z
  .object({
    address,
    message: z.string().min(1).max(2000),
    signature: z.string().min(1).max(MAX_SIGNATURE_CHARS).regex(base64, { error: 'must be a base64 serialized Sui signature' }),
  })
  .strict();
export const zkLoginInput = z.object({ idToken: z.string().min(1).max(MAX_SIGNATURE_CHARS) }).strict();
export const refreshInput = z.object({ refreshToken: z.string().min(1).max(200) }).strict();

// ── the signed message ──

/** The text a wallet signs; every field the server checks is on its own line. */
export function loginMessage(p: { domain: string; appUrl: string; address: string; nonce: string; issuedAt: Date; expiresAt: Date }): string {
  return [
    `${p.domain} wants you to sign in with your Sui account:`,
    p.address,
    '',
    `Sign in to ${p.domain}. This request does not send a transaction or cost gas.`,
    '',
    `URI: ${p.appUrl}`,
    `Nonce: ${p.nonce}`,
    `Issued At: ${p.issuedAt.toISOString()}`,
    `Expiration Time: ${p.expiresAt.toISOString()}`,
  ].join('\n');
}

const NONCE_LINE = /^Nonce: ([0-9a-f]{32})$/m;

const REFRESH_PREFIX = 'rt_';
/** First key of the two-key advisory lock a refresh-token family is serialised on ('RTKF'). */
const REFRESH_FAMILY_LOCK_CLASS = 0x52544b46;

export function createAuthService(deps: AuthServiceDeps): AuthService {
  const { db, tokens, config } = deps;
  const now = deps.now ?? (() => new Date());
  const log = deps.logger.child({ component: 'auth' });

  /** Stores a new refresh token (in `familyId`, or a new family) and returns the token body. */
  async function issue(
    tx: Pick<Db['prisma'], 'refreshToken'>,
    wallet: string,
    meta: ClientMeta,
    family: { familyId: string; id: string } = { familyId: randomUUID(), id: randomUUID() },
  ): Promise<TokenBody> {
    const refreshToken = newOpaqueToken(REFRESH_PREFIX);
    await tx.refreshToken.create({
      data: {
        id: family.id,
        subject: wallet,
        tokenHash: hashOpaqueToken(refreshToken),
        familyId: family.familyId,
        expiresAt: new Date(now().getTime() + config.refreshTtlSeconds * 1000),
        userAgent: meta.userAgent?.slice(0, 500),
        ip: meta.ip,
      },
    });
    return { accessToken: tokens.signAccess(wallet), refreshToken, tokenType: 'Bearer', expiresIn: tokens.accessTtlSeconds };
  }

  /**
   * A wallet's first login creates its profile; later ones find it. INSERT … ON CONFLICT DO NOTHING:
   * Prisma's upsert reads then inserts, so parallel first logins could hit the unique index.
   */
  const ensureProfile = (tx: Pick<Db['prisma'], 'profile'>, wallet: string) => tx.profile.createMany({ data: [{ walletAddress: wallet }], skipDuplicates: true });

  return {
    async challenge(input, { ip }) {
      const { address: wallet } = parseInput(challengeInput, input);
      // Each challenge is a row for any address: the per-IP budget bounds what one client can add between purges.
      const limit = config.challengeRateLimit;
      await enforceRate(deps.store, `auth-challenge:ip:${ip}`, limit, {
        scope: 'auth-challenge',
        message: (charge) => `Too many login challenges: limit is ${charge.limit} per ${limit.windowMs / 1000} s per client`,
      });
      const issuedAt = now();
      const expiresAt = new Date(issuedAt.getTime() + config.challengeTtlSeconds * 1000);
      const nonce = randomBytes(16).toString('hex');
      const message = loginMessage({ domain: config.domain, appUrl: config.appUrl, address: wallet, nonce, issuedAt, expiresAt });
      await db.prisma.loginChallenge.create({ data: { address: wallet, nonce, message, expiresAt } });
      return { nonce, message, expiresAt };
    },

    async login(input, meta = {}) {
      const { address: wallet, message, signature } = parseInput(loginInput, input);
      const nonce = NONCE_LINE.exec(message)?.[1];
      const challenge = nonce ? await db.prisma.loginChallenge.findUnique({ where: { nonce } }) : null;
      if (!challenge || challenge.address !== wallet) throw new AppError('CHALLENGE_INVALID', 'No login challenge was issued for this message and address; request a new one');
      if (challenge.message !== message) throw new AppError('CHALLENGE_INVALID', 'The message differs from the one issued; sign the exact challenge message');
      if (challenge.consumedAt) throw new AppError('CHALLENGE_INVALID', 'This challenge was already used; request a new one');
      if (challenge.expiresAt <= now()) throw new AppError('CHALLENGE_EXPIRED', 'The challenge has expired; request a new one');

      const check = await deps.signatures.verifyPersonalMessage(new TextEncoder().encode(message), signature, wallet);
      if (check === 'chain-unavailable') throw new AppError('UPSTREAM_UNAVAILABLE', 'The chain could not be reached to check this signature; try again');
      if (check === 'invalid') throw new AppError('SIGNATURE_INVALID', 'The signature does not sign this message with the given address');

      const body = await db.prisma.$transaction(async (tx) => {
        // The one write that decides between parallel logins with one challenge.
        const consumed = await tx.loginChallenge.updateMany({ where: { id: challenge.id, consumedAt: null, expiresAt: { gt: now() } }, data: { consumedAt: now() } });
        if (consumed.count !== 1) throw new AppError('CHALLENGE_INVALID', 'This challenge was already used; request a new one');
        await ensureProfile(tx, wallet);
        return issue(tx, wallet, meta);
      });
      log.info({ wallet, method: 'wallet' }, 'login');
      deps.hooks?.emit('walletLoggedIn', { wallet, at: now() });
      return body;
    },

    async zkLogin(input, meta = {}) {
      const { idToken } = parseInput(zkLoginInput, input);
      if (!deps.zkLogin) throw new AppError('SERVICE_UNAVAILABLE', 'zkLogin is not configured on this server');
      const { address: wallet } = await deps.zkLogin.resolveAccount(idToken);
      const body = await db.prisma.$transaction(async (tx) => {
        await ensureProfile(tx, wallet);
        return issue(tx, wallet, meta);
      });
      log.info({ wallet, method: 'zklogin' }, 'login');
      deps.hooks?.emit('walletLoggedIn', { wallet, at: now() });
      return { ...body, address: wallet };
    },

    async refresh(input, meta = {}) {
      const { refreshToken } = parseInput(refreshInput, input);
      const current = await db.prisma.refreshToken.findUnique({ where: { tokenHash: hashOpaqueToken(refreshToken) } });
      if (!current || current.revokedAt) throw new AppError('REFRESH_TOKEN_INVALID', 'The refresh token is not valid; log in again');
      if (current.replacedById) {
        await revokeFamily(current.familyId, 'reuse');
        throw new AppError('REFRESH_TOKEN_REUSED', 'This refresh token was already used; every session of its login is now revoked, log in again');
      }
      if (current.expiresAt <= now()) throw new AppError('REFRESH_TOKEN_INVALID', 'The refresh token has expired; log in again');
      const next = { familyId: current.familyId, id: randomUUID() };
      const outcome = await db.prisma.$transaction(async (tx) => {
        await lockFamily(tx, current.familyId);
        // Read again under the family lock: a logout or another refresh may have committed meanwhile.
        const row = await tx.refreshToken.findUnique({ where: { id: current.id }, select: { replacedById: true, revokedAt: true } });
        if (!row || row.revokedAt) return 'revoked' as const;
        if (row.replacedById) return 'reused' as const;
        await tx.refreshToken.update({ where: { id: current.id }, data: { replacedById: next.id } });
        return issue(tx, current.subject, meta, next);
      });
      if (outcome === 'revoked') throw new AppError('REFRESH_TOKEN_INVALID', 'The refresh token is not valid; log in again');
      if (outcome === 'reused') {
        await revokeFamily(current.familyId, 'reuse');
        throw new AppError('REFRESH_TOKEN_REUSED', 'This refresh token was already used; every session of its login is now revoked, log in again');
      }
      return outcome;
    },

    async logout(wallet, input) {
      const { refreshToken } = parseInput(refreshInput, input);
      const current = await db.prisma.refreshToken.findUnique({ where: { tokenHash: hashOpaqueToken(refreshToken) } });
      if (!current || current.subject !== wallet) throw new AppError('REFRESH_TOKEN_INVALID', 'The refresh token is not one of your sessions');
      await revokeFamily(current.familyId, 'logout');
    },

    async purgeExpired(signal) {
      const cutoff = now();
      // An expired refresh token is refused whatever its family's state, so its row (and reuse detection through it) has no further use.
      const challenges = await purgeInBatches(
        (limit) => db.prisma.$executeRaw`DELETE FROM login_challenge WHERE id IN (SELECT id FROM login_challenge WHERE expires_at < ${cutoff} LIMIT ${limit})`,
        signal,
      );
      const refreshTokens = await purgeInBatches(
        (limit) => db.prisma.$executeRaw`DELETE FROM refresh_token WHERE id IN (SELECT id FROM refresh_token WHERE expires_at < ${cutoff} LIMIT ${limit})`,
        signal,
      );
      if (challenges + refreshTokens > 0) log.info({ challenges, refreshTokens }, 'expired login challenges and refresh tokens purged');
      return { challenges, refreshTokens };
    },
  };

  /**
   * Refresh and revocation of one family take this transaction lock, so a revocation's UPDATE runs
   * after a racing rotation has committed and so also revokes the token that rotation issued
   * (under READ COMMITTED an UPDATE never sees rows inserted after it started).
   */
  async function lockFamily(tx: Pick<Db['prisma'], '$queryRaw'>, familyId: string): Promise<void> {
    await tx.$queryRaw`SELECT pg_advisory_xact_lock(${REFRESH_FAMILY_LOCK_CLASS}::int, hashtext(${familyId}))::text`;
  }

  async function revokeFamily(familyId: string, reason: 'reuse' | 'logout'): Promise<void> {
    const { count } = await db.prisma.$transaction(async (tx) => {
      await lockFamily(tx, familyId);
      return tx.refreshToken.updateMany({ where: { familyId, revokedAt: null }, data: { revokedAt: now() } });
    });
    if (reason === 'reuse') log.warn({ familyId, revoked: count }, 'refresh token reused: its family is revoked');
    else log.info({ familyId, revoked: count }, 'logout');
  }
}
