import type { Registry } from 'prom-client';
import type { Config } from '../config';
import type { Db } from '../db/client';
import type { Bus, SharedStore } from '../store';
import type { Logger } from '../observability/logger';
import { createSignatureVerifier } from '../providers/sui-signatures';
import { createMailer } from '../providers/mailer';
import { createIpCheck } from '../providers/ip-check';
import { createPriceSource } from '../providers/price-source';
import { createGiftService, type GiftService } from './gifts';
import { createJobRunArchiveService, type JobRunArchiveService } from './ops';
import { createJobRunsService, type JobRunsService } from './ops';
import { createPriceService, type PriceService } from './prices';
import { broadcastBetResults, createActivityService, type ActivityService } from './activity';
import { createHooks, type Hooks } from './hooks';
import { createChatPlatformRelay } from '../providers/chat-platform';
import { createChatService, type ChatService } from './chat';
import { createPresenceService, type PresenceService } from './presence';
import { createAuthService, type AuthService } from './auth';
import { createIndexerStatusService, type IndexerStatusService } from './ops';
import { createBlogService, type BlogService } from './blog';
import { createLeaderboardService, type LeaderboardService } from './leaderboards';
import { createReadCacheService, type ReadCacheService } from './read-cache';
import { createQuestService, type QuestService } from './quests';
import { createSocialLinksService, type SocialLinksService } from './users';
import { createSystemService, type SystemService } from './ops';
import { createReadinessService, type ReadinessService } from './ops';
import { createTokenService, type TokenService } from './auth';
import { createUsersService, type UsersService } from './users';
import { createZkLoginService, type ZkLoginService } from './auth';
import { createAnalyticsProvider } from '../providers/analytics';
import { createOnrampAProvider } from '../providers/onramp-a';
import { createOnrampBProvider } from '../providers/onramp-b';
import { createAnalyticsService, type AnalyticsService } from './analytics';
import { createOperatorPolicy, type OperatorPolicy } from './auth';
import { createOnrampsService, type OnrampsService } from './onramps';
import { createWelcomeWheelService, type WelcomeWheelService } from './welcome-wheel';
import { createSuiWriter } from '../providers/sui-writer';
import { createChainWriterService, type ChainWriterService } from './chain-writer';
import { createGiveawayService, registerGiveawaySettle, type GiveawayService } from './giveaways';
import { createNameserviceService, type NameserviceService } from './nameservice';
import { registerSubnameIssuance } from './nameservice';

/** Everything the adapters (resolvers, REST routes, gateway, indexer, jobs) may call. */
export interface Services {
  system: SystemService;
  readiness: ReadinessService;
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
  /** The chain-write outbox (enqueue / awaitOutcome); the jobs role runs its writer loop. */
  chainWriter: ChainWriterService;
  giveaways: GiveawayService;
  /** Name-service sub-names (one per eligible player, issued through the chain writer). */
  nameservice: NameserviceService;
  jobRunArchive: JobRunArchiveService;
  /** Who is the operator (OPERATOR_TOKEN), for every transport. */
  operator: OperatorPolicy;
  /** Domain events (chainIndexed, walletLoggedIn): emitters never wait for the domains subscribed. */
  hooks: Hooks;
  /** Generations of cached reads (response cache keys, local read caches), bumped by the indexer and the price poll. */
  readCache: ReadCacheService;
}

export interface ServiceDeps {
  config: Pick<Config, 'network' | 'jwt' | 'blog' | 'auth' | 'chain' | 'social' | 'smtp' | 'nodeEnv' | 'quests' | 'chat' | 'analytics' | 'operatorToken' | 'welcomeWheel' | 'onramps' | 'prices' | 'gifts' | 'jobs'>;
  logger: Logger;
  db: Db;
  store: SharedStore;
  /** The one pub/sub (src/store/bus.ts): activity and room events. */
  bus: Bus;
  version: string;
  /** Per-process cache lifetime of leaderboard reads (0 disables; benchmarks). */
  leaderboardCacheTtlMs?: number;
  /** The process's metrics registry (/metrics) for services that report series (quests). */
  registry?: Registry;
  /** Test seam: the clock of the services that read one (auth, quests). */
  now?: () => Date;
}

export async function createServices(deps: ServiceDeps): Promise<Services> {
  const { config } = deps;
  const tokens = createTokenService({ secret: config.jwt.secret, issuer: config.jwt.issuer, accessTtlSeconds: config.auth.accessTtlSeconds });
  const signatures = createSignatureVerifier({ url: config.chain.suiUrl, transport: config.chain.transport, network: config.network });
  const readCache = await createReadCacheService({ store: deps.store, logger: deps.logger });
  const leaderboards = await createLeaderboardService({ db: deps.db, store: deps.store, readCache, ttlMs: deps.leaderboardCacheTtlMs });
  const chatRelay = config.social.chatRelayWebhookUrl ? createChatPlatformRelay({ webhookUrl: config.social.chatRelayWebhookUrl, logger: deps.logger }) : null;
  const operator = createOperatorPolicy(config.operatorToken);
  const { writer, giveaways } = config.chain;
  const chainWriter = createChainWriterService({
    db: deps.db,
    packageId: config.chain.packageId,
    writer:
      writer.privateKey && config.chain.suiUrl
        ? createSuiWriter({ url: config.chain.suiUrl, transport: config.chain.transport, network: config.network, privateKey: writer.privateKey, gasBudget: BigInt(writer.gasBudget) })
        : null,
  });
  registerGiveawaySettle(chainWriter);
  registerSubnameIssuance(chainWriter);
  const hooks = createHooks(deps.logger);
  const activity = createActivityService(deps.bus);
  broadcastBetResults(hooks, activity, deps.logger);
  const zklogin = createZkLoginService({ db: deps.db, config: config.auth.zkLogin, logger: deps.logger });
  return {
    system: createSystemService({ network: deps.config.network, version: deps.version }),
    readiness: createReadinessService({ db: deps.db, store: deps.store }),
    tokens,
    zklogin,
    auth: createAuthService({ db: deps.db, tokens, config: config.auth, signatures, logger: deps.logger, zkLogin: zklogin, hooks, now: deps.now }),
    activity,
    hooks,
    chat: createChatService({ db: deps.db, store: deps.store, bus: deps.bus, logger: deps.logger, relay: chatRelay, limits: config.chat }),
    presence: createPresenceService({ store: deps.store, bus: deps.bus, logger: deps.logger }),
    blog: createBlogService({ webhookSecret: deps.config.blog.webhookSecret, logger: deps.logger, readCache }),
    leaderboards,
    quests: createQuestService({ db: deps.db, store: deps.store, logger: deps.logger, leaderboards, registry: deps.registry, claimLimit: config.quests.claimRateLimit, hooks, now: deps.now }),
    indexerStatus: createIndexerStatusService({ db: deps.db, store: deps.store }),
    analytics: createAnalyticsService({
      db: deps.db,
      store: deps.store,
      leaderboards,
      provider: config.analytics ? createAnalyticsProvider({ ...config.analytics, logger: deps.logger }) : undefined,
      ttlMs: config.analytics?.cacheTtlMs ?? 0,
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
      onChange: () => readCache.bump('prices'),
    }),
    gifts: createGiftService({
      db: deps.db,
      logger: deps.logger,
      ipCheck: config.gifts.ipCheckKey ? createIpCheck({ url: config.gifts.ipCheckUrl, apiKey: config.gifts.ipCheckKey }) : null,
      ipDailyLimit: config.gifts.ipDailyLimit,
      registry: deps.registry,
    }),
    operator,
    readCache,
    chainWriter,
    nameservice: createNameserviceService({ db: deps.db, chainWriter, config: config.chain.nameservice }),
    giveaways: createGiveawayService({ db: deps.db, chainWriter, graceMs: giveaways.graceMs, batchSize: giveaways.batchSize }),
    jobRuns: createJobRunsService({ db: deps.db, logger: deps.logger, registry: deps.registry, ...config.jobs }),
    jobRunArchive: createJobRunArchiveService({ db: deps.db, logger: deps.logger, archiveDir: config.jobs.archiveDir, hotDays: config.jobs.runHotDays }),
    users: createUsersService({
      db: deps.db,
      store: deps.store,
      mailer: createMailer({ smtp: config.smtp, logger: deps.logger }),
      config: config.auth,
      allowLocalHttpUrls: config.nodeEnv !== 'production' && config.network !== 'mainnet',
    }),
  };
}
