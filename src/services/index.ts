import type { PubSub } from 'type-graphql';
import type { Registry } from 'prom-client';
import type { Config } from '../config';
import type { Db } from '../db/client';
import type { SharedStore } from '../store';
import type { Logger } from '../observability/logger';
import { createSignatureVerifier } from '../providers/sui-signatures';
import { createMailer } from '../providers/mailer';
import { createIpCheck } from '../providers/ip-check';
import { createPriceSource } from '../providers/price-source';
import { createGiftService, type GiftService } from './gifts';
import { createJobRunsService, type JobRunsService } from './job-runs';
import { createPriceService, type PriceService } from './prices';
import { createActivityService, type ActivityService } from './activity';
import { createFanout } from '../store/fanout';
import { createChatPlatformRelay } from '../providers/chat-platform';
import { createChatService, type ChatService } from './chat';
import { createPresenceService, type PresenceService } from './presence';
import { createAuthService, type AuthService } from './auth';
import { createIndexerStatusService, type IndexerStatusService } from './indexer-status';
import { createBlogService, type BlogService } from './blog';
import { createLeaderboardService, type LeaderboardService } from './leaderboards';
import { createQuestService, type QuestService } from './quests';
import { createSocialLinksService, type SocialLinksService } from './social-links';
import { createSystemService, type SystemService } from './system';
import { createTokenService, type TokenService } from './tokens';
import { createUsersService, type UsersService } from './users';
import { createZkLoginService, type ZkLoginService } from './zklogin';
import { createAnalyticsProvider } from '../providers/analytics';
import { createOnrampAProvider } from '../providers/onramp-a';
import { createOnrampBProvider } from '../providers/onramp-b';
import { createAnalyticsService, type AnalyticsService } from './analytics';
import { createOnrampsService, type OnrampsService } from './onramps';
import { createWelcomeWheelService, type WelcomeWheelService } from './welcome-wheel';

/** Everything the adapters (resolvers, REST routes, gateway, indexer, jobs) may call. */
export interface Services {
  system: SystemService;
  tokens: TokenService;
  auth: AuthService;
  zklogin: ZkLoginService;
  activity: ActivityService;
  leaderboards: LeaderboardService;
  quests: QuestService;
  indexerStatus: IndexerStatusService;
  socialLinks: SocialLinksService;
  users: UsersService;
  blog: BlogService;
  chat: ChatService;
  presence: PresenceService;
  analytics: AnalyticsService;
  onramps: OnrampsService;
  welcomeWheel: WelcomeWheelService;
  prices: PriceService;
  gifts: GiftService;
  jobRuns: JobRunsService;
}

export interface ServiceDeps {
  config: Pick<Config, 'network' | 'jwt' | 'blog' | 'auth' | 'chain' | 'social' | 'smtp' | 'nodeEnv' | 'quests' | 'analytics' | 'operatorToken' | 'welcomeWheel' | 'onramps' | 'prices' | 'gifts'>;
  logger: Logger;
  db: Db;
  store: SharedStore;
  pubSub: PubSub;
  version: string;
  /** Per-process cache lifetime of leaderboard reads (0 disables; benchmarks). */
  leaderboardCacheTtlMs?: number;
  /** The process's metrics registry (/metrics) for services that report series (quests). */
  registry?: Registry;
}

export async function createServices(deps: ServiceDeps): Promise<Services> {
  const { config } = deps;
  const tokens = createTokenService({ secret: config.jwt.secret, issuer: config.jwt.issuer, accessTtlSeconds: config.auth.accessTtlSeconds });
  const signatures = createSignatureVerifier({ url: config.chain.suiUrl, transport: config.chain.transport, network: config.network });
  const leaderboards = await createLeaderboardService({ db: deps.db, store: deps.store, ttlMs: deps.leaderboardCacheTtlMs });
  const fanout = createFanout(deps.store, deps.logger);
  const chatRelay = config.social.chatRelayWebhookUrl ? createChatPlatformRelay({ webhookUrl: config.social.chatRelayWebhookUrl, logger: deps.logger }) : null;
  const zklogin = createZkLoginService({ db: deps.db, config: config.auth.zkLogin, logger: deps.logger });
  return {
    system: createSystemService({ network: deps.config.network, version: deps.version }),
    tokens,
    zklogin,
    auth: createAuthService({ db: deps.db, tokens, config: config.auth, signatures, logger: deps.logger, zkLogin: zklogin }),
    activity: createActivityService(deps.pubSub),
    chat: createChatService({ db: deps.db, store: deps.store, fanout, logger: deps.logger, relay: chatRelay }),
    presence: createPresenceService({ store: deps.store, fanout, logger: deps.logger }),
    blog: createBlogService({ webhookSecret: deps.config.blog.webhookSecret, logger: deps.logger }),
    leaderboards,
    quests: createQuestService({ db: deps.db, store: deps.store, logger: deps.logger, leaderboards, registry: deps.registry, claimLimit: config.quests.claimRateLimit }),
    indexerStatus: createIndexerStatusService({ db: deps.db, store: deps.store }),
    analytics: createAnalyticsService({
      db: deps.db,
      store: deps.store,
      leaderboards,
      provider: config.analytics ? createAnalyticsProvider({ ...config.analytics, logger: deps.logger }) : undefined,
      ttlMs: config.analytics?.cacheTtlMs ?? 0,
      operatorToken: config.operatorToken,
    }),
    onramps: createOnrampsService({
      a: config.onramps.a
        ? { widgetUrl: config.onramps.a.widgetUrl, apiKey: config.onramps.a.apiKey, provider: createOnrampAProvider({ secretKey: config.onramps.a.secretKey }) }
        : undefined,
      b: config.onramps.b ? { provider: createOnrampBProvider({ ...config.onramps.b, logger: deps.logger }) } : undefined,
      store: deps.store,
    }),
    welcomeWheel: createWelcomeWheelService({ db: deps.db, maxReward: config.welcomeWheel.maxReward }),
    socialLinks: createSocialLinksService({ db: deps.db, store: deps.store, config, logger: deps.logger }),
    prices: createPriceService({
      db: deps.db,
      store: deps.store,
      logger: deps.logger,
      source: config.prices.apiKey ? createPriceSource({ url: config.prices.apiUrl, apiKey: config.prices.apiKey }) : null,
      staleAfterSeconds: config.prices.staleAfterSeconds,
      registry: deps.registry,
    }),
    gifts: createGiftService({
      db: deps.db,
      logger: deps.logger,
      ipCheck: config.gifts.ipCheckKey ? createIpCheck({ url: config.gifts.ipCheckUrl, apiKey: config.gifts.ipCheckKey }) : null,
      ipDailyLimit: config.gifts.ipDailyLimit,
      registry: deps.registry,
    }),
    jobRuns: createJobRunsService({ db: deps.db }),
    users: createUsersService({
      db: deps.db,
      store: deps.store,
      mailer: createMailer({ smtp: config.smtp, logger: deps.logger }),
      config: config.auth,
      allowLocalHttpUrls: config.nodeEnv !== 'production' && config.network !== 'mainnet',
    }),
  };
}
