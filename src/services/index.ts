import type { PubSub } from 'type-graphql';
import type { Config } from '../config';
import type { Db } from '../db/client';
import type { SharedStore } from '../store';
import type { Logger } from '../observability/logger';
import { createActivityService, type ActivityService } from './activity';
import { createIndexerStatusService, type IndexerStatusService } from './indexer-status';
import { createBlogService, type BlogService } from './blog';
import { createLeaderboardService, type LeaderboardService } from './leaderboards';
import { createSystemService, type SystemService } from './system';
import { createTokenService, type TokenService } from './tokens';

/** Everything the adapters (resolvers, REST routes, gateway, indexer, jobs) may call. */
export interface Services {
  system: SystemService;
  tokens: TokenService;
  activity: ActivityService;
  leaderboards: LeaderboardService;
  indexerStatus: IndexerStatusService;
  blog: BlogService;
}

export interface ServiceDeps {
  config: Pick<Config, 'network' | 'jwt' | 'blog'>;
  logger: Logger;
  db: Db;
  store: SharedStore;
  pubSub: PubSub;
  version: string;
  /** Per-process cache lifetime of leaderboard reads (0 disables; benchmarks). */
  leaderboardCacheTtlMs?: number;
}

export async function createServices(deps: ServiceDeps): Promise<Services> {
  return {
    system: createSystemService({ network: deps.config.network, version: deps.version }),
    tokens: createTokenService({ secret: deps.config.jwt.secret, issuer: deps.config.jwt.issuer }),
    activity: createActivityService(deps.pubSub),
    blog: createBlogService({ webhookSecret: deps.config.blog.webhookSecret, logger: deps.logger }),
    leaderboards: await createLeaderboardService({ db: deps.db, store: deps.store, ttlMs: deps.leaderboardCacheTtlMs }),
    indexerStatus: createIndexerStatusService({ db: deps.db, store: deps.store }),
  };
}
