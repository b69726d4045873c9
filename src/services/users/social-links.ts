import { z } from 'zod';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import { AppError } from '../../errors';
import { Prisma } from '../../generated/prisma/client';
import { parseInput } from '../../input/validate';
import type { Logger } from '../../observability/logger';
import type { ExternalAccount, OAuthAccountProvider } from '../../providers/oauth';
import { createChatPlatformProvider } from '../../providers/social-chat-platform';
import { createMessagingPlatformProvider, type MessagingPlatformProvider } from '../../providers/social-messaging-platform';
import { createSocialNetworkProvider } from '../../providers/social-network';
import type { SharedStore } from '../../store';
import { OAUTH_PROVIDERS, SOCIAL_PROVIDERS, type OAuthProviderName, type SocialProviderName } from './model';


/** How long a started OAuth connect may take before its `state` is forgotten. */
export const OAUTH_STATE_TTL_MS = 10 * 60 * 1000;

export interface SocialLinkView {
  provider: SocialProviderName;
  externalId: string;
  username: string | null;
  linkedAt: Date;
}

/** The provider's answer as the callback URL carries it. */
export interface OAuthCallbackQuery {
  code?: string;
  state?: string;
  error?: string;
  error_description?: string;
  iss?: string;
}

export interface SocialLinksService {
  list(wallet: string): Promise<SocialLinkView[]>;
  /** Starts an OAuth connect: the URL to send the browser to (its state is bound to `wallet`, single use, 10 minutes). */
  connect(wallet: string, provider: unknown): Promise<{ authorizationUrl: string }>;
  /** The provider sent the browser back: redeems the code and links the account to the wallet that started. */
  completeOAuth(provider: unknown, query: OAuthCallbackQuery): Promise<{ wallet: string; link: SocialLinkView }>;
  /** Links the messaging platform's signed login payload (its widget's fields, as sent). */
  linkMessagingPlatform(wallet: string, payload: unknown): Promise<SocialLinkView>;
  /** Idempotent: unlinking a provider that is not linked succeeds too. */
  disconnect(wallet: string, provider: unknown): Promise<void>;
  /** The redirect URI registered with each OAuth provider. */
  redirectUri(provider: OAuthProviderName): string;
  /** Where the callback sends the browser: the profile page, naming the linked provider or the refusal's code. */
  returnUrl(outcome: { provider: string; linked: true } | { provider: string; errorCode: string }): string;
}

export interface SocialLinksDeps {
  db: Db;
  store: SharedStore;
  config: Pick<Config, 'social'> & { auth: Pick<Config['auth'], 'appUrl'> };
  logger: Logger;
}

// ── inputs: one set of rules for REST and GraphQL ──

export const socialProviderInput = z.enum(SOCIAL_PROVIDERS, { error: `provider must be one of ${SOCIAL_PROVIDERS.join(', ')}` });
const oauthProviderInput = z.enum(OAUTH_PROVIDERS, {
  error: `provider must be one of ${OAUTH_PROVIDERS.join(', ')} (messaging_platform links with its signed login payload)`,
});
/** openid-client's random state is 43 base64url characters; anything far from that shape is refused unread. */
const stateInput = z.string().regex(/^[A-Za-z0-9_-]{16,128}$/);

const decimalId = z.union([z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER), z.string().regex(/^\d{1,20}$/)]).transform(String);
/** The messaging platform's login widget payload; unknown extra fields are kept because the hash covers them. */
export const messagingLoginInput = z
  .object({
    id: decimalId,
    auth_date: decimalId,
    hash: z.string().regex(/^[0-9a-fA-F]{64}$/, { error: 'hash must be 64 hex characters' }),
    first_name: z.string().max(256).optional(),
    last_name: z.string().max(256).optional(),
    username: z.string().max(64).optional(),
    photo_url: z.string().max(2048).optional(),
  })
  .catchall(z.union([z.string().max(2048), z.number().finite()]).transform(String))
  .refine((fields) => Object.keys(fields).length <= 20, { error: 'too many fields' });

// ── the service ──

const stateKey = (state: string) => `social:oauth-state:${state}`;
const stateSpentKey = (state: string) => `social:oauth-state-spent:${state}`;

interface PendingConnect {
  wallet: string;
  provider: OAuthProviderName;
  codeVerifier: string;
}

export function createSocialLinksService(deps: SocialLinksDeps): SocialLinksService {
  const { prisma } = deps.db;
  const { social, auth } = deps.config;
  const log = deps.logger.child({ component: 'social-links' });
  const oauthProviders: Record<OAuthProviderName, OAuthAccountProvider | undefined> = {
    chat_platform: social.chatPlatform && createChatPlatformProvider(social.chatPlatform),
    social_network: social.socialNetwork && createSocialNetworkProvider(social.socialNetwork),
  };
  const messaging: MessagingPlatformProvider | undefined = social.messagingPlatform && createMessagingPlatformProvider(social.messagingPlatform);

  const notConfigured = (provider: SocialProviderName) =>
    new AppError('SERVICE_UNAVAILABLE', `Social provider ${provider} is not configured on this server`, { provider });
  const oauthProvider = (provider: OAuthProviderName): OAuthAccountProvider => {
    const adapter = oauthProviders[provider];
    if (!adapter) throw notConfigured(provider);
    return adapter;
  };
  const redirectUri = (provider: OAuthProviderName) => `${auth.appUrl}/api/users/social/${provider}/callback`;

  /** Reads and spends a state: unknown, expired, reused or foreign states all answer OAUTH_STATE_INVALID. */
  async function spendState(provider: OAuthProviderName, rawState: unknown): Promise<PendingConnect & { state: string }> {
    const invalid = () => new AppError('OAUTH_STATE_INVALID', 'The OAuth state is unknown, expired, already used or belongs to another provider; connect again');
    const parsed = stateInput.safeParse(rawState);
    if (!parsed.success) throw invalid();
    const state = parsed.data;
    const stored = await deps.store.get(stateKey(state));
    if (stored === null) throw invalid();
    // The first spender wins atomically (one counter shared by every replica); a parallel second is refused.
    const { count } = await deps.store.hit(stateSpentKey(state), OAUTH_STATE_TTL_MS);
    if (count !== 1) throw invalid();
    await deps.store.del(stateKey(state));
    const pending = JSON.parse(stored) as PendingConnect;
    if (pending.provider !== provider) throw invalid();
    return { ...pending, state };
  }

  async function ensureProfileId(wallet: string): Promise<string> {
    try {
      const profile = await prisma.profile.upsert({ where: { walletAddress: wallet }, create: { walletAddress: wallet }, update: {}, select: { id: true } });
      return profile.id;
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
      // A parallel first request created it between the upsert's read and insert.
      return (await prisma.profile.findUniqueOrThrow({ where: { walletAddress: wallet }, select: { id: true } })).id;
    }
  }

  /** Links (or re-links: the provider's previous account on this profile is replaced) under the DB's two unique rules. */
  async function link(wallet: string, provider: SocialProviderName, account: ExternalAccount): Promise<SocialLinkView> {
    const profileId = await ensureProfileId(wallet);
    const write = () =>
      prisma.socialLink.upsert({
        where: { profileId_provider: { profileId, provider } },
        create: { profileId, provider, externalId: account.externalId, username: account.username },
        update: { externalId: account.externalId, username: account.username, linkedAt: new Date() },
      });
    for (let attempt = 1; ; attempt++) {
      try {
        const row = await write();
        log.info({ provider, wallet }, 'social account linked');
        return toView(row);
      } catch (err) {
        if (!isUniqueViolation(err)) throw err;
        const owner = await prisma.socialLink.findUnique({ where: { provider_externalId: { provider, externalId: account.externalId } }, select: { profileId: true } });
        if (owner && owner.profileId !== profileId) {
          throw new AppError('ACCOUNT_ALREADY_LINKED', `This ${provider} account is already linked to another profile; unlink it there first`, { provider });
        }
        // A parallel link of this profile won the insert: one more upsert now updates its row.
        if (attempt >= 2) throw err;
      }
    }
  }

  return {
    async list(wallet) {
      const rows = await prisma.socialLink.findMany({ where: { profile: { walletAddress: wallet } }, orderBy: { provider: 'asc' } });
      return rows.map(toView);
    },

    async connect(wallet, rawProvider) {
      const provider = parseInput(oauthProviderInput, rawProvider);
      const started = await oauthProvider(provider).start(redirectUri(provider));
      const pending: PendingConnect = { wallet, provider, codeVerifier: started.codeVerifier };
      await deps.store.set(stateKey(started.state), JSON.stringify(pending), OAUTH_STATE_TTL_MS);
      return { authorizationUrl: started.authorizationUrl };
    },

    async completeOAuth(rawProvider, query) {
      const provider = parseInput(oauthProviderInput, rawProvider);
      const adapter = oauthProvider(provider);
      const pending = await spendState(provider, query.state);
      const callbackUrl = new URL(redirectUri(provider));
      for (const [key, value] of Object.entries(query)) if (typeof value === 'string') callbackUrl.searchParams.set(key, value);
      const account = await adapter.complete(callbackUrl, { state: pending.state, codeVerifier: pending.codeVerifier });
      return { wallet: pending.wallet, link: await link(pending.wallet, provider, account) };
    },

    async linkMessagingPlatform(wallet, payload) {
      if (!messaging) throw notConfigured('messaging_platform');
      const fields = parseInput(messagingLoginInput, payload) as Record<string, string>;
      const check = messaging.verifyLogin(fields);
      if (!check.ok && check.reason === 'signature') throw new AppError('SIGNATURE_INVALID', 'The messaging_platform login payload is not signed by the platform');
      if (!check.ok) throw new AppError('SOCIAL_PAYLOAD_EXPIRED', 'The messaging_platform login payload is too old; log in with the platform again');
      return link(wallet, 'messaging_platform', check.account);
    },

    async disconnect(wallet, rawProvider) {
      const provider = parseInput(socialProviderInput, rawProvider);
      const { count } = await prisma.socialLink.deleteMany({ where: { provider, profile: { walletAddress: wallet } } });
      if (count > 0) log.info({ provider, wallet }, 'social account unlinked');
    },

    redirectUri,

    returnUrl(outcome) {
      const url = new URL(`${auth.appUrl}/profile`);
      if ('linked' in outcome) url.searchParams.set('linked', outcome.provider);
      else {
        url.searchParams.set('linkError', outcome.errorCode);
        url.searchParams.set('provider', outcome.provider);
      }
      return url.href;
    },
  };
}

const toView = (row: { provider: SocialProviderName; externalId: string; username: string | null; linkedAt: Date }): SocialLinkView => ({
  provider: row.provider,
  externalId: row.externalId,
  username: row.username,
  linkedAt: row.linkedAt,
});

const isUniqueViolation = (err: unknown): boolean => err instanceof Prisma.PrismaClientKnownRequestError && err.code === 'P2002';
