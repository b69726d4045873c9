import type { PubSub } from 'type-graphql';
import type { Registry } from 'prom-client';
import type { Config } from '../config';
import type { Db } from '../db/client';
import type { SharedStore } from '../store';
import type { Logger } from '../observability/logger';
import { createSignatureVerifier } from '../providers/sui-signatures';
import { createMailer } from '../providers/mailer';
import { createActivityService, type ActivityService } from './activity';
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
}

export interface ServiceDeps {
  config: Pick<Config, 'network' | 'jwt' | 'blog' | 'auth' | 'chain' | 'social' | 'smtp' | 'nodeEnv' | 'quests'>;
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
  const zklogin = createZkLoginService({ db: deps.db, config: config.auth.zkLogin, logger: deps.logger });
  return {
    system: createSystemService({ network: deps.config.network, version: deps.version }),
    tokens,
    zklogin,
    auth: createAuthService({ db: deps.db, tokens, config: config.auth, signatures, logger: deps.logger, zkLogin: zklogin }),
    activity: createActivityService(deps.pubSub),
    blog: createBlogService({ webhookSecret: deps.config.blog.webhookSecret, logger: deps.logger }),
    leaderboards,
    quests: createQuestService({ db: deps.db, store: deps.store, logger: deps.logger, leaderboards, registry: deps.registry, claimLimit: config.quests.claimRateLimit }),
    indexerStatus: createIndexerStatusService({ db: deps.db, store: deps.store }),
    socialLinks: createSocialLinksService({ db: deps.db, store: deps.store, config, logger: deps.logger }),
    users: createUsersService({
      db: deps.db,
      store: deps.store,
      mailer: createMailer({ smtp: config.smtp, logger: deps.logger }),
      config: config.auth,
      allowLocalHttpUrls: config.nodeEnv !== 'production' && config.network !== 'mainnet',
    }),
  };
}
