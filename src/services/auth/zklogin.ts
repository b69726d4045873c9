import type { Config } from '../../config';
import type { Db } from '../../db/client';
import { AppError } from '../../errors';
import type { Logger } from '../../observability/logger';
import { createIdentityProvider, type IdentityProvider, type IdTokenClaims, type IdTokenRefusal } from '../../providers/identity-provider';
import { createZkLoginSaltService, type ZkLoginSaltService } from '../../providers/zklogin-service';

/** A zkLogin identity as its wallet may see it (the salt never leaves the database). */
export interface ZkLoginIdentityView {
  issuer: string;
  audience: string;
  subject: string;
  email: string | null;
  createdAt: Date;
  lastLoginAt: Date | null;
}

export interface ZkLoginService {
  /** Verifies the ID token, asks the salt service for its address and records the identity (created or found). */
  resolveAccount(idToken: string): Promise<{ address: string; created: boolean }>;
  /** The zkLogin identities collected for this wallet. */
  identities(wallet: string): Promise<ZkLoginIdentityView[]>;
}

export interface ZkLoginServiceDeps {
  db: Db;
  config: Config['auth']['zkLogin'];
  logger: Logger;
  /** Defaults: the adapters built from `config`. */
  identityProvider?: IdentityProvider;
  saltService?: ZkLoginSaltService;
  now?: () => Date;
}

/** The longest ID token accepted (Google's are ~1 KiB; the zkLogin circuit caps JWTs far below this). */
export const MAX_ID_TOKEN_CHARS = 8192;

const REFUSAL_MESSAGES: Record<IdTokenRefusal, string> = {
  malformed: 'The ID token is not a well-formed JWT',
  unsupported_algorithm: 'The ID token is not signed with an accepted algorithm',
  unknown_key: "The ID token is signed with a key the identity provider doesn't publish",
  bad_signature: 'The ID token signature does not verify',
  wrong_issuer: 'The ID token was issued by another identity provider',
  wrong_audience: 'The ID token was issued to another client',
  expired: 'The ID token has expired; log in with the identity provider again',
  not_yet_valid: 'The ID token is not valid yet',
  missing_nonce: 'The ID token carries no nonce (zkLogin binds the ephemeral key through it)',
};

const SELECT_VIEW = { issuer: true, audience: true, subject: true, email: true, createdAt: true, lastLoginAt: true } as const;

/** The address the salt service must have derived: the same (iss, aud, sub, salt) in either address form. */
async function derivesAddress(claims: IdTokenClaims, salt: string, address: string): Promise<boolean> {
  // Loaded on the first zkLogin login: its Poseidon constants cost every API start about 80 ms.
  const { computeZkLoginAddress } = await import('@mysten/sui/zklogin');
  try {
    return [false, true].some(
      (legacyAddress) => computeZkLoginAddress({ claimName: 'sub', claimValue: claims.sub, iss: claims.iss, aud: claims.aud, userSalt: salt, legacyAddress }) === address,
    );
  } catch {
    return false;
  }
}

export function createZkLoginService(deps: ZkLoginServiceDeps): ZkLoginService {
  const { config, db } = deps;
  const log = deps.logger.child({ component: 'zklogin' });
  const now = deps.now ?? (() => new Date());
  const configured = config.clientIds.length > 0 && Boolean(config.serviceKey);
  const identity =
    deps.identityProvider ?? createIdentityProvider({ issuer: config.issuer, jwksUrl: config.jwksUrl, clientIds: config.clientIds, now: deps.now });
  const salts = deps.saltService ?? (config.serviceKey ? createZkLoginSaltService({ url: config.serviceUrl, key: config.serviceKey }) : undefined);

  async function verify(idToken: string): Promise<IdTokenClaims> {
    if (typeof idToken !== 'string' || !idToken || idToken.length > MAX_ID_TOKEN_CHARS) {
      throw new AppError('ID_TOKEN_INVALID', REFUSAL_MESSAGES.malformed, { reason: 'malformed' });
    }
    const result = await identity.verifyIdToken(idToken);
    if (!result.ok) {
      log.info({ reason: result.reason }, 'zkLogin ID token refused');
      throw new AppError('ID_TOKEN_INVALID', REFUSAL_MESSAGES[result.reason], { reason: result.reason });
    }
    return result.claims;
  }

  return {
    async resolveAccount(idToken) {
      if (!configured || !salts) throw new AppError('SERVICE_UNAVAILABLE', 'zkLogin is not configured on this server');
      const claims = await verify(idToken);
      const { salt, address } = await salts.lookup(idToken);
      if (!(await derivesAddress(claims, salt, address))) {
        log.error({ issuer: claims.iss, audience: claims.aud }, 'zkLogin service answered an address its salt does not derive');
        throw new AppError('UPSTREAM_UNAVAILABLE', 'The zkLogin service answered an inconsistent address; try again');
      }
      const at = now();
      const identityKey = { issuer: claims.iss, subject: claims.sub, audience: claims.aud };
      // ON CONFLICT DO NOTHING: concurrent first logins of one identity insert one row, the rest find it.
      const { count } = await db.prisma.zkLoginAccount.createMany({
        data: [{ ...identityKey, address, salt, email: claims.email, lastLoginAt: at }],
        skipDuplicates: true,
      });
      const row = await db.prisma.zkLoginAccount.findUnique({ where: { issuer_subject_audience: identityKey }, select: { id: true, address: true } });
      if (!row || row.address !== address) {
        log.error({ issuer: claims.iss, audience: claims.aud, address }, 'zkLogin identity and address disagree with the stored account');
        throw new AppError('CONFLICT', 'This zkLogin identity and address disagree with an existing account');
      }
      if (count === 0) {
        await db.prisma.zkLoginAccount.update({ where: { id: row.id }, data: { lastLoginAt: at, ...(claims.email ? { email: claims.email } : {}) } });
      }
      log.info({ address, issuer: claims.iss, audience: claims.aud, created: count === 1 }, 'zkLogin account resolved');
      return { address, created: count === 1 };
    },

    identities(wallet) {
      return db.prisma.zkLoginAccount.findMany({ where: { address: wallet }, select: SELECT_VIEW, orderBy: { createdAt: 'asc' } });
    },
  };
}
